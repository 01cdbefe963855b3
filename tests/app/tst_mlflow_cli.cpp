// A real MLflow tracking server (mlflow 3.17.2 from PyPI, `mlflow server` on a loopback port with a SQLite
// store and a local artifact root) receives an Osprey training run (issue 35), and MLflow's own Python
// client reads it back: params equal args.yaml, every metric's history equals its results.csv column, the
// dataset input carries the snapshot digest, the artifacts download and best.pt is byte-identical. The
// server is stopped after epoch 1 and restarted after epoch 3 (nothing lost, nothing doubled); then every
// record is replayed (nothing doubled); `runs push` completes a run it could not send and refuses to log one
// twice; a bad URI, a refused login (401, 403), an address that is not an MLflow server and a deleted
// experiment are each said once and training goes on. Skipped with a line without the tracking venv.
#include "cli_process.h"
#include "peer_python.h"
#include "run/run_files.h"
#include "run/train_events.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <fstream>
#include <map>
#include <unistd.h>

using namespace osprey;
namespace fs = std::filesystem;

namespace {

const QString kScript = QStringLiteral(OSPREY_TEST_SOURCE_DIR "/reference/mlflow_peer.py");

/// One `mlflow server`, in its own process group so that stopping it stops its workers too.
class MlflowServer {
public:
    MlflowServer(QString python, QString dir, int port)
        : m_python(std::move(python)), m_dir(std::move(dir)), m_port(port) {}
    ~MlflowServer() { stop(); }

    QString uri() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_port); }

    void startAsync() {
        const QString mlflow = QFileInfo(m_python).dir().filePath(QStringLiteral("mlflow"));
        m_process = std::make_unique<QProcess>();
        m_process->setProcessChannelMode(QProcess::MergedChannels);
        m_process->setStandardOutputFile(m_dir + "/server.log", QIODevice::Append);
        m_process->setChildProcessModifier([] { ::setsid(); });
        m_process->start(mlflow, {"server", "--host", "127.0.0.1", "--port", QString::number(m_port),
                                  "--backend-store-uri", "sqlite:///" + m_dir + "/mlflow.db",
                                  "--artifacts-destination", m_dir + "/artifacts", "--workers", "1"});
    }
    bool waitReady() {
        QProcess wait;
        wait.start(m_python, {kScript, "wait", uri(), "120"});
        return wait.waitForFinished(130000) && wait.exitCode() == 0;
    }
    void stop() {
        if (!m_process || m_process->state() == QProcess::NotRunning)
            return;
        const auto pid = static_cast<pid_t>(m_process->processId());
        ::kill(-pid, SIGTERM);
        if (!m_process->waitForFinished(15000)) {
            ::kill(-pid, SIGKILL);
            m_process->waitForFinished(5000);
        }
        ::kill(-pid, SIGKILL); // any worker left in the group
    }
    QString log() const {
        QFile file(m_dir + "/server.log");
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()).right(3000) : QString();
    }

private:
    QString m_python, m_dir;
    int m_port;
    std::unique_ptr<QProcess> m_process;
};

QString runPython(const QString& python, const QStringList& args, int timeoutMs = 120000) {
    QProcess process;
    process.start(python, args);
    if (!process.waitForFinished(timeoutMs) || process.exitCode() != 0) {
        qWarning().noquote() << "peer failed:" << args << process.readAllStandardError().right(3000);
        return {};
    }
    return QString::fromUtf8(process.readAllStandardOutput()).trimmed();
}

/// results.csv as column -> values by epoch.
std::map<QString, std::vector<double>> readResults(const fs::path& file) {
    QFile csv(QString::fromStdString(file.string()));
    std::map<QString, std::vector<double>> columns;
    if (!csv.open(QIODevice::ReadOnly))
        return columns;
    const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
    const QStringList header = lines.value(0).split(',');
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList cells = lines[i].split(',');
        for (int c = 0; c < header.size() && c < cells.size(); ++c)
            columns[header[c]].push_back(cells[c].toDouble());
    }
    return columns;
}

QJsonArray runsNamed(const QJsonObject& read, const QString& experiment) {
    QJsonArray out;
    for (const auto& run : read["runs"].toArray())
        if (run.toObject()["experiment"].toString() == experiment)
            out.append(run);
    return out;
}

} // namespace

