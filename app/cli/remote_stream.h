#pragma once
// RemoteStream: the `remote=user/proj` part of `osprey-cli train`. It sits between the trainer and the
// CLI's output sink. Every trainer event goes to the output first, then to a remote::RunReporter, which
// queues it in the project's outbox and sends it in the background.
//
// - The reporter starts at `run_started`, whose run folder gives the run name actually used (name=, or
//   train, train2, ...). Events before it (loader warnings) are replayed after it. If the reporter cannot
//   start (no API key, ...), a warning says so and training goes on locally.
// - The platform's `cancelled` answer becomes the CLI's graceful stop (the same flag as SIGINT), set when
//   an epoch has been validated, so the run ends at that epoch boundary with status `stopped`.
// - finish() uploads the final weights and completes the run (RunReporter::finish), then reports what is
//   left queued for `osprey-cli remote sync`.
// - Status goes out as `remote` JSON lines on stdout (events=jsonl; schema in core/run/EVENTS.md, never
//   written to events.jsonl) or as short notes on stderr. The API key is never printed.
//
// Thread affinity: onEvent from the trainer's threads (calls are serialised); finish() and the destructor
// from the thread that called trainProject, after it returned. A small thread polls the reporter's status.

#include "run/train_events.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace osprey::remote {
class RunReporter;
struct ReporterStatus;
} // namespace osprey::remote

namespace osprey::cli {

/// How status reaches the user.
enum class RemoteStatusFormat {
    JsonLines, ///< `remote` lines on stdout (the GUI's child-process protocol); warnings also on stderr
    Terminal,  ///< short notes on stderr
};

struct RemoteStreamOptions {
    std::filesystem::path projectFolder; ///< the local project (project.osprey holds the outbox)
    std::string remote;                  ///< the platform project, `user/proj`
    std::string command;                 ///< the command line, shown on the platform
    RemoteStatusFormat format = RemoteStatusFormat::Terminal;
    std::atomic<bool>* stop = nullptr; ///< the trainer's stop flag; set when the platform cancels
    /// Writes one stdout line (JsonLines) without its newline; must be thread-safe.
    std::function<void(const std::string&)> writeLine;
    /// Writes one human-readable line on stderr; must be thread-safe.
    std::function<void(const std::string&)> note;
    /// How long finish() waits for the upload and the queue (RunReporter's finishTimeout).
    std::chrono::milliseconds finishTimeout{std::chrono::minutes(10)};
};

class RemoteStream : public run::EventSink {
public:
    RemoteStream(run::EventSink& output, RemoteStreamOptions options);
    ~RemoteStream() override;
    RemoteStream(const RemoteStream&) = delete;
    RemoteStream& operator=(const RemoteStream&) = delete;

    void onEvent(const run::TrainEvent& event) override;

    /// After training: blocks until the weights are uploaded and the run completed on the platform (or
    /// the timeout passes, or the key is rejected), then prints the outcome and the final status line.
    /// Does nothing when the run never started. Returns false when something is left undelivered.
    bool finish();

private:
    void startReporter(const run::TrainEvent& runStarted);
    void forward(const run::TrainEvent& event);
    void pollLoop();
    /// Prints the status line when it changed (or always, with `force`), and terminal notes on changes.
    void publish(const remote::ReporterStatus& status, bool force, const std::string& stateOverride = {},
                 const std::string& errorOverride = {});
    double secondsSinceStart() const;

    run::EventSink& m_output;
    RemoteStreamOptions m_options;
    /// `t` of the status lines: the trainer's clock once run_started arrived (set before polling starts).
    std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();

    std::mutex m_eventMutex; ///< serialises onEvent's reporter side
    bool m_runStarted = false;
    std::vector<run::TrainEvent> m_early; ///< events before run_started
    std::unique_ptr<remote::RunReporter> m_reporter;
    bool m_stopRequested = false;

    std::mutex m_publishMutex; ///< guards what was last published
    std::string m_lastLine;    ///< the last status line without `t`
    std::string m_lastState, m_lastDashboard;

    std::mutex m_pollMutex;
    std::condition_variable m_pollWake;
    bool m_pollStop = false;
    std::thread m_poll;
};

} // namespace osprey::cli
