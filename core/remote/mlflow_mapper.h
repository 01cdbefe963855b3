#pragma once
// MlflowMapper: turns trainer events (EVENTS.md) into the MLflow calls a run is logged with, named as
// Ultralytics' MLflow callback names them where it has a name:
//   run_started  -> create_run (run name, tags: osprey.model / family / scale / version / device /
//                   local_run, mlflow.source.*, mlflow.user), log_batch of every args.yaml entry as a param
//                   (100 a call, MLflow's limit), log_inputs of the dataset snapshot (name = the project
//                   folder, digest = the snapshot hash cut to MLflow's 36 characters, the whole hash and the
//                   image/box counts and class names in the profile)
//   epoch        -> log_batch of the results.csv row (step = epoch; keys = the column names without
//                   parentheses, as Ultralytics sanitises them: metrics/mAP50-95B) with the latest system
//                   sample under MLflow's system metric names (system/cpu_utilization_percentage, ...)
//   finished / failed -> remembered; finish() gives the artifacts (weights/best.pt, weights/last.pt and the
//                   run folder's .csv .yaml .json .png .jpg files) and update_run FINISHED, KILLED (a
//                   stopped run) or FAILED.
// A second run_started (a resumed run, or its events replayed) continues the same MLflow run, and so
// does a resumed training in a new process (setContinuing). Every call
// carries its wall-clock timestamp from when it was mapped, so a replay sends identical values.
// Pure: no I/O but reading args.yaml and listing the run folder. Thread affinity: one owner.

#include "run/train_events.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace osprey::remote {

struct MlflowCall {
    std::string event;    ///< create_run, log_batch, log_inputs, artifact, update_run (mlflow_sender.h)
    std::string dataJson; ///< the row's data
};

class MlflowMapper {
public:
    /// `experiment` and `projectFolder` name the experiment and the dataset; `nowMs` gives the wall clock
    /// (tests fix it).
    MlflowMapper(std::string experiment, std::string projectFolder, std::function<std::int64_t()> nowMs = {});

    std::vector<MlflowCall> map(const run::TrainEvent& event);
    /// The closing calls: artifacts, then the run's status. `fallbackStatus` is used when no finished or
    /// failed event was seen (FAILED for a live run that ended without one, KILLED for an older run).
    std::vector<MlflowCall> finish(const std::string& fallbackStatus);

    /// The run goes on in an MLflow run logged before (a resumed training): run_started then gives only
    /// create_run (which finds it) and update_run RUNNING, no params (args.yaml now says resume: true,
    /// and MLflow refuses to change a param) and no second dataset input. Call before run_started.
    void setContinuing(bool continuing) { m_continuing = continuing; }

    bool started() const { return m_started; }
    const std::string& runName() const { return m_runName; }
    const std::string& runDir() const { return m_runDir; }

    /// "metrics/mAP50-95(B)" -> "metrics/mAP50-95B" (Ultralytics' sanitising of metric keys).
    static std::string metricKey(const std::string& column);

private:
    std::string m_experiment, m_projectFolder;
    std::function<std::int64_t()> m_nowMs;
    bool m_started = false, m_continuing = false;
    std::string m_runName, m_runDir, m_status;
    bool m_haveSystem = false;
    run::TrainEvent m_system;
};

} // namespace osprey::remote