class TestMlflowCli : public QObject {
    Q_OBJECT

private:
    QString m_python;
    QTemporaryDir m_dir;
    std::unique_ptr<MlflowServer> m_server;
    fs::path m_project, m_run;

    QJsonObject readServer(const QString& downloads) {
        const QString text = runPython(m_python, {kScript, "read", m_server->uri(), downloads});
        return QJsonDocument::fromJson(text.toUtf8()).object();
    }

    /// The run as MLflow holds it equals the run folder.
    void checkRun(const QJsonObject& run, const QString& downloads) {
        QCOMPARE(run["name"].toString(), QStringLiteral("tracked"));
        QCOMPARE(run["status"].toString(), QStringLiteral("FINISHED"));
        // Params: args.yaml, entry for entry.
        auto args = run::readArgsYaml(m_run / "args.yaml");
        QVERIFY(args);
        const QJsonObject params = run["params"].toObject();
        QCOMPARE(params.size(), int(args->size()));
        for (const auto& [key, value] : *args)
            QCOMPARE(params[QString::fromStdString(key)].toString(), QString::fromStdString(value));
        // Metrics: each results.csv column (but epoch, the step), named as Ultralytics sanitises it.
        const auto results = readResults(m_run / "results.csv");
        QCOMPARE(int(results.at("epoch").size()), 6);
        const QJsonObject metrics = run["metrics"].toObject();
        for (const auto& [column, values] : results) {
            if (column == "epoch")
                continue;
            QString key = column;
            key.remove('(').remove(')');
            const QJsonArray history = metrics[key].toArray();
            QVERIFY2(history.size() == int(values.size()),
                     qPrintable(key + ": " + QString::number(history.size()) + " values"));
            for (int i = 0; i < history.size(); ++i) {
                QCOMPARE(history[i].toArray()[0].toInt(), i + 1);
                QCOMPARE(history[i].toArray()[1].toDouble(), values[size_t(i)]);
            }
        }
        QVERIFY(metrics.contains("system/cpu_utilization_percentage"));
        // The tags name the model.
        const QJsonObject tags = run["tags"].toObject();
        QCOMPARE(tags["osprey.model"].toString(), QStringLiteral("yolov8n"));
        QCOMPARE(tags["osprey.family"].toString(), QStringLiteral("yolov8"));
        QCOMPARE(tags["osprey.scale"].toString(), QStringLiteral("n"));
        // The dataset input carries the snapshot digest.
        std::string snapshot;
        std::ifstream events(m_run / "events.jsonl");
        for (std::string line; std::getline(events, line);)
            if (auto event = run::parseEvent(line);
                event && event->type == run::TrainEvent::Type::RunStarted) {
                snapshot = event->config["dataset_snapshot"];
                break;
            }
        QCOMPARE(int(snapshot.size()), 64);
        const QJsonArray inputs = run["inputs"].toArray();
        QCOMPARE(inputs.size(), 1);
        const QJsonObject input = inputs[0].toObject();
        QCOMPARE(input["digest"].toString(), QString::fromStdString(snapshot.substr(0, 36)));
        QCOMPARE(input["profile"].toObject()["snapshot_digest"].toString(), QString::fromStdString(snapshot));
        QCOMPARE(input["profile"].toObject()["classes"].toArray().size(), 4);
        QCOMPARE(input["tags"].toObject()["mlflow.data.context"].toString(), QStringLiteral("train"));
        // The artifacts, and best.pt byte for byte.
        const QJsonArray artifacts = run["artifacts"].toArray();
        for (const char* name : {"weights/best.pt", "weights/last.pt", "results.csv", "args.yaml",
                                 "results.png", "PR_curve.png", "labels.jpg"})
            QVERIFY2(artifacts.contains(QString::fromLatin1(name)), name);
        QFile local(QString::fromStdString((m_run / "weights" / "best.pt").string()));
        QFile remote(downloads + "/" + run["run_id"].toString() + "/weights/best.pt");
        QVERIFY(local.open(QIODevice::ReadOnly));
        QVERIFY2(remote.open(QIODevice::ReadOnly), qPrintable(remote.fileName()));
        const QByteArray bytes = local.readAll();
        QVERIFY(bytes.size() > 1000000);
        QVERIFY(remote.readAll() == bytes);
    }

private slots:
    void initTestCase() {
        m_python = test::trackingPython();
        if (m_python.isEmpty())
            QSKIP(
                "the tracking venv (mlflow 3.17.2) is not installed: packaging/setup-test-peers.sh tracking");
        QVERIFY(m_dir.isValid());
        const int port = runPython(m_python, {kScript, "free-port"}).toInt();
        QVERIFY(port > 0);
        m_server = std::make_unique<MlflowServer>(m_python, m_dir.path(), port);
        m_project = fs::path(m_dir.path().toStdString()) / "project";
        auto demo =
            test::runCli({"demo", test::pathArg("path", m_project), "images=24", "imgsz=96", "seed=3"});
        QCOMPARE(demo.exitCode, 0);
        m_server->startAsync();
        QVERIFY2(m_server->waitReady(), qPrintable(m_server->log()));
    }

