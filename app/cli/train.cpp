// osprey-cli train project=P model=yolov8n epochs=100 ...: trains a detector on a project. With
// events=jsonl every event goes to stdout as one JSON line (the GUI's child-process protocol, schema in
// core/run/EVENTS.md); otherwise a progress bar and one line per epoch go to stderr. With
// remote=user/proj the run is also streamed to the platform (cli/remote_stream.h).
#include "cli/progress.h"
#include "cli/remote_stream.h"
#include "cli/train_args.h"
#include "cli/train_launcher.h"
#include "cli/verb.h"
#include "job/project_training.h"
#include "planner/measurements.h"
#include "remote/mlflow_tracker.h"
#include "remote/platform_settings.h"
#include "remote/remote_options.h"
#include "run/run_files.h"
#include "run/train_options.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>
#include <unistd.h>

namespace osprey::cli {
namespace {

std::atomic<bool> g_stopRequested{false};

extern "C" void onStopSignal(int signalNumber) {
    g_stopRequested.store(true);
    // A second signal ends the process the usual way.
    std::signal(signalNumber, SIG_DFL);
}

class JsonlStdoutSink : public run::EventSink {
public:
    void onEvent(const run::TrainEvent& event) override { writeLine(run::toJson(event)); }

    /// One line on stdout (the trainer's events and the `remote` status lines share it).
    void writeLine(const std::string& text) {
        const std::string line = text + "\n";
        std::lock_guard lock(m_mutex);
        std::fwrite(line.data(), 1, line.size(), stdout);
        std::fflush(stdout);
    }

private:
    std::mutex m_mutex;
};

class TerminalSink : public run::EventSink {
public:
    void onEvent(const run::TrainEvent& e) override {
        using Type = run::TrainEvent::Type;
        std::lock_guard lock(m_mutex);
        char detail[160];
        switch (e.type) {
        case Type::RunStarted:
            std::fprintf(
                stderr,
                "Training %s on %lld train / %lld val images (%zu classes), %d epochs; run folder %s\n",
                e.modelName.c_str(), static_cast<long long>(e.trainImages),
                static_cast<long long>(e.valImages), e.classNames.size(), e.epochs, e.runDir.c_str());
            m_thirdLoss = run::thirdLossName(e.modelName);
            break;
        case Type::Batch:
            if (!m_bar || m_barEpoch != e.epoch) {
                m_bar = std::make_unique<ProgressBar>("Epoch " + std::to_string(e.epoch) + "/" +
                                                      std::to_string(e.epochs));
                m_barEpoch = e.epoch;
            }
            std::snprintf(detail, sizeof detail, " box %.3f cls %.3f %s %.3f  %.1f img/s", e.boxLoss,
                          e.clsLoss, m_thirdLoss, e.dflLoss, e.imagesPerS);
            m_bar->update(e.batch, e.batches, detail);
            if (e.batch == e.batches)
                m_bar->finish(detail);
            break;
        case Type::Epoch:
            std::fprintf(
                stderr,
                "Epoch %d/%d: P %.3f R %.3f mAP50 %.3f mAP50-95 %.3f | val box %.3f cls %.3f %s %.3f | "
                "%.1f img/s%s\n",
                e.epoch, e.epochs, e.metrics.precision, e.metrics.recall, e.metrics.map50,
                e.metrics.map50to95, e.metrics.valBoxLoss, e.metrics.valClsLoss, m_thirdLoss,
                e.metrics.valDflLoss, e.imagesPerS, e.best ? "  (best)" : "");
            break;
        case Type::Log:
            std::fprintf(stderr, "%s%s\n", e.level == "info" ? "" : (e.level + ": ").c_str(),
                         e.message.c_str());
            break;
        case Type::Finished:
            std::fprintf(stderr, "%s\nWeights: %s\n", e.message.c_str(), e.bestPath.c_str());
            break;
        case Type::Failed:
            std::fprintf(stderr, "error: training failed: %s\n", e.message.c_str());
            break;
        case Type::Advice:
            std::fprintf(stderr, "advice: %s\n", e.message.c_str());
            break;
        default:
            break;
        }
    }

