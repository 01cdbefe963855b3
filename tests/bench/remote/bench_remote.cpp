// Remote reporting benchmark.
//  1. Replays N queued events (default 100,000) from the outbox to the loopback fake platform and
//     reports events/s (the Python test server is part of what is measured).
//  2. Measures handleEvent on the producer thread, and the epoch time of a CPU-bound synthetic epoch
//     with and without a reporter attached, side by side.
// Usage: bench_remote [events=100000] [epochs=8]
#include "fake_platform.h"
#include "synthetic_run.h"

#include "remote/outbox.h"
#include "remote/outbox_sync.h"
#include "remote/run_reporter.h"
#include "run/train_events.h"

#include <QCoreApplication>
#include <QTemporaryDir>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

using namespace osprey;
using namespace osprey::test;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

volatile double g_sink = 0;

// A stand-in for one training epoch: fixed CPU work, split into batches.
void trainBatch() {
    double x = 0;
    for (int i = 0; i < 400000; ++i)
        x += std::sqrt(double(i) + x * 1e-9);
    g_sink = g_sink + x;
}

json epochEvent(int epoch) {
    SyntheticRun run{"/tmp/none"};
    return run.epochEvent(epoch);
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    long long events = 100000;
    int epochs = 8;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind("events=", 0) == 0)
            events = std::atoll(arg.c_str() + 7);
        if (arg.rfind("epochs=", 0) == 0)
            epochs = std::atoi(arg.c_str() + 7);
    }
    FakePlatform server;
    if (!server.ok()) {
        std::fprintf(stderr, "cannot start the fake platform\n");
        return 1;
    }
    QTemporaryDir dir;
    const std::filesystem::path base = dir.path().toStdString();

    // ---- 1. replay --------------------------------------------------------------------------------
    {
        const auto project = base / "replay";
        makeProject(project);
        auto outbox = std::move(remote::Outbox::open(project).value());
        const auto uid = outbox->createRun("bench/replay", "run", server.url(), "run").value();
        const auto queueStart = Clock::now();
        (void)outbox->transaction([&]() -> Status {
            (void)outbox->enqueue(uid, remote::Lane::Event, "training_started",
                                  R"({"trainArgs":{},"epochs":1})");
            for (long long i = 1; i < events; ++i) {
                json data = epochEvent(int(i % 1000) + 1);
                (void)outbox->enqueue(uid, remote::Lane::Event, "epoch_end", data.dump());
            }
            return {};
        });
        const double queueS = secondsSince(queueStart);
        remote::SyncOptions options;
        options.settings = remote::PlatformSettings{kTestKey, server.url()};
        options.timeout = std::chrono::hours(1);
        const auto start = Clock::now();
        auto report = remote::syncOutbox(project, options);
        const double replayS = secondsSince(start);
        if (!report) {
            std::fprintf(stderr, "sync failed: %s\n", report.message().c_str());
            return 1;
        }
        const auto received = server.received()["events"].size();
        std::printf(
            "replay: %lld events queued in %.2f s; sent %lld in %.1f s = %.0f events/s; server accepted %zu; "
            "%lld left\n",
            events, queueS, static_cast<long long>(report->delivered), replayS,
            double(report->delivered) / replayS, received, static_cast<long long>(report->remaining));
    }

    // ---- 2. producer cost -------------------------------------------------------------------------
    {
        const auto project = base / "producer";
        makeProject(project);
        auto options = testOptions(project, server.url());
        auto reporter = std::move(remote::RunReporter::start(options).value());
        SyntheticRun run{project / "runs" / "r"};
        feed(*reporter, run.runStarted());
        std::vector<double> costsUs;
        const json batch = {
            {"type", "batch"}, {"epoch", 1}, {"batch", 1}, {"batches", 100}, {"box_loss", 1.0}};
        const json system = {
            {"type", "system"}, {"cpu_percent", 50.0}, {"ram_used_mb", 1.0}, {"ram_total_mb", 2.0}};
        const json log = {{"type", "log"},
                          {"message", "a log line of typical length for the console output"}};
        // The events as the trainer hands them over (parsed once here, outside the timing).
        const auto parsed = [](const json& e) { return run::parseEvent(e.dump()).value(); };
        std::vector<run::TrainEvent> epochs;
        for (int epoch = 1; epoch <= 300; ++epoch)
            epochs.push_back(parsed(epochEvent(epoch)));
        const auto logEvent = parsed(log), systemEvent = parsed(system), batchEvent = parsed(batch);
        for (int i = 0; i < 20000; ++i) {
            const run::TrainEvent& e = i % 4 == 0   ? epochs[static_cast<size_t>(i % 300)]
                                       : i % 4 == 1 ? logEvent
                                       : i % 4 == 2 ? systemEvent
                                                    : batchEvent;
            const auto t = Clock::now();
            reporter->handleEvent(e);
            costsUs.push_back(secondsSince(t) * 1e6);
        }
        std::sort(costsUs.begin(), costsUs.end());
        double sum = 0;
        for (double c : costsUs)
            sum += c;
        std::printf(
            "handleEvent (mix of epoch/log/system/batch, senders running): mean %.1f us, p50 %.1f us, "
            "p99 %.1f us, max %.0f us\n",
            sum / double(costsUs.size()), costsUs[costsUs.size() / 2], costsUs[costsUs.size() * 99 / 100],
            costsUs.back());
    }

    // ---- 3. epoch time with and without reporting, side by side -----------------------------------
    {
        const auto project = base / "epochs";
        makeProject(project);
        constexpr int kBatches = 40;
        // Per epoch a trainer emits up to 5 batch events/s, a system event every 2 s, a few log
        // lines, the epoch and two checkpoints; here every batch emits a batch event, every 4th a system.
        auto epochTime = [&](remote::RunReporter* reporter, int epoch) {
            const auto start = Clock::now();
            for (int b = 0; b < kBatches; ++b) {
                trainBatch();
                if (reporter) {
                    feed(*reporter,
                         {{"type", "batch"}, {"epoch", epoch}, {"batch", b + 1}, {"batches", kBatches}});
                    if (b % 4 == 0)
                        feed(*reporter, {{"type", "system"}, {"cpu_percent", 50.0}});
                    if (b % 10 == 0)
                        feed(*reporter, {{"type", "log"}, {"message", "batch " + std::to_string(b)}});
                }
            }
            if (reporter) {
                feed(*reporter, epochEvent(epoch));
                feed(*reporter, {{"type", "checkpoint"}, {"kind", "last"}, {"path", "/nonexistent/last.pt"}});
            }
            return secondsSince(start);
        };
        auto reporter = std::move(remote::RunReporter::start(testOptions(project, server.url())).value());
        SyntheticRun run{project / "runs" / "r"};
        feed(*reporter, run.runStarted());
        double with = 0, without = 0;
        epochTime(nullptr, 0); // warm-up
        for (int epoch = 1; epoch <= epochs; ++epoch) {
            // Alternate so that drifts in machine load hit both sides alike.
            without += epochTime(nullptr, epoch);
            with += epochTime(reporter.get(), epoch);
        }
        std::printf(
            "epoch time: %.3f s without reporting, %.3f s with (%+.2f%%), %d epochs of %d batches each\n",
            without / epochs, with / epochs, (with / without - 1.0) * 100.0, epochs, kBatches);
        feed(*reporter, run.finished());
        (void)reporter->finish();
    }
    return 0;
}
