// osprey-cli train, data parallel over c10d Gloo on loopback (issue 18): the built-in launcher
// (device=cpu workers_per_node=2) supervising its workers, a worker killed mid-epoch, resume, and two
// processes started with the torchrun environment (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT), ranks
// started with other arguments, a port in use and a malformed variable.
#include "cli_process.h"
#include "project/project.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <fstream>

using namespace osprey;

namespace {

QStringList trainArgs(const std::filesystem::path& project, const QString& name, int epochs) {
    return {"train",          test::pathArg("project", project),
            "model=yolov8n",  "epochs=" + QString::number(epochs),
            "imgsz=64",       "batch=8",
            "workers=1",      "name=" + name,
            "close_mosaic=1", "device=cpu"};
}

std::string readText(const std::filesystem::path& path) {
    std::ifstream file(path);
    return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

QString lastLine(const std::filesystem::path& path) {
    const auto lines = QString::fromStdString(readText(path)).trimmed().split('\n');
    return lines.isEmpty() ? QString() : lines.back();
}

int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
    socklen_t length = sizeof address;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    ::close(fd);
    return ntohs(address.sin_port);
}

// osprey-cli train as one rank of a torchrun-style job of two, rank 0 hosting the store at `port`.
std::unique_ptr<QProcess> startRank(const QString& rank, int port, const QStringList& args) {
    auto process = std::make_unique<QProcess>();
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert("RANK", rank);
    env.insert("WORLD_SIZE", "2");
    env.insert("MASTER_ADDR", "127.0.0.1");
    env.insert("MASTER_PORT", QString::number(port));
    process->setProcessEnvironment(env);
    process->start(OSPREY_CLI_PATH, args);
    return process;
}

std::string runStatus(const std::filesystem::path& project, const std::string& name) {
    auto opened = project::Project::open(project);
    if (!opened)
        return "cannot open";
    auto runs = opened.value()->runs().list();
    if (runs)
        for (const auto& run : runs.value())
            if (run.name == name)
                return std::string(project::toString(run.status));
    return "no row";
}

} // namespace

class TestTrainDistributedCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_project = std::filesystem::path(m_dir.path().toStdString()) / "demo";
        const auto made = test::runCli({"demo", test::pathArg("path", m_project), "images=80", "imgsz=64"});
        QVERIFY2(made.exitCode == 0, qPrintable(made.err));
    }

    // A worker killed mid-epoch: the launcher stops the other, the run fails naming the rank and why,
    // and last.pt resumes.
    void killedWorkerFailsTheRun() {
        QProcess train;
        auto args = trainArgs(m_project, "killed", 4);
        args << "workers_per_node=2"
             << "events=jsonl";
        train.start(OSPREY_CLI_PATH, args);
        QVERIFY(train.waitForStarted());
        QString err, out;
        qint64 rank1 = 0;
        bool checkpointed = false, killed = false;
        std::chrono::steady_clock::time_point killedAt;
        QElapsedTimer timer;
        timer.start();
        while (!killed && timer.elapsed() < 300000 && train.state() == QProcess::Running) {
            train.waitForReadyRead(200);
            err += QString::fromUtf8(train.readAllStandardError());
            out += QString::fromUtf8(train.readAllStandardOutput());
            const auto pid = QRegularExpression("rank 1 pid (\\d+)").match(err);
            if (pid.hasMatch())
                rank1 = pid.captured(1).toLongLong();
            checkpointed = checkpointed || out.contains("\"kind\":\"last\"");
            // The first batch event of epoch 2 that is not its last batch: mid-epoch.
            if (rank1 > 0 && checkpointed &&
                QRegularExpression("\"batch\":[1-7],\"batches\":8.*\"epoch\":2,").match(out).hasMatch()) {
                QCOMPARE(::kill(static_cast<pid_t>(rank1), SIGKILL), 0);
                killed = true;
                killedAt = std::chrono::steady_clock::now();
            }
        }
        QVERIFY2(killed, qPrintable(err.right(2000)));
        QVERIFY(train.waitForFinished(60000));
        const double endedS =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - killedAt).count();
        std::printf("run ended %.2f s after rank 1 was killed\n", endedS);
        QVERIFY2(endedS < 30, qPrintable(QString::number(endedS)));
        QCOMPARE(train.exitCode(), 1);
        out += QString::fromUtf8(train.readAllStandardOutput());

        const auto runDir = m_project / "runs" / "killed";
        const QString failed = lastLine(runDir / "events.jsonl");
        QVERIFY2(failed.contains("\"type\":\"failed\"") && failed.contains("rank 1 of 2") &&
                     failed.contains("killed by signal 9"),
                 qPrintable(failed));
        QCOMPARE(runStatus(m_project, "killed"), std::string("failed"));
        QVERIFY(std::filesystem::exists(runDir / "weights" / "last.pt"));
        QVERIFY(std::filesystem::exists(runDir / "rank1.log"));

        auto resume = test::runCli({"train", test::pathArg("project", m_project), "name=killed",
                                    "resume=true", "device=cpu", "workers_per_node=2", "workers=1"},
                                   300000);
        QVERIFY2(resume.exitCode == 0, qPrintable(resume.err.right(2000)));
        QVERIFY2(resume.err.contains("Resuming training from"), qPrintable(resume.err.right(2000)));
        QVERIFY(resume.err.contains("Weights identical on all 2 ranks"));
        const auto csv = QString::fromStdString(readText(runDir / "results.csv")).trimmed().split('\n');
        QCOMPARE(csv.size(), 5); // header and 4 epochs
        QCOMPARE(runStatus(m_project, "killed"), std::string("finished"));
        // Events carry the world size; throughput is the sum over the ranks.
        QVERIFY(QString::fromStdString(readText(runDir / "events.jsonl")).contains("\"world_size\":\"2\""));
    }

    // torchrun's environment: two osprey-cli processes, rank 0 hosting the store at MASTER_PORT.
    void torchrunEnvironment() {
        const int port = freePort();
        std::vector<std::unique_ptr<QProcess>> ranks;
        for (int rank = 0; rank < 2; ++rank) {
            ranks.push_back(startRank(QString::number(rank), port, trainArgs(m_project, "torchrun", 1)));
            QVERIFY(ranks.back()->waitForStarted());
        }
        for (auto& process : ranks) {
            QVERIFY(process->waitForFinished(300000));
            QVERIFY2(process->exitCode() == 0,
                     qPrintable(QString::fromUtf8(process->readAllStandardError())));
        }
        const auto runDir = m_project / "runs" / "torchrun";
        const auto checksum = QRegularExpression("Weights checksum on rank 1: ([0-9a-f]{16})")
                                  .match(QString::fromStdString(readText(runDir / "rank1.log")));
        QVERIFY(checksum.hasMatch());
        const auto events = QString::fromStdString(readText(runDir / "events.jsonl"));
        QVERIFY2(
            events.contains("Weights identical on all 2 ranks (checksum of the trained and EMA parameters " +
                            checksum.captured(1) + ")"),
            qPrintable(events.right(2000)));
        QCOMPARE(runStatus(m_project, "torchrun"), std::string("finished"));
    }

    // Ranks started with different arguments fail at the start, naming the rank and the key.
    void mismatchedConfigurations() {
        const int port = freePort();
        std::vector<std::unique_ptr<QProcess>> ranks;
        for (int rank = 0; rank < 2; ++rank) {
            ranks.push_back(
                startRank(QString::number(rank), port, trainArgs(m_project, "mismatch", 1 + rank)));
            QVERIFY(ranks.back()->waitForStarted());
        }
        for (auto& process : ranks) {
            QVERIFY(process->waitForFinished(120000));
            QCOMPARE(process->exitCode(), 1);
            const auto err = QString::fromUtf8(process->readAllStandardError());
            QVERIFY2(
                err.contains("rank 1's configuration differs from rank 0's: epochs=2 on rank 1, epochs=1 on "
                             "rank 0"),
                qPrintable(err));
        }
    }

    // A port in use and a malformed variable: plain messages, and no run folder is claimed.
    void environmentErrors() {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
        QCOMPARE(::listen(fd, 1), 0);
        socklen_t length = sizeof address;
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
        const auto start = [&](const QString& rank, int port) {
            auto process = startRank(rank, port, trainArgs(m_project, "refused", 1));
            process->waitForFinished(120000);
            return std::pair{process->exitCode(), QString::fromUtf8(process->readAllStandardError())};
        };
        const auto [inUse, inUseErr] = start("0", ntohs(address.sin_port));
        ::close(fd);
        QCOMPARE(inUse, 1);
        QVERIFY2(inUseErr.contains("rank 0: cannot host the rendezvous store on 127.0.0.1:") &&
                     inUseErr.contains("choose another MASTER_PORT"),
                 qPrintable(inUseErr));
        const auto [malformed, malformedErr] = start("x", 29500);
        QCOMPARE(malformed, 1);
        QVERIFY2(malformedErr.contains("environment: RANK='x' is not a non-negative integer"),
                 qPrintable(malformedErr));
        QVERIFY(!std::filesystem::exists(m_project / "runs" / "refused"));
    }

private:
    QTemporaryDir m_dir;
    std::filesystem::path m_project;
};

QTEST_GUILESS_MAIN(TestTrainDistributedCli)
#include "tst_train_distributed_cli.moc"
