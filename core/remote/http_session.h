#pragma once
// HttpSession: blocking HTTP requests over one libcurl easy handle, shared by the platform client and the
// MLflow client. TLS verification is always on; the proxy environment variables (HTTPS_PROXY, NO_PROXY,
// ...) are honoured by libcurl. No retries here: the outbox senders own retry policy.
//
// Thread affinity: one object per thread (it owns a CURL easy handle and reuses its connections).

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace osprey::remote {

/// How a request ended below HTTP.
enum class Transport { Ok, Timeout, ConnectFailed, Error };

struct HttpResponse {
    Transport transport = Transport::Ok;
    long status = 0;                   ///< HTTP status; 0 when no answer arrived
    std::string body;                  ///< the answer's body
    std::string error;                 ///< transport error text (never contains a credential)
    std::optional<double> retryAfterS; ///< the Retry-After header, in seconds, when present
};

/// What a sender should do with an answer (the platform spec's retry table, plus 401).
enum class Outcome { Success, Retry, Reject, Unauthorized };
Outcome classify(const HttpResponse& response);
/// One line for logs and status: "HTTP 500: ...", "cannot connect: ...", "timed out: ...".
std::string describe(const HttpResponse& response);

struct ClientOptions {
    std::chrono::milliseconds timeout{30000};        ///< API calls
    std::chrono::milliseconds uploadTimeout{600000}; ///< file PUTs
    std::chrono::milliseconds connectTimeout{10000};
};

/// Result of a PUT: the answer plus what was sent.
struct UploadResult {
    HttpResponse response;
    std::uint64_t sizeBytes = 0;
    std::string sha256; ///< hex SHA-256 of the bytes sent
};

/// Called during uploads with bytes sent so far and the total; return false to abort.
using UploadProgress = std::function<bool(std::uint64_t sentBytes, std::uint64_t totalBytes)>;

class HttpSession {
public:
    HttpSession();
    ~HttpSession();
    HttpSession(const HttpSession&) = delete;
    HttpSession& operator=(const HttpSession&) = delete;

    /// GET (empty `body` and method "GET") or a request with a body ("POST", "PATCH", ...). `headers` are
    /// whole header lines ("Authorization: Bearer ...").
    HttpResponse send(const std::string& method, const std::string& url,
                      const std::vector<std::string>& headers, const std::string& body,
                      std::chrono::milliseconds timeout, std::chrono::milliseconds connectTimeout);

    /// PUTs a file streamed from disk with Content-Length. The SHA-256 is computed from the same open
    /// file first; with `checksumHeader` it is also sent as X-Checksum-SHA256.
    UploadResult putFile(const std::string& url, const std::filesystem::path& file,
                         const std::vector<std::string>& headers, bool checksumHeader,
                         const UploadProgress& progress, std::chrono::milliseconds timeout,
                         std::chrono::milliseconds connectTimeout);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

/// Percent-encodes a URL query value or path segment (RFC 3986 unreserved characters stay).
std::string urlEncode(const std::string& text);

} // namespace osprey::remote
