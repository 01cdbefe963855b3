// Settings precedence, normalisation, key masking, the 0600 credentials file, and PlatformClient's
// key check against the fake platform.
#include "fake_platform.h"

#include "project/project.h"
#include "remote/credential_store.h"
#include "remote/outbox.h"
#include "remote/outbox_sender.h"
#include "remote/platform_client.h"
#include "remote/platform_settings.h"

#include <QTemporaryDir>
#include <QtTest>
#include <sys/stat.h>

using namespace osprey;
using namespace osprey::remote;
using osprey::test::kTestKey;

class TestPlatformClient : public QObject {
    Q_OBJECT
private slots:
    void init() {
        qunsetenv(kApiKeyEnv);
        qunsetenv(kPlatformUrlEnv);
        qputenv("XDG_CONFIG_HOME", m_config.path().toUtf8());
        std::filesystem::remove_all(std::filesystem::path(m_config.path().toStdString()) / "osprey");
    }

    void normalisesProjectAndName() {
        QCOMPARE(QString::fromStdString(normalizeProject("Tester/My Project!")),
                 QString("Tester/my-project"));
        QCOMPARE(QString::fromStdString(normalizeProject("ACME Corp/Yolo_V8 Run #2")),
                 QString("ACME Corp/yolov8-run-2"));
        QCOMPARE(normalizeProject("u/" + std::string(300, 'A')).size(), size_t(2 + 128));
        QCOMPARE(QString::fromStdString(normalizeName("Run 1")), QString("run-1"));
        QCOMPARE(QString::fromStdString(normalizeName("!!!")), QString("train"));
        QCOMPARE(QString::fromStdString(normalizeName("")), QString("train"));
    }

    void masksKeys() {
        QCOMPARE(QString::fromStdString(maskKey(kTestKey)), QString("ul_****4567"));
        QCOMPARE(QString::fromStdString(maskKey("short")), QString("****"));
        QVERIFY(looksLikeApiKey(kTestKey));
        QVERIFY(!looksLikeApiKey("ul_xyz"));
    }

    void settingsPrecedence() {
        QCOMPARE(QString::fromStdString(resolveSettings().baseUrl), QString(kDefaultPlatformUrl));
        QVERIFY(resolveSettings().apiKey.empty());
        CredentialStore store({}, KeychainUse::Never);
        QVERIFY(store.save("ul_stored0000000000000000000000000000000000", "http://stored.example/"));
        auto fromStore = resolveSettings();
        QCOMPARE(QString::fromStdString(fromStore.apiKey),
                 QString("ul_stored0000000000000000000000000000000000"));
        QCOMPARE(QString::fromStdString(fromStore.baseUrl), QString("http://stored.example"));
        QCOMPARE(fromStore.keySource, SettingSource::SettingsFile);
        qputenv(kApiKeyEnv, kTestKey);
        qputenv(kPlatformUrlEnv, "http://env.example");
        auto fromEnv = resolveSettings();
        QCOMPARE(QString::fromStdString(fromEnv.apiKey), QString(kTestKey));
        QCOMPARE(QString::fromStdString(fromEnv.baseUrl), QString("http://env.example"));
        QCOMPARE(fromEnv.keySource, SettingSource::Environment);
        qunsetenv(kApiKeyEnv);
        qunsetenv(kPlatformUrlEnv);
    }

    void settingsFileIsPrivateAndRemovable() {
        CredentialStore store; // Auto: no session bus here, so the keychain must fail over to the file
        auto where = store.save(kTestKey);
        QVERIFY2(where, where ? "" : where.message().c_str());
        const auto file = store.settingsFile();
        QCOMPARE(QString::fromStdString(file.string()), m_config.path() + "/osprey/platform.json");
        struct stat info {};
        QCOMPARE(::stat(file.c_str(), &info), 0);
        QCOMPARE(int(info.st_mode & 0777), 0600);
        QCOMPARE(QString::fromStdString(store.load()->apiKey), QString(kTestKey));
        QVERIFY(store.remove());
        QVERIFY(!store.load() || store.load()->apiKey.empty());
        QCOMPARE(::stat(file.c_str(), &info), 0);
        QCOMPARE(int(info.st_mode & 0777), 0600);
    }

