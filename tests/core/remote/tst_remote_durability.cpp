// A reporting process killed mid-run loses nothing: `osprey-cli remote sync` delivers the rest. And
// the API key never appears in any file, log or output.
#include "fake_platform.h"
#include "synthetic_run.h"

#include "common/log.h"
#include "remote/run_reporter.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <cstdio>
#include <thread>

using namespace osprey;
using namespace osprey::test;
using nlohmann::json;

namespace {

constexpr int kChildEpochs = 400;

// The reporting "trainer": emits epochs and prints each one once handleEvent has returned (queued).
int runChild(const std::string& project, const std::string& url, const std::string& runDir, int epochs) {
    log::setLevel(log::Level::Debug);
    auto options = testOptions(project, url);
    options.settings.reset(); // the key comes from ULTRALYTICS_API_KEY, like a real run
    options.finishTimeout = std::chrono::seconds(60);
    auto reporter = remote::RunReporter::start(options);
    if (!reporter) {
        std::fprintf(stderr, "child: %s\n", reporter.message().c_str());
        return 3;
    }
    SyntheticRun run{runDir};
    run.epochs = epochs;
    run.weightBytes = 64 * 1024;
    std::filesystem::create_directories(runDir);
    std::FILE* events = std::fopen((std::filesystem::path(runDir) / "events.jsonl").c_str(), "a");
    auto record = [&](const json& e) {
        feed(**reporter, e);
        if (events)
            std::fprintf(events, "%s\n", e.dump().c_str());
    };
    record(run.runStarted());
    for (int epoch = 1; epoch <= epochs; ++epoch) {
        run.emitEpoch(**reporter, epoch);
        if (events) // the events file a trainer would write beside the weights
            std::fprintf(events, "%s\n", run.epochEvent(epoch).dump().c_str());
        std::printf("E %d\n", epoch);
        std::fflush(stdout);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    record(run.finished());
    auto finished = (*reporter)->finish();
    const auto status = (*reporter)->status();
    std::printf("status %s queued=%lld\n", remote::toString(status.state),
                static_cast<long long>(status.queued));
    if (events)
        std::fclose(events);
    return finished ? 0 : 4;
}

QProcessEnvironment childEnvironment(const QString& config, const FakePlatform& server) {
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert("ULTRALYTICS_API_KEY", kTestKey);
    env.insert("ULTRALYTICS_PLATFORM_URL", QString::fromStdString(server.url()));
    env.insert("XDG_CONFIG_HOME", config);
    env.insert("NO_PROXY", "127.0.0.1,localhost");
    env.insert("no_proxy", "127.0.0.1,localhost");
    env.remove("DBUS_SESSION_BUS_ADDRESS");
    return env;
}

// Runs osprey-cli; returns its exit code and appends stdout+stderr to `output`.
int runCli(const QStringList& args, const QProcessEnvironment& env, QByteArray& output) {
    QProcess cli;
    cli.setProcessEnvironment(env);
    cli.setProcessChannelMode(QProcess::MergedChannels);
    cli.start(OSPREY_CLI_PATH, args);
    if (!cli.waitForFinished(120000))
        return -1;
    output += cli.readAll();
    return cli.exitCode();
}

QByteArray readFileBytes(const std::filesystem::path& path) {
    QFile file(QString::fromStdString(path.string()));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestRemoteDurability : public QObject {
    Q_OBJECT
private slots:
    void killedProcessIsCompletedBySync() {
        FakePlatform server;
        QVERIFY(server.ok());
        QTemporaryDir dir, config;
        const auto project = std::filesystem::path(dir.path().toStdString()) / "proj";
        QVERIFY(makeProject(project));
        // Slow answers so that a queue builds up behind the sender.
        QVERIFY(server.control("fault", {{"target", "metrics"}, {"delay", 0.1}, {"count", -1}}));
        QProcess child;
        child.setProcessEnvironment(childEnvironment(config.path(), server));
        child.start(QCoreApplication::applicationFilePath(),
                    {"--reporter-child", QString::fromStdString(project.string()),
                     QString::fromStdString(server.url()),
                     QString::fromStdString((project / "runs" / "run1").string()),
                     QString::number(kChildEpochs)});
        QVERIFY(child.waitForStarted());
        int reported = 0;
        QByteArray pending;
        while (reported < 40 && child.state() == QProcess::Running) {
            child.waitForReadyRead(1000);
            pending += child.readAllStandardOutput();
            int newline;
            while ((newline = pending.indexOf('\n')) >= 0) {
                const auto line = pending.left(newline);
                if (line.startsWith("E "))
                    reported = line.mid(2).toInt();
                pending.remove(0, newline + 1);
            }
        }
        QVERIFY2(child.state() == QProcess::Running, "the child finished before it could be killed");
        ::kill(static_cast<pid_t>(child.processId()), SIGKILL);
        child.waitForFinished();
        for (const auto& line : (pending + child.readAllStandardOutput()).split('\n'))
            if (line.startsWith("E "))
                reported = line.mid(2).toInt();
        const auto beforeSync = server.events("epoch_end").size();
        QVERIFY2(beforeSync < size_t(reported), "nothing was left for the sync to do");

        QVERIFY(server.control("clear"));
        QByteArray output;
        QByteArray status;
        const auto env = childEnvironment(config.path(), server);
        QCOMPARE(
            runCli({"remote", "status", "project=" + QString::fromStdString(project.string()), "check=false"},
                   env, status),
            0);
        QVERIFY2(status.contains(" queued, "), status.constData());
        const int rc =
            runCli({"remote", "sync", "project=" + QString::fromStdString(project.string())}, env, output);
        QVERIFY2(rc == 0, output.constData());

        const auto received = server.received();
        QVERIFY(received["duplicates"].get<int>() <=
                1); // at most the request in flight at the kill, dropped by id
        int nextEpoch = 0;
        long long previous = -1;
        std::string lines;
        for (const auto& e : received["events"]) {
            const auto id = e["eventId"].get<std::string>();
            const long long seq = std::stoll(id.substr(id.rfind('-') + 1));
            QVERIFY(seq > previous);
            previous = seq;
            if (e["event"] == "epoch_end")
                QCOMPARE(e["data"]["epoch"].get<int>(), nextEpoch++);
            if (e["event"] == "console_output")
                lines += e["data"]["content"].get<std::string>();
        }
        QVERIFY2(nextEpoch >= reported,
                 qPrintable(QString("%1 epochs delivered, %2 reported").arg(nextEpoch).arg(reported)));
        std::string expected;
        for (int epoch = 1; epoch <= reported; ++epoch)
            for (int i = 0; i < 3; ++i)
                expected += "epoch " + std::to_string(epoch) + " line " + std::to_string(i) + "\n";
        QVERIFY(lines.substr(0, expected.size()) == expected);
        qInfo("killed after %d epochs; %zu delivered before the kill, %d after sync", reported, beforeSync,
              nextEpoch);
        output.clear();
        QCOMPARE(
            runCli({"remote", "sync", "project=" + QString::fromStdString(project.string())}, env, output),
            0);
        QVERIFY2(output.contains("Sent 0 "), output.constData());
    }

    void keyNeverAppearsInFilesOrLogs() {
        FakePlatform server;
        QVERIFY(server.ok());
        QTemporaryDir dir, config;
        const auto project = std::filesystem::path(dir.path().toStdString()) / "proj";
        const auto runDir = project / "runs" / "run1";
        QVERIFY(makeProject(project));
        const auto env = childEnvironment(config.path(), server);
        QByteArray output;

        // login (with the key only on its command line), status, a full run, a sync, logout.
        auto loginEnv = env;
        loginEnv.remove("ULTRALYTICS_API_KEY");
        QCOMPARE(runCli({"remote", "login", QString("key=") + kTestKey}, loginEnv, output), 0);
        QVERIFY2(output.contains("ul_****4567"), output.constData());
        QProcess child;
        child.setProcessEnvironment(loginEnv); // the stored key, not the environment
        child.setProcessChannelMode(QProcess::MergedChannels);
        child.start(QCoreApplication::applicationFilePath(),
                    {"--reporter-child", QString::fromStdString(project.string()),
                     QString::fromStdString(server.url()), QString::fromStdString(runDir.string()), "3"});
        QVERIFY(child.waitForFinished(120000));
        output += child.readAll();
        QVERIFY2(child.exitCode() == 0, output.constData());
        QVERIFY(output.contains("ul_****4567")); // the debug log names the key, masked
        QCOMPARE(runCli({"remote", "status", "project=" + QString::fromStdString(project.string())}, loginEnv,
                        output),
                 0);
        QCOMPARE(runCli({"remote", "sync", "project=" + QString::fromStdString(project.string())}, loginEnv,
                        output),
                 0);
        QVERIFY(server.events("training_complete").size() == 1);

        // Positive control: the grep finds the key where it is meant to be (the 0600 settings file).
        const auto settingsFile =
            std::filesystem::path(config.path().toStdString()) / "osprey" / "platform.json";
        QVERIFY(readFileBytes(settingsFile).contains(kTestKey));

        QVERIFY2(!output.contains(kTestKey), "the key was printed");
        int files = 0;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.path().toStdString())) {
            if (!entry.is_regular_file())
                continue;
            ++files;
            QVERIFY2(!readFileBytes(entry.path()).contains(kTestKey), entry.path().c_str());
        }
        QVERIFY(files >= 4); // project.osprey (+ WAL), events.jsonl, weights
        QVERIFY2(server.received().dump().find(kTestKey) == std::string::npos,
                 "the key was sent inside an event");
        QCOMPARE(runCli({"remote", "logout"}, loginEnv, output), 0);
        QVERIFY(!readFileBytes(settingsFile).contains(kTestKey));
    }
};

int main(int argc, char** argv) {
    if (argc == 6 && std::string(argv[1]) == "--reporter-child")
        return runChild(argv[2], argv[3], argv[4], std::atoi(argv[5]));
    QCoreApplication app(argc, argv);
    TestRemoteDurability test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_remote_durability.moc"
