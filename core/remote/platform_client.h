#pragma once
// PlatformClient: one HTTP conversation with the platform's webhook API over libcurl (see
// specs/remote-platform.md). Bearer auth on API calls, none on the pre-signed PUT. TLS verification
// is always on; the proxy environment variables (HTTPS_PROXY, NO_PROXY, ...) are honoured by libcurl.
// Calls block; no retries here (the outbox sender owns retry policy).
//
// Thread affinity: one object per thread (it owns a CURL easy handle and reuses its connections).
// Different objects may be used on different threads at once.

#include "remote/platform_settings.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace osprey::remote {

/// How a request ended below HTTP.
enum class Transport { Ok, Timeout, ConnectFailed, Error };

struct HttpResponse {
    Transport transport = Transport::Ok;
    long status = 0;                   ///< HTTP status; 0 when no answer arrived
    std::string body;                  ///< the answer's body
    std::string error;                 ///< transport error text (never contains the key)
    std::optional<double> retryAfterS; ///< the Retry-After header, in seconds, when present
};

/// What the sender should do with an answer (the spec's retry table, plus 401).
enum class Outcome { Success, Retry, Reject, Unauthorized };
Outcome classify(const HttpResponse& response);
/// One line for logs and status: "HTTP 500", "connection refused: ...", "timed out".
std::string describe(const HttpResponse& response);

struct ClientOptions {
    std::chrono::milliseconds timeout{30000};        ///< API calls
    std::chrono::milliseconds uploadTimeout{600000}; ///< the weights PUT
    std::chrono::milliseconds connectTimeout{10000};
};

/// Result of a PUT: the answer plus what was sent.
struct UploadResult {
    HttpResponse response;
    std::uint64_t sizeBytes = 0;
    std::string sha256; ///< hex SHA-256 of the bytes sent (also sent as X-Checksum-SHA256)
};

/// Called during uploads with bytes sent so far and the total; return false to abort.
using UploadProgress = std::function<bool(std::uint64_t sentBytes, std::uint64_t totalBytes)>;

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
    struct Impl;
    PlatformSettings m_settings;
    ClientOptions m_options;
    std::unique_ptr<Impl> m_impl;
};

} // namespace osprey::remote
