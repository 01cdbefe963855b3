// Settings → Platform against a loopback stand-in of the platform's /api/account/summary: the stored key
// is only ever shown masked (no line edit or label holds it), Test sends it as a Bearer token and shows
// the account or the rejection, Save stores a typed key, Remove deletes it. A temporary settings folder
// with the keychain off keeps the user's real key store out of reach.

#include "remote/credential_store.h"
#include "remote/platform_settings.h"
#include "ui/remote/platform_settings_dialog.h"

#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

using namespace osprey;
using namespace osprey::ui;

namespace {

const std::string kKey = "ul_0123456789abcdef0123456789abcdef01234567";
const std::string kOtherKey = "ul_fedcba9876543210fedcba9876543210fedcba98";

// A minimal HTTP/1.1 server: 200 {"username":"alice"} for the right Bearer key, 401 otherwise.
class FakePlatform : public QObject {
public:
    FakePlatform() {
        QVERIFY(m_server.listen(QHostAddress::LocalHost, 0));
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* socket = m_server.nextPendingConnection()) {
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] { serve(socket); });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort()); }
    QString acceptedKey;
    QStringList requests; ///< "GET /path|Authorization value"

private:
    void serve(QTcpSocket* socket) {
        QByteArray& buffer = m_buffers[socket];
        buffer += socket->readAll();
        const qsizetype end = buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        const QList<QByteArray> lines = buffer.left(end).split('\n');
        buffer.clear();
        QByteArray authorization;
        for (const QByteArray& line : lines)
            if (line.toLower().startsWith("authorization:"))
                authorization = line.mid(14).trimmed();
        const QByteArray requestLine = lines.value(0).trimmed();
        requests << QString::fromUtf8(requestLine.left(requestLine.lastIndexOf(' '))) + '|' +
                        QString::fromUtf8(authorization);
        const bool ok = requestLine.startsWith("GET /api/account/summary ") &&
                        authorization == "Bearer " + acceptedKey.toUtf8();
        const QByteArray body =
            ok ? R"({"username":"alice","plan":"pro"})" : R"({"error":"invalid api key"})";
        socket->write((ok ? "HTTP/1.1 200 OK\r\n" : "HTTP/1.1 401 Unauthorized\r\n") +
                      QByteArray("Content-Type: application/json\r\nContent-Length: ") +
                      QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
        socket->disconnectFromHost();
    }

    QTcpServer m_server;
    QHash<QTcpSocket*, QByteArray> m_buffers;
};

// No widget may hold the key or a long piece of it in its text.
void assertKeyNowhere(const QWidget& dialog, const std::string& key) {
    const QString secret = QString::fromStdString(key);
    const QString tail = secret.right(20);
    for (const QLineEdit* edit : dialog.findChildren<QLineEdit*>()) {
        QVERIFY2(!edit->text().contains(tail), qPrintable(edit->objectName()));
        QVERIFY2(!edit->displayText().contains(tail), qPrintable(edit->objectName()));
    }
    for (const QLabel* label : dialog.findChildren<QLabel*>())
        QVERIFY2(!label->text().contains(tail), qPrintable(label->objectName()));
}

bool waitFor(QSignalSpy& spy, const QString& operation) {
    return QTest::qWaitFor(
        [&] {
            for (const auto& call : spy)
                if (call.first().toString() == operation)
                    return true;
            return false;
        },
        20000);
}

} // namespace

class TestPlatformSettingsDialog : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void storedKeyIsShownMasked();
    void testChecksTheKeyOffTheGuiThread();
    void saveAndRemove();
    void unreachablePlatformSaysSo();
    void environmentKeyTakesPrecedence();

private:
    std::unique_ptr<QTemporaryDir> m_config;
};

void TestPlatformSettingsDialog::initTestCase() {
    // Nothing here may reach the user's settings, keychain, or a proxy.
    qunsetenv(remote::kApiKeyEnv);
    qunsetenv(remote::kPlatformUrlEnv);
    for (const char* proxy :
         {"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"})
        qunsetenv(proxy);
    qputenv("NO_PROXY", "127.0.0.1,localhost");
    qputenv("OSPREY_NO_KEYCHAIN", "1");
}