    void trainsThroughAnOutage() {
        QProcess train;
        train.start(OSPREY_CLI_PATH,
                    {"train", test::pathArg("project", m_project), "model=yolov8n", "epochs=6", "imgsz=96",
                     "batch=8", "threads=2", "name=tracked", "events=jsonl", "mlflow=" + m_server->uri(),
                     "mlflow_experiment=osprey-test"});
        QVERIFY(train.waitForStarted());
        int unreachable = 0, back = 0, epochs = 0;
        QString finalLine, errors;
        while (train.state() != QProcess::NotRunning || train.canReadLine()) {
            if (!train.canReadLine() && !train.waitForReadyRead(1000))
                continue;
            while (train.canReadLine()) {
                const QString line = QString::fromUtf8(train.readLine()).trimmed();
                auto event = run::parseEvent(line.toStdString());
                if (!event)
                    continue;
                if (event->type == run::TrainEvent::Type::Epoch) {
                    ++epochs;
                    if (event->epoch == 1)
                        m_server->stop(); // down for epochs 2 and 3
                    if (event->epoch == 3)
                        m_server->startAsync();
                }
                if (event->type == run::TrainEvent::Type::Log) {
                    const QString message = QString::fromStdString(event->message);
                    unreachable += message.contains("MLflow: cannot reach");
                    back += message.contains("is reachable again");
                    if (message.startsWith("MLflow: run logged") || event->level == "warning")
                        finalLine += message + "\n";
                }
            }
        }
        errors = QString::fromUtf8(train.readAllStandardError());
        QCOMPARE(train.exitCode(), 0);
        QCOMPARE(epochs, 6);
        // Said once each, however many attempts failed.
        QCOMPARE(unreachable, 1);
        QCOMPARE(back, 1);
        QVERIFY2(finalLine.contains("MLflow: run logged"), qPrintable(finalLine + errors));
        m_run = m_project / "runs" / "tracked";

        const QString downloads = m_dir.path() + "/downloads1";
        const QJsonObject read = readServer(downloads);
        const QJsonArray runs = runsNamed(read, "osprey-test");
        QCOMPARE(runs.size(), 1);
        checkRun(runs[0].toObject(), downloads);
    }

    void aReplayDoublesNothing() {
        QVERIFY(!m_run.empty());
        const int replayed =
            runPython(m_python,
                      {kScript, "replay", QString::fromStdString((m_project / "project.osprey").string())})
                .toInt();
        QVERIFY2(replayed >= 10, qPrintable(QString::number(replayed)));
        auto sync = test::runCli({"remote", "sync", test::pathArg("project", m_project)}, 300000);
        QVERIFY2(sync.exitCode == 0, qPrintable(sync.out + sync.err));
        QVERIFY(sync.out.contains(QStringLiteral("Sent %1 queued event(s)").arg(replayed)));
        const QString downloads = m_dir.path() + "/downloads2";
        const QJsonArray runs = runsNamed(readServer(downloads), "osprey-test");
        QCOMPARE(runs.size(), 1); // the run was found by its tag, not created again
        checkRun(runs[0].toObject(), downloads);
    }

