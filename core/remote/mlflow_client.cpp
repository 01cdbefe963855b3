#include "remote/mlflow_client.h"

#include <nlohmann/json.hpp>
#include <openssl/evp.h>

#include <cstdlib>
#include <sstream>

namespace osprey::remote {
namespace {

std::string env(const char* name) {
    const char* value = std::getenv(name);
    return value ? std::string(value) : std::string();
}

std::string base64(const std::string& text) {
    std::string out(4 * ((text.size() + 2) / 3) + 1, '\0');
    const int n =
        EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                        reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
    out.resize(static_cast<size_t>(n));
    return out;
}

/// Each path segment percent-encoded, the slashes kept.
std::string encodePath(const std::string& path) {
    std::string out, segment;
    std::istringstream in(path);
    bool first = true;
    while (std::getline(in, segment, '/')) {
        if (!first)
            out += '/';
        out += urlEncode(segment);
        first = false;
    }
    return out;
}

} // namespace

Expected<std::string> checkTrackingUri(const std::string& uri) {
    std::string trimmed = uri;
    while (!trimmed.empty() && trimmed.back() == '/')
        trimmed.pop_back();
    const auto scheme = trimmed.find("://");
    const std::string name = scheme == std::string::npos ? std::string() : trimmed.substr(0, scheme);
    if (name != "http" && name != "https") {
        if (trimmed == "databricks" || trimmed.rfind("databricks", 0) == 0)
            return fail("mlflow=" + uri +
                            ": Databricks tracking is not supported; give the http(s) address of an MLflow "
                            "tracking server (mlflow server ...)",
                        "bad_uri");
        return fail("mlflow=" + uri +
                        ": not the address of an MLflow tracking server; give it as http://host:port (Osprey "
                        "talks to a running `mlflow server` through its REST API; file stores and database "
                        "URIs are the server's business)",
                    "bad_uri");
    }
    const auto hostStart = scheme + 3;
    const auto hostEnd = trimmed.find('/', hostStart);
    const std::string authority = trimmed.substr(hostStart, hostEnd - hostStart);
    if (authority.empty())
        return fail("mlflow=" + uri + ": the address has no host", "bad_uri");
    if (authority.find('@') != std::string::npos)
        return fail("mlflow=" + uri.substr(0, hostStart) +
                        "...: the address holds a user name or password; give them in "
                        "MLFLOW_TRACKING_USERNAME and MLFLOW_TRACKING_PASSWORD (or a token in "
                        "MLFLOW_TRACKING_TOKEN) so that they are never written to the run's records",
                    "bad_uri");
    return trimmed;
}

std::string mlflowErrorCode(const HttpResponse& response) {
    const auto body = nlohmann::json::parse(response.body, nullptr, false);
    if (body.is_object() && body.contains("error_code") && body["error_code"].is_string())
        return body["error_code"].get<std::string>();
    return {};
}

MlflowOutcome classifyMlflow(const HttpResponse& response) {
    if (response.transport != Transport::Ok)
        return MlflowOutcome::Retry;
    const long s = response.status;
    if (s >= 200 && s < 300)
        return MlflowOutcome::Success;
    if (s == 401 || s == 403)
        return MlflowOutcome::Refused;
    if (s >= 500 || s == 408 || s == 429)
        return MlflowOutcome::Retry;
    if (s == 404 || s == 405) {
        const std::string code = mlflowErrorCode(response);
        if (code.empty() || code == "ENDPOINT_NOT_FOUND")
            return MlflowOutcome::NotMlflow;
    }
    return MlflowOutcome::Reject;
}

MlflowClient::MlflowClient(std::string uri, ClientOptions options)
    : m_uri(std::move(uri)), m_options(options) {
    if (const std::string token = env("MLFLOW_TRACKING_TOKEN"); !token.empty())
        m_authorization = "Authorization: Bearer " + token;
    else if (const std::string user = env("MLFLOW_TRACKING_USERNAME"); !user.empty())
        m_authorization = "Authorization: Basic " + base64(user + ":" + env("MLFLOW_TRACKING_PASSWORD"));
}

std::vector<std::string> MlflowClient::headers(bool json) const {
    std::vector<std::string> lines = {"Accept: application/json"};
    if (json)
        lines.push_back("Content-Type: application/json");
    if (!m_authorization.empty())
        lines.push_back(m_authorization);
    return lines;
}

HttpResponse MlflowClient::get(const std::string& endpointAndQuery) {
    return m_session.send("GET", m_uri + "/api/2.0/mlflow/" + endpointAndQuery, headers(false), {},
                          m_options.timeout, m_options.connectTimeout);
}

HttpResponse MlflowClient::post(const std::string& endpoint, const std::string& bodyJson) {
    return m_session.send("POST", m_uri + "/api/2.0/mlflow/" + endpoint, headers(true), bodyJson,
                          m_options.timeout, m_options.connectTimeout);
}

UploadResult MlflowClient::putArtifact(const std::string& proxyPath, const std::filesystem::path& file) {
    auto lines = headers(false);
    lines.push_back("Content-Type: application/octet-stream");
    return m_session.putFile(m_uri + "/api/2.0/mlflow-artifacts/artifacts/" + encodePath(proxyPath), file,
                             lines, false, {}, m_options.uploadTimeout, m_options.connectTimeout);
}

} // namespace osprey::remote
