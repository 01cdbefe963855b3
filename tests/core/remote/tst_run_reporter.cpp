// RunReporter against the fake platform on 127.0.0.1: a full run, an outage, 429, 401, cancel and an
// interrupted upload. Every check reads what the server finally received.
#include "fake_platform.h"
#include "run/run_folder.h"
#include "synthetic_run.h"

#include "remote/checksum.h"
#include "remote/outbox_sync.h"
#include "remote/run_reporter.h"
#include "run/run_curves.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>
#include <thread>

using namespace osprey;
using namespace osprey::test;
using nlohmann::json;

namespace {

long long eventSeq(const json& e) {
    const std::string id = e.value("eventId", std::string());
    return std::stoll(id.substr(id.rfind('-') + 1));
}

size_t platformRequests(FakePlatform& server) {
    size_t n = 0;
    for (const auto& r : server.received()["requests"])
        n += r["path"].get<std::string>().rfind("/_control/", 0) == 0 ? 0 : 1;
    return n;
}

bool waitFor(const std::function<bool()>& condition, int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    while (!condition()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

// Every event exactly once, in queue order, epochs 0..epochs-1, all console lines in order.
void checkCompleteStream(FakePlatform& server, const SyntheticRun& run, int epochs) {
    auto received = server.received();
    if (qEnvironmentVariableIsSet("DUMP")) {
        auto r = received;
        r.erase("requests");
        std::fprintf(stderr, "%s\n", r.dump(1).c_str());
    }
    QCOMPARE(received["duplicates"].get<int>(), 0);
    const auto& events = received["events"];
    QVERIFY(events.size() >= 3);
    QCOMPARE(events.front()["event"].get<std::string>(), std::string("training_started"));
    QCOMPARE(events.back()["event"].get<std::string>(), std::string("training_complete"));
    long long previous = -1;
    int nextEpoch = 0;
    std::string lines;
    for (const auto& e : events) {
        QVERIFY2(eventSeq(e) > previous, "events arrived out of queue order");
        previous = eventSeq(e);
        QCOMPARE(e["idempotencyKey"].get<std::string>(), e["eventId"].get<std::string>());
        if (e["event"] == "epoch_end") {
            QCOMPARE(e["data"]["epoch"].get<int>(), nextEpoch);
            ++nextEpoch;
        }
        if (e["event"] == "console_output") {
            QVERIFY(e["data"]["lineCount"].get<int>() <= 5);
            lines += e["data"]["content"].get<std::string>();
        }
    }
    QCOMPARE(nextEpoch, epochs);
    std::string expected;
    for (int epoch = 1; epoch <= epochs; ++epoch)
        for (int i = 0; i < run.logLinesPerEpoch; ++i)
            expected += "epoch " + std::to_string(epoch) + " line " + std::to_string(i) + "\n";
    QCOMPARE(QString::fromStdString(lines), QString::fromStdString(expected));
}

} // namespace

class TestRunReporter : public QObject {
    Q_OBJECT
private slots:
    void fullRunDeliversEventsInOrderAndWeightsByteIdentical() {
        FakePlatform server;
        QVERIFY(server.ok());
        RunFixture f;
        SyntheticRun run{f.runDir};
        // The best model's curves, as the trainer leaves them in the run folder.
        run::RunCurves curves;
        curves.epoch = 5;
        curves.classNames = {"circle", "square"};
        curves.classes = {0, 1};
        curves.x = {0.0, 1.0};
        curves.precisionAtRecall = curves.f1 = curves.precision = curves.recall = {{1.0, 0.5}, {0.75, 0.25}};
        curves.ap = {std::vector<double>(10, 0.5), std::vector<double>(10, 0.25)};
        curves.classBestConfidence = {0.3, 0.4};
        curves.confusionMatrix = {5, 0, 1, 0, 4, 0, 0, 3, 0};
        curves.images = {{"a_01.jpg", 4, 0, 0}, {"b_02.jpg", 0, 2, 1}};
        QVERIFY(run::writeRunCurves(run::RunFolder(f.runDir).curves(), curves).hasValue());
        auto reporter = remote::RunReporter::start(testOptions(f.project, server.url()));
        QVERIFY2(reporter, reporter ? "" : reporter.message().c_str());
        feed(**reporter, run.runStarted());
        for (int epoch = 1; epoch <= run.epochs; ++epoch)
            run.emitEpoch(**reporter, epoch);
        feed(**reporter, run.finished());
        auto finished = (*reporter)->finish();
        QVERIFY2(finished, finished ? "" : finished.message().c_str());
        QCOMPARE((*reporter)->status().queued, std::int64_t(0));
        QCOMPARE((*reporter)->status().state, remote::ReporterStatus::State::Finished);
        QCOMPARE(QString::fromStdString((*reporter)->status().dashboardUrl),
                 QString::fromStdString(server.url() + "/Tester/my-project/run-1"));

        checkCompleteStream(server, run, run.epochs);
        auto events = server.events();
        QCOMPARE(events[0]["project"].get<std::string>(), std::string("Tester/my-project"));
        QCOMPARE(events[0]["name"].get<std::string>(), std::string("run-1"));
        QCOMPARE(events[0]["data"]["trainArgs"]["imgsz"].get<std::string>(), std::string("320"));
        QCOMPARE(events[0]["data"]["environment"]["cpuCount"].get<int>() > 0, true);
        for (size_t i = 1; i < events.size(); ++i)
            QCOMPARE(events[i]["modelId"].get<std::string>(), std::string("model-1"));
        auto epochs = server.events("epoch_end");
        QVERIFY(epochs[0]["data"]["metrics"]["val/box_loss"].is_null()); // NaN went out as null
        QCOMPARE(epochs[1]["data"]["metrics"]["val/box_loss"].get<double>(), 1.0);
        QCOMPARE(epochs[0]["data"]["modelInfo"]["parameters"].get<long long>(), 3011238LL);
        QVERIFY(!epochs[1]["data"].contains("modelInfo"));
        QCOMPARE(epochs[4]["data"]["best_fitness"].get<double>(), 0.5);
        QCOMPARE(epochs[2]["data"]["system"]["cpu"].get<double>(), 50.0);

        auto uploads = server.received()["uploads"];
        QCOMPARE(uploads.size(), size_t(1));
        QVERIFY(uploads[0]["ok"].get<bool>());
        QCOMPARE(uploads[0]["contentType"].get<std::string>(), std::string("application/octet-stream"));
        const auto best = readAll(f.runDir / "weights" / "best.pt");
        QVERIFY(readAll(uploads[0]["path"].get<std::string>()) == best);
        QCOMPARE(uploads[0]["sha256"].get<std::string>(), remote::sha256Hex(best));
        auto saved = server.events("checkpoint_saved");
        QCOMPARE(saved.size(), size_t(1));
        auto complete = server.events("training_complete").at(0)["data"];
        // As 8.4.190: the stored model in results; the plots and rows from the run's curves.json.
        QCOMPARE(complete["results"]["modelPath"], saved[0]["data"]["modelPath"]);
        QCOMPARE(complete["results"]["modelSize"].get<size_t>(), best.size());
        QVERIFY(!complete.contains("modelPath"));
        QCOMPARE(complete["runId"].get<std::string>(), std::string("run-1"));
        QCOMPARE(complete["results"]["bestEpoch"].get<int>(), 4);
        QCOMPARE(complete["results"]["metrics"]["metrics/mAP50-95(B)"].get<double>(), run.fitnessOf(5));
        QCOMPARE(complete["classNames"], json({"circle", "square"}));
        QCOMPARE(complete["plots"].size(), size_t(5));
        QCOMPARE(complete["plots"][4]["type"].get<std::string>(), std::string("pr_curve"));
        QCOMPARE(complete["plots"][4]["y"][1][1].get<double>(), 0.25);
        QCOMPARE(complete["plots"][0]["matrix"][2][1].get<double>(), 3.0);
        QCOMPARE(complete["results"]["validation"]["rows"], (json{{"b", 0, 2, 1}, {"a", 4, 0, 0}}));
    }

    void outageMidRunLosesNothing() {
        const int seconds = qEnvironmentVariableIntValue("OSPREY_REMOTE_OUTAGE_S") > 0
                                ? qEnvironmentVariableIntValue("OSPREY_REMOTE_OUTAGE_S")
                                : 6;
        FakePlatform server;
        QVERIFY(server.ok());
        RunFixture f;
        SyntheticRun run{f.runDir};
        run.epochs = 12;
        auto options = testOptions(f.project, server.url());
        options.checkpointInterval = std::chrono::milliseconds(0); // periodic uploads must survive too
        options.finishTimeout = std::chrono::seconds(seconds + 60);
        auto reporter = remote::RunReporter::start(options);
        QVERIFY(reporter);
        feed(**reporter, run.runStarted());
        run.emitEpoch(**reporter, 1);
        QVERIFY(waitFor([&] { return server.events("epoch_end").size() == 1; }, 10000));
        QVERIFY(server.control("down", {{"seconds", seconds}}));
        QElapsedTimer outage;
        outage.start();
        // The trainer goes on during the outage, never slowed by it.
        for (int epoch = 2; epoch <= run.epochs; ++epoch) {
            QElapsedTimer call;
            call.start();
            run.emitEpoch(**reporter, epoch);
            // A feed that waited on the network would wait out the outage (seconds); the bound leaves room
            // for a loaded machine's scheduling (the suite runs two tests at once, some of them training).
            QVERIFY2(call.elapsed() < 1000, "feeding an event blocked on the network");
            std::this_thread::sleep_for(std::chrono::milliseconds(seconds * 1000 / run.epochs));
        }
        QVERIFY(outage.elapsed() < seconds * 1000); // part of the run really happened offline
        feed(**reporter, run.finished());
        auto finished = (*reporter)->finish();
        QVERIFY2(finished, finished ? "" : finished.message().c_str());
        checkCompleteStream(server, run, run.epochs);
        auto received = server.received();
        QCOMPARE(received["down"].size(), size_t(1));
        // Every upload that reached the server matches its checksum; the final one is best.pt.
        for (const auto& upload : received["uploads"])
            QVERIFY(upload["ok"].get<bool>());
        QVERIFY(readAll(received["uploads"].back()["path"].get<std::string>()) ==
                readAll(f.runDir / "weights" / "best.pt"));
        qInfo("outage %d s: %zu events, %zu uploads", seconds, received["events"].size(),
              received["uploads"].size());
    }

    void retryAfterIsHonoured() {
        FakePlatform server;
        QVERIFY(server.ok());
        RunFixture f;
        SyntheticRun run{f.runDir};
        run.epochs = 3;
        QVERIFY(server.control("fault", {{"target", "metrics"},
                                         {"event", "epoch_end"},
                                         {"status", 429},
                                         {"retryAfter", 2},
                                         {"count", 1}}));
        auto reporter = remote::RunReporter::start(testOptions(f.project, server.url()));
        QVERIFY(reporter);
        feed(**reporter, run.runStarted());
        for (int epoch = 1; epoch <= run.epochs; ++epoch)
            run.emitEpoch(**reporter, epoch);
        feed(**reporter, run.finished());
        QVERIFY((*reporter)->finish());
        checkCompleteStream(server, run, run.epochs);
        const auto requests = server.received()["requests"];
        double throttledAt = 0, retriedAt = 0;
        for (const auto& r : requests) {
            if (r["path"] != "/api/webhooks/training/metrics")
                continue;
            if (r["status"] == 429)
                throttledAt = r["t"].get<double>();
            else if (throttledAt > 0 && retriedAt == 0)
                retriedAt = r["t"].get<double>();
        }
        QVERIFY(throttledAt > 0 && retriedAt > 0);
        const double delayS = retriedAt - throttledAt;
        qInfo("retry %.3f s after a 429 with Retry-After: 2 (backoff alone would be ~0.1 s)", delayS);
        QVERIFY(delayS >= 1.95);
        QVERIFY(delayS < 3.5);
    }

    void retryAfterIsCapped() {
        FakePlatform server;
        QVERIFY(server.ok());
        RunFixture f;
        SyntheticRun run{f.runDir};
        run.epochs = 1;
        QVERIFY(server.control("fault",
                               {{"target", "metrics"}, {"status", 503}, {"retryAfter", 3600}, {"count", 1}}));
        auto options = testOptions(f.project, server.url());
        options.retry.retryAfterCap = std::chrono::milliseconds(1000); // production: 60 s
        auto reporter = remote::RunReporter::start(options);
        QVERIFY(reporter);
        QElapsedTimer timer;
        timer.start();
        feed(**reporter, run.runStarted());
        QVERIFY(waitFor([&] { return server.events("training_started").size() == 1; }, 10000));
        QVERIFY(timer.elapsed() >= 950);
        QVERIFY(timer.elapsed() < 5000);
    }

    void unauthorizedStopsReportingAndTrainingGoesOn() {
        FakePlatform server;
        QVERIFY(server.ok());
        RunFixture f;
        SyntheticRun run{f.runDir};
        run.epochs = 6;
        auto reporter = remote::RunReporter::start(testOptions(f.project, server.url()));
        QVERIFY(reporter);
        feed(**reporter, run.runStarted());
        run.emitEpoch(**reporter, 1);
        QVERIFY(waitFor([&] { return server.events("epoch_end").size() == 1; }, 10000));
        QVERIFY(server.control("fault", {{"target", "metrics"}, {"status", 401}, {"count", -1}}));
        run.emitEpoch(**reporter, 2);
        QVERIFY(waitFor(
            [&] { return (*reporter)->status().state == remote::ReporterStatus::State::Unauthorized; },
            10000));
        const auto status = (*reporter)->status();
        QVERIFY2(status.lastError.find("401") != std::string::npos, status.lastError.c_str());
        QVERIFY(status.lastError.find("remote login") != std::string::npos);
        const auto seenBefore = platformRequests(server);
        QElapsedTimer timer;
        timer.start();
        for (int epoch = 3; epoch <= run.epochs; ++epoch)
            run.emitEpoch(**reporter, epoch);
        feed(**reporter, run.finished());
        auto finished = (*reporter)->finish();
        QVERIFY(!finished);
        QCOMPARE(QString::fromStdString(finished.error().code), QString("unauthorized"));
        QVERIFY(timer.elapsed() < 3000);                // the producer was not held up
        QCOMPARE(platformRequests(server), seenBefore); // nothing more was sent
        QVERIFY((*reporter)->status().queued > 0);      // ... and nothing was dropped
        QCOMPARE(server.events("epoch_end").size(), size_t(1));
        reporter->reset();

        // With the key accepted again, a sync delivers the rest exactly once.
        QVERIFY(server.control("clear"));
        remote::SyncOptions sync;
        sync.settings = testOptions(f.project, server.url()).settings;
        sync.retry.initialBackoff = std::chrono::milliseconds(100);
        auto report = remote::syncOutbox(f.project, sync);
        QVERIFY2(report, report ? "" : report.message().c_str());
        QCOMPARE(report->remaining, std::int64_t(0));
        checkCompleteStream(server, run, run.epochs);
    }

    void serverCancelStopsAtEpochBoundaryThenUploadsAndCompletes() {
        FakePlatform server;
        QVERIFY(server.ok());
        RunFixture f;
        SyntheticRun run{f.runDir};
        run.epochs = 100;
        auto reporter = remote::RunReporter::start(testOptions(f.project, server.url()));
        QVERIFY(reporter);
        feed(**reporter, run.runStarted());
        int epoch = 1;
        for (; epoch <= run.epochs; ++epoch) {
            if ((*reporter)->cancelRequested())
                break;
            run.emitEpoch(**reporter, epoch);
            if (epoch == 3)
                QVERIFY(server.control("cancel", {{"cancel", true}}));
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        const int completed = epoch - 1;
        QVERIFY2(completed >= 3 && completed < 20,
                 qPrintable(QString("stopped after %1 epochs").arg(completed)));
        QVERIFY((*reporter)->status().cancelled);
        feed(**reporter, run.finished("stopped"));
        auto finished = (*reporter)->finish();
        QVERIFY2(finished, finished ? "" : finished.message().c_str());
        checkCompleteStream(server, run, completed);
        auto complete = server.events("training_complete").at(0)["data"];
        QCOMPARE(complete["results"]["status"].get<std::string>(), std::string("stopped"));
        auto uploads = server.received()["uploads"];
        QCOMPARE(uploads.size(), size_t(1));
        QVERIFY(readAll(uploads[0]["path"].get<std::string>()) == readAll(f.runDir / "weights" / "best.pt"));
    }

    void interruptedUploadIsRetriedWithMatchingChecksum() {
        FakePlatform server;
        QVERIFY(server.ok());
        RunFixture f;
        SyntheticRun run{f.runDir};
        run.epochs = 2;
        run.weightBytes = 8 * 1024 * 1024;
        QVERIFY(server.control("fault", {{"target", "put"}, {"drop", true}, {"count", 1}}));
        auto reporter = remote::RunReporter::start(testOptions(f.project, server.url()));
        QVERIFY(reporter);
        feed(**reporter, run.runStarted());
        for (int epoch = 1; epoch <= run.epochs; ++epoch)
            run.emitEpoch(**reporter, epoch);
        feed(**reporter, run.finished());
        auto finished = (*reporter)->finish();
        QVERIFY2(finished, finished ? "" : finished.message().c_str());
        auto received = server.received();
        int dropped = 0;
        for (const auto& r : received["requests"])
            dropped += r.value("dropped", false) ? 1 : 0;
        QCOMPARE(dropped, 1);
        QCOMPARE(received["uploads"].size(), size_t(1));
        const auto& upload = received["uploads"][0];
        const auto best = readAll(f.runDir / "weights" / "best.pt");
        QVERIFY(upload["ok"].get<bool>());
        QCOMPARE(upload["checksumHeader"].get<std::string>(), remote::sha256Hex(best));
        QCOMPARE(upload["sha256"].get<std::string>(), remote::sha256Hex(best));
        QVERIFY(readAll(upload["path"].get<std::string>()) == best);
        QCOMPARE(server.events("checkpoint_saved").at(0)["data"]["sha256"].get<std::string>(),
                 remote::sha256Hex(best));
        checkCompleteStream(server, run, run.epochs);
    }

    void periodicUploadsAreSkippedWhileOneRuns() {
        FakePlatform server;
        QVERIFY(server.ok());
        RunFixture f;
        SyntheticRun run{f.runDir};
        run.epochs = 8;
        run.bestEveryNth = 2;
        // Each PUT takes 0.6 s while epochs come every 0.1 s: most periodic uploads must be skipped.
        QVERIFY(server.control("fault", {{"target", "put"}, {"delay", 0.6}, {"count", -1}}));
        auto options = testOptions(f.project, server.url());
        options.checkpointInterval = std::chrono::milliseconds(0);
        auto reporter = remote::RunReporter::start(options);
        QVERIFY(reporter);
        feed(**reporter, run.runStarted());
        for (int epoch = 1; epoch <= run.epochs; ++epoch) {
            run.emitEpoch(**reporter, epoch);
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        feed(**reporter, run.finished());
        QVERIFY((*reporter)->finish());
        auto uploads = server.received()["uploads"];
        qInfo("%zu uploads for %d epochs", uploads.size(), run.epochs);
        QVERIFY(uploads.size() >= 2);                 // at least one periodic plus the final
        QVERIFY(uploads.size() < size_t(run.epochs)); // skipped while one was running
        auto saved = server.events("checkpoint_saved");
        QCOMPARE(saved.size(), uploads.size());
        QCOMPARE(saved.front()["data"]["kind"].get<std::string>(),
                 std::string("last")); // no best.pt yet at epoch 1
        QVERIFY(readAll(uploads.back()["path"].get<std::string>()) ==
                readAll(f.runDir / "weights" / "best.pt"));
        checkCompleteStream(server, run, run.epochs);
    }
};

QTEST_GUILESS_MAIN(TestRunReporter)
#include "tst_run_reporter.moc"
