#pragma once
// Starts tests/core/remote/fake_platform.py on 127.0.0.1 with a free port and talks to its control
// endpoints. The server exits when this object closes its stdin.

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <curl/curl.h>
#include <nlohmann/json.hpp>

#include <string>

namespace osprey::test {

inline constexpr const char* kTestKey = "ul_0123456789abcdef0123456789abcdef01234567";

class FakePlatform {
public:
    /// Starts the server accepting `key`. Check ok() afterwards.
    explicit FakePlatform(const std::string& key = kTestKey) {
        // Loopback only: a proxy from the environment must never see test traffic.
        qputenv("NO_PROXY", "127.0.0.1,localhost");
        qputenv("no_proxy", "127.0.0.1,localhost");
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start("/usr/bin/python3",
                        {QString(OSPREY_SOURCE_DIR) + "/tests/core/remote/fake_platform.py", "--key",
                         QString::fromStdString(key), "--upload-dir", m_uploads.path()});
        if (!m_process.waitForStarted(10000))
            return;
        QByteArray line;
        while (!line.contains('\n') && m_process.waitForReadyRead(10000))
            line += m_process.readAllStandardOutput();
        if (line.startsWith("PORT "))
            m_port = line.mid(5).trimmed().toInt();
    }
    ~FakePlatform() {
        m_process.closeWriteChannel();
        if (!m_process.waitForFinished(3000))
            m_process.kill();
        m_process.waitForFinished(1000);
    }
    bool ok() const { return m_port > 0; }
    int port() const { return m_port; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port); }

    /// POST /_control/<command> with a JSON body.
    bool control(const std::string& command, const nlohmann::json& body = nlohmann::json::object()) {
        long status = 0;
        request("POST", "/_control/" + command, body.dump(), status);
        return status == 200;
    }
    /// GET /_control/received.
    nlohmann::json received() {
        long status = 0;
        const auto text = request("GET", "/_control/received", {}, status);
        auto json = nlohmann::json::parse(text, nullptr, false);
        return json.is_discarded() ? nlohmann::json::object() : json;
    }
    /// The accepted events named `event` (all when empty), in arrival order.
    std::vector<nlohmann::json> events(const std::string& event = {}) {
        std::vector<nlohmann::json> out;
        const auto all = received(); // keep the temporary alive for the loop
        if (!all.contains("events"))
            return out;
        for (const auto& e : all.at("events"))
            if (event.empty() || e["event"] == event)
                out.push_back(e);
        return out;
    }

private:
    static size_t collect(char* data, size_t size, size_t count, void* user) {
        static_cast<std::string*>(user)->append(data, size * count);
        return size * count;
    }
    std::string request(const std::string& method, const std::string& path, const std::string& body,
                        long& status) {
        std::string out;
        CURL* h = curl_easy_init();
        const auto url = this->url() + path;
        curl_easy_setopt(h, CURLOPT_URL, url.c_str());
        curl_easy_setopt(h, CURLOPT_NOPROXY, "*");
        curl_easy_setopt(h, CURLOPT_TIMEOUT, 20L);
        curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &collect);
        curl_easy_setopt(h, CURLOPT_WRITEDATA, &out);
        if (method == "POST") {
            curl_easy_setopt(h, CURLOPT_POSTFIELDS, body.c_str());
            curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
        }
        if (curl_easy_perform(h) == CURLE_OK)
            curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
        curl_easy_cleanup(h);
        return out;
    }

    QTemporaryDir m_uploads;
    QProcess m_process;
    int m_port = 0;
};

} // namespace osprey::test