    /// A line on stderr from another thread (platform status): clears a half-drawn progress bar first;
    /// the bar is redrawn by its next update.
    void note(const std::string& text) {
        std::lock_guard lock(m_mutex);
        if (m_bar && m_terminal)
            std::fputs("\r\033[K", stderr);
        std::fprintf(stderr, "%s\n", text.c_str());
    }

private:
    const char* m_thirdLoss = "dfl";
    std::mutex m_mutex;
    const bool m_terminal = ::isatty(STDERR_FILENO) != 0;
    std::unique_ptr<ProgressBar> m_bar;
    int m_barEpoch = 0;
};

/// The `mlflow=URI` part: every event goes to the output first, then to the MLflow tracker.
class MlflowSink : public run::EventSink {
public:
    MlflowSink(run::EventSink& output, remote::MlflowTracker& tracker)
        : m_output(output), m_tracker(tracker) {}
    void onEvent(const run::TrainEvent& event) override {
        m_output.onEvent(event);
        m_tracker.handleEvent(event);
    }

private:
    run::EventSink& m_output;
    remote::MlflowTracker& m_tracker;
};

/// A line for the user as a `log` event on the CLI's output (stderr, or a JSON line the GUI shows).
void tellUser(run::EventSink& output, bool problem, const std::string& line) {
    run::TrainEvent event;
    event.type = run::TrainEvent::Type::Log;
    event.level = problem ? "warning" : "info";
    event.message = line;
    output.onEvent(event);
}

/// The command line as the platform shows it (environment.command): the keys that were given.
std::string commandLine(const Args& args) {
    std::string command = "osprey-cli train";
    for (const auto& [key, value] : args.all()) {
        if (!args.given(key))
            continue;
        const bool quote = value.empty() || value.find_first_of(" \t\"'") != std::string::npos;
        command += " " + key + "=" + (quote ? "'" + value + "'" : value);
    }
    return command;
}

int runTrain(const Args& args) {
    run::TrainConfig config;
    if (auto status = applyTrainArgs(config, args); !status) {
        std::cerr << "error: " << status.message() << "\n";
        return 2;
    }
    const std::string eventsMode = args.str("events");
    if (!eventsMode.empty() && eventsMode != "jsonl") {
        std::cerr << "error: events: '" << eventsMode
                  << "' is not supported; use events=jsonl or leave it out\n";
        return 2;
    }
    // Data parallel on this machine (device=0,1 or workers_per_node=2): this process becomes the launcher.
    auto workers = localWorkerCount(config);
    if (!workers) {
        std::cerr << "error: " << workers.message() << "\n";
        return 2;
    }
    if (workers.value() > 0)
        return launchLocalWorkers(workers.value(), config, args.str("project"));
    // Of a data-parallel job, only rank 0 talks to the platform and records the run for the planner.
    const char* rank = std::getenv("RANK");
    const bool mainRank = !rank || std::string(rank) == "0";
    const std::string remoteProject = args.str("remote");
    const bool streaming = mainRank && !remoteProject.empty() && remoteProject != "none";
    const std::string normalized = remote::normalizeProject(remoteProject);
    const auto slash = normalized.find('/');
    if (streaming && (slash == 0 || slash == std::string::npos || slash + 1 == normalized.size())) {
        std::cerr << "error: remote: '" << remoteProject
                  << "' is not a platform project; give it as remote=user/project, or remote=none\n";
        return 2;
    }

    JsonlStdoutSink jsonl;
    TerminalSink terminal;
    run::EventSink* output = &terminal;
    if (eventsMode == "jsonl")
        output = &jsonl;
    std::unique_ptr<RemoteStream> stream;
    if (streaming) {
        RemoteStreamOptions options;
        options.projectFolder = args.str("project");
        options.remote = remoteProject;
        options.command = commandLine(args);
        options.stop = &g_stopRequested;
        if (eventsMode == "jsonl") {
            options.format = RemoteStatusFormat::JsonLines;
            options.writeLine = [&jsonl](const std::string& line) { jsonl.writeLine(line); };
        } else {
            options.format = RemoteStatusFormat::Terminal;
            options.note = [&terminal](const std::string& line) { terminal.note(line); };
        }
        stream = std::make_unique<RemoteStream>(*output, std::move(options));
        output = stream.get();
    }
    // MLflow: mlflow=URI, else MLFLOW_TRACKING_URI (as MLflow's own clients); mlflow=none turns it off.
    std::unique_ptr<remote::MlflowTracker> tracker;
    std::unique_ptr<MlflowSink> tracking;
    run::EventSink* userOutput = eventsMode == "jsonl" ? static_cast<run::EventSink*>(&jsonl) : &terminal;
    if (const std::string uri = remote::resolveTrackingUri(args.str("mlflow")); mainRank && !uri.empty()) {
        remote::TrackerOptions options;
        options.projectFolder = args.str("project");
        options.uri = uri;
        options.experiment = args.str("mlflow_experiment");
        options.note = [userOutput](bool problem, const std::string& line) {
            tellUser(*userOutput, problem, line);
        };
        auto started = remote::MlflowTracker::start(std::move(options));
        if (!started) {
            tellUser(*userOutput, true,
                     "this run is NOT logged to MLflow (" + started.message() + "); training goes on");
        } else {
            tracker = std::move(*started);
            tracking = std::make_unique<MlflowSink>(*output, *tracker);
            output = tracking.get();
        }
    }
    std::signal(SIGINT, onStopSignal);
    std::signal(SIGTERM, onStopSignal);
    auto result = job::trainProject(args.str("project"), config, *output, &g_stopRequested);
    // Each finished run is a measured point for the planner (osprey-cli plan).
    // (A calibration's own run is not one: `plan calibrate` records it itself, with its process start.)
    if (result && mainRank && !result->lastWeights.empty() && !std::getenv("OSPREY_PLANNER_CALIBRATING"))
        if (auto recorded = planner::recordFinishedRun(result->lastWeights.parent_path().parent_path());
            !recorded)
            std::cerr << "warning: planner: " << recorded.message() << "\n";
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    // The exit code is the training's: what the platform did not receive stays queued for `remote sync`.
    if (stream)
        stream->finish();
    if (tracker) {
        // A refusal was said when it happened, with where the records wait; it is not repeated here.
        if (!tracker->status().refused)
            tellUser(*userOutput, false, "MLflow: sending the weights and the run's files...");
        const Status finished = tracker->finish();
        const auto status = tracker->status();
        if (!finished && !status.refused)
            tellUser(*userOutput, true, "MLflow: " + finished.message());
        else if (finished && status.failed > 0)
            tellUser(*userOutput, true,
                     "MLflow: run logged with " + std::to_string(status.failed) +
                         " record(s) rejected by the server (last: " + status.lastError +
                         "): " + status.runUrl);
        else if (finished && !status.runUrl.empty())
            tellUser(*userOutput, false,
                     "MLflow: run logged (" + std::to_string(status.delivered) +
                         " records): " + status.runUrl);
    }
    return result ? 0 : 1;
}

OSPREY_REGISTER_VERB(Verb{
    "train", "Train a detector on a project (Ultralytics-style key=value arguments)",
    [] {
        return joined({run::trainLaunchOptions(), remote::trainSinkOptions(), trainCliOptions()});
    },
    runTrain});

} // namespace
} // namespace osprey::cli
