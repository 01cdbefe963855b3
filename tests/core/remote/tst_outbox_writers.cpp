// The remote outbox and a long write by another program (issue 22). A child process holds the project
// database's write lock, as `osprey-cli import` or `autolabel` does, for longer than the 5 s busy timeout
// the outbox once had: an event queued meanwhile waits (the project's common write wait,
// sql::beginImmediate) and is stored when the other program commits; none is dropped or failed, and the
// reporter delivers every event of a run that emitted its epochs during the lock, in order.
#include "fake_platform.h"
#include "sqlite_write_holder.h"
#include "synthetic_run.h"

#include "project/project.h"
#include "remote/outbox.h"
#include "remote/run_reporter.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

using namespace osprey;
using namespace osprey::test;
using nlohmann::json;

namespace {

constexpr int kHoldMs = 7000; // longer than the old 5 s busy timeout

} // namespace

class TestOutboxWriters : public QObject {
    Q_OBJECT
private slots:
    void queuedEventSurvivesALockLongerThanFiveSeconds() {
        RunFixture f;
        auto outbox = remote::Outbox::open(f.project);
        QVERIFY2(outbox, outbox ? "" : outbox.message().c_str());
        auto run = (*outbox)->createRun("Tester/p", "run-1", "http://127.0.0.1:1", "run1");
        QVERIFY(run);

        test::WriteHolder holder;
        QVERIFY(holder.start(f.project / "project.osprey", kHoldMs));
        QElapsedTimer timer;
        timer.start();
        auto id = (*outbox)->enqueue(*run, remote::Lane::Event, "epoch_end", R"({"epoch":0})");
        const qint64 waited = timer.elapsed();
        QVERIFY2(id, id ? "" : id.message().c_str());
        qInfo("the event waited %lld ms for the other writer", static_cast<long long>(waited));
        QVERIFY2(waited > 5500, qPrintable(QString::number(waited))); // past the old timeout
        QCOMPARE(holder.finish(), 0);

        // Both writes are there: the other program's and the event.
        auto row = (*outbox)->row(*id);
        QVERIFY(row && row->has_value());
        QCOMPARE(QString::fromStdString((*row)->event), QString("epoch_end"));
        QCOMPARE(QString::fromStdString((*row)->dataJson), QString(R"({"epoch":0})"));
        QCOMPARE((*outbox)->counts(*run)->pending, std::int64_t(1));
        auto project = project::Project::open(f.project);
        QVERIFY(project);
        QCOMPARE((*project)->settings().get("child").value(), std::string("wrote"));

        // Marking it sent (the sender's write) waits as well.
        test::WriteHolder second;
        QVERIFY(second.start(f.project / "project.osprey", 6000));
        timer.restart();
        QVERIFY((*outbox)->markSent(*id, "{}"));
        QVERIFY(timer.elapsed() > 5000);
        QCOMPARE(second.finish(), 0);
        QCOMPARE((*outbox)->counts(*run)->sent, std::int64_t(1));
    }

    void theWaitIsOneSettingAndItsEndIsClear() {
        RunFixture f;
        auto outbox = remote::Outbox::open(f.project);
        QVERIFY(outbox);
        auto run = (*outbox)->createRun("Tester/p", "run-1", "http://127.0.0.1:1", "run1");
        QVERIFY(run);
        (*outbox)->setWriteWait(std::chrono::milliseconds(500));
        test::WriteHolder holder;
        QVERIFY(holder.start(f.project / "project.osprey", 2500));
        QElapsedTimer timer;
        timer.start();
        auto id = (*outbox)->enqueue(*run, remote::Lane::Event, "epoch_end", "{}");
        QVERIFY(!id);
        QVERIFY(timer.elapsed() < 2000);
        QCOMPARE(QString::fromStdString(id.error().code), QString("busy"));
        QVERIFY2(id.message().find("another program has been writing to the project") != std::string::npos,
                 id.message().c_str());
        QVERIFY2(id.message().find("project.osprey") != std::string::npos, id.message().c_str());
        QCOMPARE(holder.finish(), 0);
        QCOMPARE((*outbox)->counts(*run)->pending, std::int64_t(0)); // nothing half-stored
    }

    void reporterDeliversEveryEventQueuedDuringALongWrite() {
        FakePlatform server;
        QVERIFY(server.ok());
        RunFixture f;
        SyntheticRun run{f.runDir};
        run.epochs = 3;
        run.weightBytes = 16 * 1024;
        auto reporter = remote::RunReporter::start(testOptions(f.project, server.url()));
        QVERIFY2(reporter, reporter ? "" : reporter.message().c_str());
        feed(**reporter, run.runStarted());
        test::WriteHolder holder;
        QVERIFY(holder.start(f.project / "project.osprey", kHoldMs));
        QElapsedTimer timer;
        timer.start();
        for (int epoch = 1; epoch <= run.epochs; ++epoch) // the first event waits for the other writer
            run.emitEpoch(**reporter, epoch);
        QVERIFY(timer.elapsed() > 5500);
        QCOMPARE(holder.finish(), 0);
        feed(**reporter, run.finished());
        auto finished = (*reporter)->finish();
        QVERIFY2(finished, finished ? "" : finished.message().c_str());
        QCOMPARE((*reporter)->status().queued, std::int64_t(0));
        QCOMPARE((*reporter)->status().failed, std::int64_t(0));

        auto received = server.received();
        QCOMPARE(received["duplicates"].get<int>(), 0);
        const auto epochs = server.events("epoch_end");
        QCOMPARE(epochs.size(), size_t(run.epochs));
        for (int i = 0; i < run.epochs; ++i)
            QCOMPARE(epochs[static_cast<size_t>(i)]["data"]["epoch"].get<int>(), i);
        std::string lines;
        for (const auto& e : server.events("console_output"))
            lines += e["data"]["content"].get<std::string>();
        QCOMPARE(static_cast<int>(std::count(lines.begin(), lines.end(), '\n')),
                 run.epochs * run.logLinesPerEpoch);
        QCOMPARE(server.events("training_complete").size(), size_t(1));
    }
};

int main(int argc, char** argv) {
    if (const int child = holdWriteLockIfChild(argc, argv); child >= 0)
        return child;
    QCoreApplication app(argc, argv);
    TestOutboxWriters test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_outbox_writers.moc"
