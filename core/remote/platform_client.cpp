#include "remote/platform_client.h"

namespace osprey::remote {

struct PlatformClient::Impl {
    HttpSession session;
};

PlatformClient::PlatformClient(PlatformSettings settings, ClientOptions options)
    : m_settings(std::move(settings)), m_options(options), m_impl(std::make_unique<Impl>()) {
    m_settings.baseUrl = trimBaseUrl(m_settings.baseUrl);
}

PlatformClient::~PlatformClient() = default;

HttpResponse PlatformClient::accountSummary() {
    return m_impl->session.send("GET", m_settings.baseUrl + "/api/account/summary",
                                {"Authorization: Bearer " + m_settings.apiKey, "Accept: application/json"},
                                {}, m_options.timeout, m_options.connectTimeout);
}

HttpResponse PlatformClient::post(const std::string& path, const std::string& body,
                                  const std::string& eventId) {
    std::vector<std::string> headers = {"Authorization: Bearer " + m_settings.apiKey,
                                        "Content-Type: application/json", "Accept: application/json"};
    if (!eventId.empty())
        headers.push_back("Idempotency-Key: " + eventId);
    return m_impl->session.send("POST", m_settings.baseUrl + path, headers, body, m_options.timeout,
                                m_options.connectTimeout);
}

HttpResponse PlatformClient::postMetrics(const std::string& envelopeJson, const std::string& eventId) {
    return post("/api/webhooks/training/metrics", envelopeJson, eventId);
}

HttpResponse PlatformClient::requestUploadUrl(const std::string& requestJson) {
    return post("/api/webhooks/models/upload", requestJson, {});
}

UploadResult PlatformClient::putFile(const std::string& url, const std::filesystem::path& file,
                                     const UploadProgress& progress) {
    // A pre-signed URL: no auth header.
    return m_impl->session.putFile(url, file, {"Content-Type: application/octet-stream"}, true, progress,
                                   m_options.uploadTimeout, m_options.connectTimeout);
}

} // namespace osprey::remote
