#pragma once
// MlflowTracker: logs one training run to an MLflow tracking server (`osprey-cli train ... mlflow=URI`,
// `osprey-cli runs push`). handleEvent maps each trainer event (MlflowMapper) and INSERTs the calls into
// the project's durable outbox (service "mlflow"); a background thread sends them in order
// (MlflowSender). A server that is down or restarts loses nothing: the calls wait in the outbox and are
// replayed in order, and a replay never doubles a metric. finish() queues the artifacts and the run's
// status and waits for the queue to drain, up to `finishTimeout`; what is left is sent later by
// `osprey-cli runs push RUN mlflow=URI` (or `remote sync`). Training is never stopped or slowed.
//
// What the user is told (through `note`, each once per change): the server cannot be reached (and that
// records wait), it is reachable again, it refused the login or is not an MLflow server, a call was
// rejected. Credentials stay in the environment (mlflow_client.h).
//
// Thread affinity: handleEvent from any thread (serialised inside); status() from any thread; finish()
// and the destructor from the owning thread.

#include "common/expected.h"
#include "remote/http_session.h"
#include "remote/outbox_sender.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

namespace osprey::run {
struct TrainEvent;
}

namespace osprey::remote {

struct TrackerOptions {
    std::filesystem::path projectFolder; ///< the local project (project.osprey holds the outbox)
    std::string uri;                     ///< the tracking server, http(s)://host:port
    std::string experiment;              ///< created when missing; default: the project folder's name
    std::chrono::milliseconds finishTimeout{std::chrono::minutes(10)};
    /// A run that ends without a finished/failed event is closed with this status.
    std::string fallbackStatus = "FAILED";
    RetryPolicy retry;
    ClientOptions client;
    /// One plain line for the user (`problem`: something is wrong, else news); must be thread-safe.
    std::function<void(bool problem, const std::string& line)> note;
};

struct TrackerStatus {
    std::int64_t queued = 0, delivered = 0, failed = 0;
    bool refused = false; ///< stopped: login refused or not an MLflow server
    std::string lastError;
    std::string runUrl; ///< the run in the MLflow UI, once created
};

/// The experiment name: `given`, else MLFLOW_EXPERIMENT_NAME, else the project folder's name.
std::string resolveExperiment(const std::string& given, const std::filesystem::path& projectFolder);
/// The tracking URI: `given`, else MLFLOW_TRACKING_URI; empty when neither is set. "none" turns it off.
std::string resolveTrackingUri(const std::string& given);

class MlflowTracker {
public:
    /// Checks the URI (checkTrackingUri) and opens the outbox; the run is registered at run_started.
    static Expected<std::unique_ptr<MlflowTracker>> start(TrackerOptions options);
    ~MlflowTracker();
    MlflowTracker(const MlflowTracker&) = delete;
    MlflowTracker& operator=(const MlflowTracker&) = delete;

    void handleEvent(const run::TrainEvent& event);
    /// Queues the artifacts and the run's status, then waits for everything to be delivered (or the
    /// timeout, or a refusal). Fails with what is left and how to send it. Idempotent.
    Status finish();
    TrackerStatus status() const;
    /// The outbox run, empty before run_started.
    std::string runUid() const;

private:
    struct Impl;
    explicit MlflowTracker(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace osprey::remote
