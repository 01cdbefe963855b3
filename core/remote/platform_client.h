#pragma once
// PlatformClient: one HTTP conversation with the platform's webhook API over libcurl (see
// specs/remote-platform.md). Bearer auth on API calls, none on the pre-signed PUT. TLS verification
// is always on; the proxy environment variables (HTTPS_PROXY, NO_PROXY, ...) are honoured by libcurl.
// Calls block; no retries here (the outbox sender owns retry policy).
//
// Thread affinity: one object per thread (it owns a CURL easy handle and reuses its connections).
// Different objects may be used on different threads at once.

#include "remote/http_session.h"
#include "remote/platform_settings.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace osprey::remote {

class PlatformClient {
public:
    explicit PlatformClient(PlatformSettings settings, ClientOptions options = {});
    ~PlatformClient();
    PlatformClient(const PlatformClient&) = delete;
    PlatformClient& operator=(const PlatformClient&) = delete;

    const PlatformSettings& settings() const { return m_settings; }

    /// GET <base>/api/account/summary. The key is valid when this is 200 and has `username`.
    HttpResponse accountSummary();
    /// POST <base>/api/webhooks/training/metrics with an envelope; `eventId` also goes in the
    /// Idempotency-Key header so that a server can drop duplicates.
    HttpResponse postMetrics(const std::string& envelopeJson, const std::string& eventId);
    /// POST <base>/api/webhooks/models/upload: {filename, modelId | (project, name), runId}.
    HttpResponse requestUploadUrl(const std::string& requestJson);
    /// PUT the raw file to a pre-signed URL, streamed from disk with Content-Length and a SHA-256
    /// checksum header; no auth header. The checksum and the body come from one open file.
    UploadResult putFile(const std::string& url, const std::filesystem::path& file,
                         const UploadProgress& progress = {});

private:
    HttpResponse post(const std::string& path, const std::string& body, const std::string& eventId);

    struct Impl;
    PlatformSettings m_settings;
    ClientOptions m_options;
    std::unique_ptr<Impl> m_impl;
};

} // namespace osprey::remote
