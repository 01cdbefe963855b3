#pragma once
// Outbox: the durable queue of platform events, in the project database `<project>/project.osprey`.
// Every event is INSERTed here before anything is sent, so a crash, a kill or a network outage loses
// nothing; senders read it back in id order per run and lane. Uses its own SQLite connection to the
// project file (WAL), so it coexists with project::Project objects and with other Outbox objects in this
// or other processes. Every write waits for another program's write (an import, an auto-label run) the
// way every write to the project does (sql::beginImmediate, up to sql::kDefaultWriteWait, 10 min), so a
// long write elsewhere delays an event but never drops or fails it.
//
// Tables (created on open when missing):
//   remote_runs(run_uid TEXT PK, project, name, base_url, local_run, model_id, remote_run_id, model_slug,
//               state 'active'|'unauthorized'|'closed', cancelled 0|1, last_error, created_at REAL,
//               service 'platform'|'mlflow')
// An MLflow run (service 'mlflow') keeps the experiment name in `project`, the tracking URI in `base_url`,
// the experiment id in `model_id` and the MLflow run id in `remote_run_id`; its rows are REST calls
// (remote/mlflow_sender.h).
//   remote_outbox(id INTEGER PK AUTOINCREMENT, run_uid, lane 'event'|'upload', event, data (JSON text),
//                 state 'pending'|'sent'|'failed', attempts, http_status, error, result (JSON text of
//                 the answer), created_at REAL, sent_at REAL)
// The stable event id sent to the platform is "<run_uid>-<id>".
//
// Thread affinity: one Outbox per thread (one connection each). Open another for another thread.

#include "common/expected.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace osprey::remote {

/// Events go out in order on the event lane; weight uploads on their own lane so a long PUT never
/// holds back the metrics.
enum class Lane { Event, Upload };

/// Who a run's rows go to.
enum class Service { Platform, Mlflow };
const char* toString(Service service);

/// Unauthorized: the server refused the credentials (or, for MLflow, is not an MLflow server); the rows
/// stay queued for a later sync or push.
enum class RunState { Active, Unauthorized, Closed };
const char* toString(RunState state);

struct RemoteRun {
    std::string runUid;
    std::string project; ///< normalised platform project ("user/proj")
    std::string name;    ///< normalised run name
    std::string baseUrl;
    std::string localRun;                        ///< the local run folder, for display
    std::string modelId, remoteRunId, modelSlug; ///< from the training_started answer; empty before
    RunState state = RunState::Active;
    bool cancelled = false;
    std::string lastError;
    double createdAt = 0; ///< Unix seconds
    Service service = Service::Platform;
};

struct OutboxRow {
    std::int64_t id = 0;
    std::string runUid;
    Lane lane = Lane::Event;
    std::string event;    ///< platform event name, or "console_line" (merged before sending) or "upload"
    std::string dataJson; ///< the event's `data`
    int attempts = 0;
    int httpStatus = 0;
    std::string error;
    std::string resultJson; ///< the answer (uploads: {gcsPath, uploadPath, sha256, size})
    double createdAt = 0;
    std::string eventId() const { return runUid + "-" + std::to_string(id); }
};

struct OutboxCounts {
    std::int64_t pending = 0, sent = 0, failed = 0;
};

class Outbox {
public:
    ~Outbox();
    Outbox(const Outbox&) = delete;
    Outbox& operator=(const Outbox&) = delete;

    /// Opens the project database in `projectFolder` (it must exist) and creates the tables.
    static Expected<std::unique_ptr<Outbox>> open(const std::filesystem::path& projectFolder);

    /// Registers a run; returns its new random uid (16 hex digits).
    Expected<std::string> createRun(const std::string& project, const std::string& name,
                                    const std::string& baseUrl, const std::string& localRun,
                                    Service service = Service::Platform);
    Expected<std::optional<RemoteRun>> run(const std::string& runUid);
    /// All runs, oldest first.
    Expected<std::vector<RemoteRun>> runs();
    /// Stores the platform ids learned from training_started.
    Status setRunIds(const std::string& runUid, const std::string& modelId, const std::string& remoteRunId,
                     const std::string& modelSlug);
    Status setRunState(const std::string& runUid, RunState state, const std::string& lastError);
    Status setCancelled(const std::string& runUid);
    Status setLastError(const std::string& runUid, const std::string& lastError);

    /// Appends one event (one INSERT, one short transaction). This is the producer's hot path.
    Expected<std::int64_t> enqueue(const std::string& runUid, Lane lane, const std::string& event,
                                   const std::string& dataJson);
    /// The oldest pending rows of a run and lane (up to `limit`).
    Expected<std::vector<OutboxRow>> pending(const std::string& runUid, Lane lane, int limit = 1);
    Expected<std::optional<OutboxRow>> row(std::int64_t id);
    /// True when the run has a pending row on `lane` older than `id`.
    Expected<bool> hasPendingBefore(const std::string& runUid, Lane lane, std::int64_t id);

    Status markSent(std::int64_t id, const std::string& resultJson);
    Status markFailed(std::int64_t id, int httpStatus, const std::string& error);
    /// Counts a failed attempt that will be retried.
    Status noteAttempt(std::int64_t id, int httpStatus, const std::string& error);
    /// Turns row `headId` into `event`/`dataJson` and deletes `mergedIds` (console batching), atomically.
    Status merge(std::int64_t headId, const std::string& event, const std::string& dataJson,
                 const std::vector<std::int64_t>& mergedIds);
    /// Deletes a row (only for rows never sent, e.g. to requeue one behind another).
    Status remove(std::int64_t id);
    /// Number of rows of `event` on a run (any state).
    Expected<std::int64_t> countEvents(const std::string& runUid, const std::string& event);

    /// Counts for one run, or for all runs when `runUid` is empty.
    Expected<OutboxCounts> counts(const std::string& runUid = {});
    /// Rows that failed for good, newest first.
    Expected<std::vector<OutboxRow>> failed(const std::string& runUid = {}, int limit = 20);

    /// Runs `body` in one IMMEDIATE transaction: committed on success, rolled back otherwise.
    Status transaction(const std::function<Status()>& body);
    /// How long a write waits for another program's write (default sql::kDefaultWriteWait); after it, the
    /// write fails with code "busy".
    void setWriteWait(std::chrono::milliseconds wait);

private:
    struct Impl;
    explicit Outbox(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace osprey::remote
