#include "remote/http_session.h"

#include "common/version.h"
#include "remote/checksum.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <mutex>

namespace osprey::remote {
namespace {

void globalInit() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct EasyDeleter {
    void operator()(CURL* handle) const { curl_easy_cleanup(handle); }
};
struct ListDeleter {
    void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
using HeaderList = std::unique_ptr<curl_slist, ListDeleter>;

void append(HeaderList& list, const std::string& header) {
    list.reset(curl_slist_append(list.release(), header.c_str()));
}

size_t writeBody(char* data, size_t size, size_t count, void* user) {
    static_cast<std::string*>(user)->append(data, size * count);
    return size * count;
}

size_t readHeader(char* data, size_t size, size_t count, void* user) {
    const std::string line(data, size * count);
    auto* retryAfter = static_cast<std::optional<double>*>(user);
    const auto colon = line.find(':');
    if (colon == std::string::npos)
        return size * count;
    std::string name = line.substr(0, colon);
    for (auto& c : name)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name != "retry-after")
        return size * count;
    std::string value = line.substr(colon + 1);
    while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front())))
        value.erase(value.begin());
    while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back())))
        value.pop_back();
    char* end = nullptr;
    const double seconds = std::strtod(value.c_str(), &end);
    if (end && *end == '\0' && !value.empty()) {
        *retryAfter = seconds < 0 ? 0.0 : seconds;
    } else {
        // An HTTP date: the delay is the distance from now.
        const time_t when = curl_getdate(value.c_str(), nullptr);
        if (when > 0)
            *retryAfter = std::max(0.0, double(when - std::time(nullptr)));
    }
    return size * count;
}

struct UploadState {
    std::FILE* file = nullptr;
    const UploadProgress* progress = nullptr;
};

size_t readUpload(char* buffer, size_t size, size_t count, void* user) {
    auto* state = static_cast<UploadState*>(user);
    const size_t n = std::fread(buffer, 1, size * count, state->file);
    if (n == 0 && std::ferror(state->file))
        return CURL_READFUNC_ABORT;
    return n;
}

int uploadProgress(void* user, curl_off_t, curl_off_t, curl_off_t totalUp, curl_off_t sentUp) {
    auto* state = static_cast<UploadState*>(user);
    if (state->progress && *state->progress)
        return (*state->progress)(static_cast<std::uint64_t>(sentUp), static_cast<std::uint64_t>(totalUp))
                   ? 0
                   : 1;
    return 0;
}

Transport transportOf(CURLcode code) {
    switch (code) {
    case CURLE_OK:
        return Transport::Ok;
    case CURLE_OPERATION_TIMEDOUT:
        return Transport::Timeout;
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
        return Transport::ConnectFailed;
    default:
        return Transport::Error;
    }
}

} // namespace

Outcome classify(const HttpResponse& response) {
    if (response.transport != Transport::Ok)
        return Outcome::Retry;
    const long s = response.status;
    if (s >= 200 && s < 300)
        return Outcome::Success;
    if (s == 401)
        return Outcome::Unauthorized;
    if (s >= 500 || s == 408 || s == 429)
        return Outcome::Retry;
    return Outcome::Reject;
}

std::string describe(const HttpResponse& response) {
    switch (response.transport) {
    case Transport::Timeout:
        return "timed out: " + response.error;
    case Transport::ConnectFailed:
        return "cannot connect: " + response.error;
    case Transport::Error:
        return "network error: " + response.error;
    case Transport::Ok:
        break;
    }
    std::string text = "HTTP " + std::to_string(response.status);
    if (!response.body.empty())
        text += ": " + response.body.substr(0, 200);
    return text;
}

struct HttpSession::Impl {
    std::unique_ptr<CURL, EasyDeleter> easy;

