#pragma once
// RunReporter: streams one training run to the platform (specs/remote-platform.md).
//
// Wiring into a trainer (e.g. `osprey-cli train ... remote=user/proj name=run1`):
//
//   ReporterOptions options;
//   options.projectFolder = projectDir;          // holds project.osprey (the outbox lives there)
//   options.remote = "user/proj";                // the platform project
//   options.name = "run1";
//   auto reporter = RunReporter::start(options);  // fails without an API key; training can go on without it
//   ... for each trainer event: reporter->handleEvent(event)  (or handleEventLine(jsonLine))
//   ... at each epoch boundary: if (reporter->cancelRequested()) stop training cleanly
//   ... after the trainer's `finished`/`failed` event: reporter->finish();  // blocks: final upload
//
// handleEvent only maps the event and INSERTs it into the outbox (tens of microseconds); two
// background threads (events; weight uploads) send in order, with retries. finish() enqueues the final
// upload of best.pt (else last.pt) and training_complete, then waits for the queue to drain, up to
// `finishTimeout`. Whatever is still queued afterwards (offline, killed) is sent by `osprey-cli remote
// sync`. A 401 stops reporting for the run (status().state == Unauthorized, with the reason); the
// trainer is never stopped or slowed by reporting.
//
// Thread affinity: handleEvent/handleEventLine may be called from any thread (the training thread
// and the trainer's system sampler); calls are serialised internally. cancelRequested() and status()
// are safe from any thread (e.g. a GUI polling). finish() and the destructor from the owning thread.

#include "common/expected.h"
#include "remote/outbox_sender.h"
#include "remote/platform_client.h"
#include "remote/platform_settings.h"

#include <nlohmann/json_fwd.hpp>

namespace osprey::run {
struct TrainEvent;
}

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace osprey::remote {

struct ReporterOptions {
    std::filesystem::path projectFolder; ///< the local project folder (project.osprey)
    std::string remote;                  ///< "user/proj", normalised with normalizeProject()
    std::string name = "train";          ///< run name, normalised with normalizeName()
    std::string localRun;                ///< the local run folder, for `remote status`
    std::string command;                 ///< shown to the platform as environment.command
    /// Periodic checkpoint uploads (best preferred over last); one at a time, skipped while one runs.
    std::chrono::milliseconds checkpointInterval{std::chrono::minutes(15)};
    /// How long finish() waits for the final upload and the queue to drain.
    std::chrono::milliseconds finishTimeout{std::chrono::minutes(10)};
    RetryPolicy retry;
    ClientOptions client;
    /// Overrides resolveSettings() (tests, GUI). The key is never written anywhere by the reporter.
    std::optional<PlatformSettings> settings;
};

/// A snapshot for status lines and the GUI badge.
struct ReporterStatus {
    enum class State { Connecting, Connected, Retrying, Unauthorized, Finished };
    State state = State::Connecting;
    std::int64_t queued = 0;                                 ///< events and uploads not yet delivered
    std::int64_t delivered = 0;                              ///< rows sent
    std::int64_t failed = 0;                                 ///< rows rejected for good (other 4xx)
    std::string lastError;                                   ///< empty when the last attempt succeeded
    std::string dashboardUrl;                                ///< known after training_started was answered
    bool cancelled = false;                                  ///< the platform asked to stop
    std::uint64_t uploadSentBytes = 0, uploadTotalBytes = 0; ///< the upload in progress, if any
    bool uploading = false;
};
const char* toString(ReporterStatus::State state);

class RunReporter {
public:
    /// Resolves the settings, opens the outbox, registers the run and starts the sender threads.
    /// Fails (and starts nothing) when there is no API key or no project database.
    static Expected<std::unique_ptr<RunReporter>> start(ReporterOptions options);
    /// Stops the senders without waiting for the queue; undelivered rows stay for `remote sync`.
    ~RunReporter();
    RunReporter(const RunReporter&) = delete;
    RunReporter& operator=(const RunReporter&) = delete;

    /// Takes one trainer event (EVENTS.md schema). Cheap: maps it and queues zero or one row. Batch
    /// events are ignored; system events are remembered and sent with the next epoch_end.
    void handleEvent(const run::TrainEvent& trainerEvent);
    /// The same from one JSON line (read by run::parseEvent); returns false when it is not an event.
    bool handleEventLine(std::string_view jsonLine);

    /// True once the platform answered `cancelled: true`. The trainer should stop at the next epoch
    /// boundary, emit `finished` (status "stopped"), and call finish(): the weights are still uploaded.
    bool cancelRequested() const;

    /// Blocks until the final weights are uploaded and training_complete (or training_failed) and
    /// everything before them are delivered, or `finishTimeout` passes, or the key is rejected.
    /// Fails with a message saying what is left and how to send it later. Idempotent.
    Status finish();

    ReporterStatus status() const;
    const std::string& runUid() const;

private:
    struct Impl;
    explicit RunReporter(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace osprey::remote