    void keychainFailsGracefully() {
        // A bogus session bus address: libsecret cannot connect, so save() must fall back to the file.
        qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/osprey-test-bus");
        CredentialStore store;
        auto where = store.save(kTestKey);
        qunsetenv("DBUS_SESSION_BUS_ADDRESS");
        QVERIFY2(where, where ? "" : where.message().c_str());
        QCOMPARE(*where, SettingSource::SettingsFile);
        QCOMPARE(QString::fromStdString(store.load()->apiKey), QString(kTestKey));
    }

    void checksKeyAgainstAccountSummary() {
        test::FakePlatform server;
        QVERIFY(server.ok());
        PlatformSettings good{kTestKey, server.url()};
        auto ok = PlatformClient(good).accountSummary();
        QCOMPARE(classify(ok), Outcome::Success);
        QVERIFY(ok.body.find("\"username\"") != std::string::npos);
        PlatformSettings bad{"ul_ffffffffffffffffffffffffffffffffffffffff", server.url()};
        QCOMPARE(classify(PlatformClient(bad).accountSummary()), Outcome::Unauthorized);
    }

    void classifiesFailures() {
        test::FakePlatform server;
        QVERIFY(server.ok());
        PlatformSettings settings{kTestKey, server.url()};
        PlatformClient client(settings);
        const std::string envelope = R"({"event":"epoch_end","data":{},"project":"a/b","name":"c"})";
        QVERIFY(server.control("fault",
                               {{"target", "metrics"}, {"status", 429}, {"retryAfter", 7}, {"count", 1}}));
        auto throttled = client.postMetrics(envelope, "x-1");
        QCOMPARE(throttled.status, 429L);
        QCOMPARE(classify(throttled), Outcome::Retry);
        QCOMPARE(throttled.retryAfterS.value_or(-1), 7.0);
        QVERIFY(server.control("fault", {{"target", "metrics"}, {"status", 404}, {"count", 1}}));
        QCOMPARE(classify(client.postMetrics(envelope, "x-2")), Outcome::Reject);
        QVERIFY(server.control("fault", {{"target", "metrics"}, {"status", 408}, {"count", 1}}));
        QCOMPARE(classify(client.postMetrics(envelope, "x-3")), Outcome::Retry);
        // The server rejects NaN literals, so the client must never send them.
        QCOMPARE(
            client.postMetrics(R"({"event":"epoch_end","data":{"x":NaN},"project":"a/b","name":"c"})", "x-4")
                .status,
            400L);
        // A slow answer past the timeout is a retryable timeout.
        QVERIFY(server.control("fault", {{"target", "metrics"}, {"delay", 1.5}, {"count", 1}}));
        PlatformClient impatient(settings, ClientOptions{std::chrono::milliseconds(300)});
        auto slow = impatient.postMetrics(envelope, "x-5");
        QCOMPARE(slow.transport, Transport::Timeout);
        QCOMPARE(classify(slow), Outcome::Retry);
        // A refused connection.
        PlatformSettings nowhere{kTestKey, "http://127.0.0.1:1"};
        auto refused = PlatformClient(nowhere).accountSummary();
        QCOMPARE(refused.transport, Transport::ConnectFailed);
        QCOMPARE(classify(refused), Outcome::Retry);
    }

    void backoffGrowsWithJitterAndCaps() {
        QTemporaryDir dir;
        const std::filesystem::path folder = dir.path().toStdString();
        QVERIFY(project::Project::create(folder));
        auto outbox = Outbox::open(folder);
        QVERIFY(outbox);
        PlatformSettings settings{kTestKey, "http://127.0.0.1:1"};
        PlatformClient client(settings);
        OutboxSender sender(**outbox, client,
                            RetryPolicy{std::chrono::milliseconds(1000), std::chrono::milliseconds(8000)});
        bool varied = false;
        for (int n = 1; n <= 6; ++n) {
            const double full = std::min(1000.0 * std::pow(2.0, n - 1), 8000.0);
            const auto first = sender.backoff(n).count();
            for (int k = 0; k < 20; ++k) {
                const auto wait = sender.backoff(n).count();
                QVERIFY2(wait >= full * 0.5 - 1 && wait <= full,
                         qPrintable(QString("n=%1 wait=%2").arg(n).arg(wait)));
                varied = varied || wait != first;
            }
        }
        QVERIFY(varied); // jitter
    }

private:
    QTemporaryDir m_config;
};

QTEST_GUILESS_MAIN(TestPlatformClient)
#include "tst_platform_client.moc"