void TestPlatformSettingsDialog::init() {
    m_config = std::make_unique<QTemporaryDir>();
    qputenv("XDG_CONFIG_HOME", m_config->path().toUtf8());
}

void TestPlatformSettingsDialog::storedKeyIsShownMasked() {
    const remote::CredentialStore store(m_config->filePath("osprey").toStdString(),
                                        remote::KeychainUse::Never);
    QVERIFY(store.save(kKey, "https://platform.example.com").hasValue());
    PlatformSettingsDialog dialog(store);
    QSignalSpy finished(&dialog, &PlatformSettingsDialog::operationFinished);
    dialog.show();
    QVERIFY(waitFor(finished, "load"));
    const QString masked = QString::fromStdString(remote::maskKey(kKey));
    QCOMPARE(dialog.maskedKey(), masked);
    QVERIFY(dialog.keyLabel()->text().startsWith(masked));
    QVERIFY(dialog.keyLabel()->text().contains("settings file"));
    QCOMPARE(dialog.urlEdit()->text(), QString("https://platform.example.com"));
    QVERIFY(dialog.keyEdit()->text().isEmpty());
    QCOMPARE(dialog.keyEdit()->echoMode(), QLineEdit::Password);
    assertKeyNowhere(dialog, kKey);
}

void TestPlatformSettingsDialog::testChecksTheKeyOffTheGuiThread() {
    FakePlatform platform;
    platform.acceptedKey = QString::fromStdString(kKey);
    const remote::CredentialStore store(m_config->filePath("osprey").toStdString(),
                                        remote::KeychainUse::Never);
    QVERIFY(store.save(kKey, platform.url().toStdString()).hasValue());
    PlatformSettingsDialog dialog(store);
    QSignalSpy finished(&dialog, &PlatformSettingsDialog::operationFinished);
    QVERIFY(waitFor(finished, "load"));

    // The stored key: the server answers with the account while the GUI thread keeps serving it.
    QTest::mouseClick(dialog.findChild<QPushButton*>("testKey"), Qt::LeftButton);
    QVERIFY(dialog.isBusy());
    QVERIFY(waitFor(finished, "test"));
    QCOMPARE(dialog.resultLabel()->text(), QString("The key works: signed in as alice."));
    QCOMPARE(platform.requests.size(), 1);
    QCOMPARE(platform.requests.first(), "GET /api/account/summary|Bearer " + QString::fromStdString(kKey));
    if (const QString shots = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR"); !shots.isEmpty())
        dialog.grab().save(shots + "/platform-settings.png");
    assertKeyNowhere(dialog, kKey);

    // A typed key that the platform rejects.
    finished.clear();
    dialog.keyEdit()->setText(QString::fromStdString(kOtherKey));
    QTest::mouseClick(dialog.findChild<QPushButton*>("testKey"), Qt::LeftButton);
    QVERIFY(waitFor(finished, "test"));
    QVERIFY2(dialog.resultLabel()->text().startsWith("Key rejected (401)"),
             qPrintable(dialog.resultLabel()->text()));
    QCOMPARE(platform.requests.last(),
             "GET /api/account/summary|Bearer " + QString::fromStdString(kOtherKey));
    // Testing stores nothing: the stored key is still the first one.
    QCOMPARE(store.load()->apiKey, kKey);
}

void TestPlatformSettingsDialog::saveAndRemove() {
    const remote::CredentialStore store(m_config->filePath("osprey").toStdString(),
                                        remote::KeychainUse::Never);
    PlatformSettingsDialog dialog(store);
    QSignalSpy finished(&dialog, &PlatformSettingsDialog::operationFinished);
    QVERIFY(waitFor(finished, "load"));
    QCOMPARE(dialog.keyLabel()->text(), QString("no key stored"));
    QVERIFY(!dialog.findChild<QPushButton*>("removeKey")->isEnabled());

    // An invalid URL is refused before anything is written.
    dialog.urlEdit()->setText("platform.example.com");
    dialog.save();
    QVERIFY(dialog.resultLabel()->text().contains("https://"));
    QVERIFY(!QFile::exists(QString::fromStdString(store.settingsFile().string())));

    finished.clear();
    dialog.urlEdit()->setText("https://platform.example.com/");
    dialog.keyEdit()->setText(QString::fromStdString(kKey));
    QTest::mouseClick(dialog.findChild<QPushButton*>("saveKey"), Qt::LeftButton);
    QVERIFY(waitFor(finished, "save"));
    QVERIFY(waitFor(finished, "load"));
    QVERIFY(dialog.resultLabel()->text().startsWith("Key saved, stored in the settings file"));
    QVERIFY(dialog.keyEdit()->text().isEmpty());
    QCOMPARE(dialog.maskedKey(), QString::fromStdString(remote::maskKey(kKey)));
    QCOMPARE(store.load()->apiKey, kKey);
    QCOMPARE(store.load()->baseUrl, std::string("https://platform.example.com"));
    struct stat info {};
    QCOMPARE(::stat(store.settingsFile().c_str(), &info), 0);
    QCOMPARE(info.st_mode & 0777, 0600u);
    assertKeyNowhere(dialog, kKey);

    finished.clear();
    dialog.removeKey(false);
    QVERIFY(waitFor(finished, "remove"));
    QVERIFY(waitFor(finished, "load"));
    QCOMPARE(dialog.resultLabel()->text(), QString("Key removed."));
    QCOMPARE(dialog.keyLabel()->text(), QString("no key stored"));
    const auto left = store.load();
    QVERIFY(!left || left->apiKey.empty());
    QFile file(QString::fromStdString(store.settingsFile().string()));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(!file.readAll().contains(QByteArray::fromStdString(kKey)));
}

void TestPlatformSettingsDialog::unreachablePlatformSaysSo() {
    // A port that was just free: nothing listens there.
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const QString url = QStringLiteral("http://127.0.0.1:%1").arg(probe.serverPort());
    probe.close();
    const remote::CredentialStore store(m_config->filePath("osprey").toStdString(),
                                        remote::KeychainUse::Never);
    QVERIFY(store.save(kKey, url.toStdString()).hasValue());
    PlatformSettingsDialog dialog(store);
    QSignalSpy finished(&dialog, &PlatformSettingsDialog::operationFinished);
    QVERIFY(waitFor(finished, "load"));
    dialog.testKey();
    QVERIFY(waitFor(finished, "test"));
    QVERIFY2(dialog.resultLabel()->text().contains("could not check the key"),
             qPrintable(dialog.resultLabel()->text()));
    QVERIFY(dialog.resultLabel()->text().contains(url));
    assertKeyNowhere(dialog, kKey);
}

void TestPlatformSettingsDialog::environmentKeyTakesPrecedence() {
    const remote::CredentialStore store(m_config->filePath("osprey").toStdString(),
                                        remote::KeychainUse::Never);
    QVERIFY(store.save(kKey).hasValue());
    qputenv(remote::kApiKeyEnv, QByteArray::fromStdString(kOtherKey));
    PlatformSettingsDialog dialog(store);
    QSignalSpy finished(&dialog, &PlatformSettingsDialog::operationFinished);
    QVERIFY(waitFor(finished, "load"));
    qunsetenv(remote::kApiKeyEnv);
    QCOMPARE(dialog.maskedKey(), QString::fromStdString(remote::maskKey(kOtherKey)));
    QVERIFY(dialog.keyLabel()->text().contains("environment variable"));
    const QLabel* note = nullptr;
    for (const QLabel* label : dialog.findChildren<QLabel*>())
        if (label->text().contains("ULTRALYTICS_API_KEY is set"))
            note = label;
    QVERIFY(note);
    assertKeyNowhere(dialog, kOtherKey);
    assertKeyNowhere(dialog, kKey);
}

QTEST_MAIN(TestPlatformSettingsDialog)
#include "tst_platform_settings_dialog.moc"