    void pushAfterwards() {
        QVERIFY(!m_run.empty());
        const QString uri = "mlflow=" + m_server->uri();
        auto again = test::runCli({"runs", "push", "tracked", test::pathArg("project", m_project), uri});
        QCOMPARE(again.exitCode, 0);
        QVERIFY2(again.out.contains("Already logged"), qPrintable(again.out + again.err));

        // The server is down: the push says what is left, and a later push completes it.
        m_server->stop();
        auto down = test::runCli({"runs", "push", "tracked", test::pathArg("project", m_project), uri,
                                  "again=true", "mlflow_experiment=pushed", "timeout=4"});
        QCOMPARE(down.exitCode, 1);
        QVERIFY2(down.err.contains("still queued"), qPrintable(down.err));
        m_server->startAsync();
        QVERIFY2(m_server->waitReady(), qPrintable(m_server->log()));
        auto up = test::runCli({"runs", "push", "tracked", test::pathArg("project", m_project), uri}, 300000);
        QVERIFY2(up.exitCode == 0, qPrintable(up.out + up.err));
        QVERIFY2(up.out.contains("Logged: " + m_server->uri() + "/#/experiments/"), qPrintable(up.out));
        const QString downloads = m_dir.path() + "/downloads3";
        const QJsonObject read = readServer(downloads);
        QCOMPARE(runsNamed(read, "osprey-test").size(), 1);
        const QJsonArray pushed = runsNamed(read, "pushed");
        QCOMPARE(pushed.size(), 1);
        checkRun(pushed[0].toObject(), downloads);
    }

    void aBadUriIsSaidOnceAndTrainingGoesOn() {
        auto run = test::runCli({"train", test::pathArg("project", m_project), "model=yolov8n", "epochs=1",
                                 "imgsz=64", "name=untracked", "mlflow=ftp://example.org/x"},
                                600000);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.err.count("NOT logged to MLflow"), 1);
        QVERIFY(run.err.contains("not the address of an MLflow tracking server"));
        QVERIFY(QFile::exists(
            QString::fromStdString((m_project / "runs" / "untracked" / "weights" / "best.pt").string())));
    }

    void refusalsAreSaidOnceAndTrainingGoesOn_data() {
        QTest::addColumn<QString>("status");
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("said");
        QTest::newRow("refused login") << "401"
                                       << R"({"error_code":"UNAUTHENTICATED"})"
                                       << "refused the login";
        QTest::newRow("forbidden") << "403"
                                   << R"({"error_code":"PERMISSION_DENIED"})"
                                   << "refused the login";
        QTest::newRow("not mlflow") << "404"
                                    << "<html>Not Found</html>"
                                    << "is not an MLflow tracking server";
    }

    void refusalsAreSaidOnceAndTrainingGoesOn() {
        QFETCH(QString, status);
        QFETCH(QString, body);
        QFETCH(QString, said);
        const int port = runPython(m_python, {kScript, "free-port"}).toInt();
        QProcess server;
        server.start(m_python, {kScript, "serve", QString::number(port), status, body});
        QVERIFY(server.waitForStarted());
        QTest::qWait(1500);
        const QString name = "refused" + status;
        auto run =
            test::runCli({"train", test::pathArg("project", m_project), "model=yolov8n", "epochs=2",
                          "imgsz=64", "name=" + name, QStringLiteral("mlflow=http://127.0.0.1:%1").arg(port)},
                         600000);
        server.kill();
        server.waitForFinished();
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.count(said) == 1, qPrintable(run.err));
        QVERIFY(run.err.contains("training goes on"));
        QVERIFY(!run.err.contains("MLflow: run logged"));
        QVERIFY(QFile::exists(QString::fromStdString(
            (m_project / "runs" / name.toStdString() / "weights" / "best.pt").string())));
        // The records wait in the project for a push.
        auto status2 = test::runCli({"remote", "status", test::pathArg("project", m_project), "check=false"});
        QVERIFY(status2.out.contains("MLflow run " + name));
    }

    void aDeletedExperimentIsSaidOnce() {
        QVERIFY(!runPython(m_python, {kScript, "delete-experiment", m_server->uri(), "retired"}).isEmpty());
        auto run = test::runCli({"train", test::pathArg("project", m_project), "model=yolov8n", "epochs=1",
                                 "imgsz=64", "name=retired", "mlflow=" + m_server->uri(),
                                 "mlflow_experiment=retired"},
                                600000);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.count("was deleted") == 1, qPrintable(run.err));
    }

    void cleanupTestCase() {
        if (m_server)
            m_server->stop();
    }
};

QTEST_GUILESS_MAIN(TestMlflowCli)
#include "tst_mlflow_cli.moc"