    // Options shared by every request. Deliberately absent: CURLOPT_SSL_VERIFYPEER/HOST = 0 (TLS checks
    // stay on) and CURLOPT_PROXY/NOPROXY (so libcurl reads the proxy environment variables itself).
    void reset(std::chrono::milliseconds timeout, std::chrono::milliseconds connectTimeout,
               HttpResponse& response) {
        CURL* h = easy.get();
        curl_easy_reset(h);
        curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
        curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(connectTimeout.count()));
        curl_easy_setopt(h, CURLOPT_USERAGENT, (std::string("osprey/") + kVersion).c_str());
        curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &writeBody);
        curl_easy_setopt(h, CURLOPT_WRITEDATA, &response.body);
        curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, &readHeader);
        curl_easy_setopt(h, CURLOPT_HEADERDATA, &response.retryAfterS);
        curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    }

    void perform(HttpResponse& response, char* errorBuffer) {
        CURL* h = easy.get();
        errorBuffer[0] = '\0';
        curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errorBuffer);
        const CURLcode code = curl_easy_perform(h);
        response.transport = transportOf(code);
        if (code != CURLE_OK) {
            response.error = errorBuffer[0] ? errorBuffer : curl_easy_strerror(code);
            response.status = 0;
            return;
        }
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &response.status);
    }
};

HttpSession::HttpSession() : m_impl(std::make_unique<Impl>()) {
    globalInit();
    m_impl->easy.reset(curl_easy_init());
}

HttpSession::~HttpSession() = default;

HttpResponse HttpSession::send(const std::string& method, const std::string& url,
                               const std::vector<std::string>& headerLines, const std::string& body,
                               std::chrono::milliseconds timeout, std::chrono::milliseconds connectTimeout) {
    HttpResponse response;
    if (!m_impl->easy)
        return {Transport::Error, 0, {}, "libcurl could not be initialised", {}};
    m_impl->reset(timeout, connectTimeout, response);
    HeaderList headers;
    for (const auto& line : headerLines)
        append(headers, line);
    // libcurl would otherwise wait for "100 Continue" on larger bodies.
    append(headers, "Expect:");
    CURL* h = m_impl->easy.get();
    curl_easy_setopt(h, CURLOPT_URL, url.c_str());
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
    if (method != "GET") {
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, body.c_str());
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
        if (method != "POST")
            curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method.c_str());
    }
    char error[CURL_ERROR_SIZE];
    m_impl->perform(response, error);
    return response;
}

UploadResult HttpSession::putFile(const std::string& url, const std::filesystem::path& file,
                                  const std::vector<std::string>& headerLines, bool checksumHeader,
                                  const UploadProgress& progress, std::chrono::milliseconds timeout,
                                  std::chrono::milliseconds connectTimeout) {
    UploadResult result;
    if (!m_impl->easy) {
        result.response = {Transport::Error, 0, {}, "libcurl could not be initialised", {}};
        return result;
    }
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> stream(std::fopen(file.c_str(), "rb"), &std::fclose);
    if (!stream) {
        result.response = {Transport::Error, 0, {}, file.string() + ": cannot open for upload", {}};
        return result;
    }
    auto digest = sha256StreamHex(stream.get());
    if (!digest) {
        result.response = {Transport::Error, 0, {}, file.string() + ": " + digest.message(), {}};
        return result;
    }
    result.sha256 = *digest;
    std::fseek(stream.get(), 0, SEEK_END);
    result.sizeBytes = static_cast<std::uint64_t>(std::ftell(stream.get()));
    std::rewind(stream.get());

    HttpResponse& response = result.response;
    m_impl->reset(timeout, connectTimeout, response);
    HeaderList headers;
    for (const auto& line : headerLines)
        append(headers, line);
    if (checksumHeader)
        append(headers, "X-Checksum-SHA256: " + result.sha256);
    append(headers, "Expect:");
    UploadState state{stream.get(), &progress};
    CURL* h = m_impl->easy.get();
    curl_easy_setopt(h, CURLOPT_URL, url.c_str());
    curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
    curl_easy_setopt(h, CURLOPT_READFUNCTION, &readUpload);
    curl_easy_setopt(h, CURLOPT_READDATA, &state);
    curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(result.sizeBytes));
    curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, &uploadProgress);
    curl_easy_setopt(h, CURLOPT_XFERINFODATA, &state);
    curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
    char error[CURL_ERROR_SIZE];
    m_impl->perform(response, error);
    return result;
}

std::string urlEncode(const std::string& text) {
    static const char* kHex = "0123456789ABCDEF";
    std::string out;
    for (const unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}

} // namespace osprey::remote
