#pragma once
// EventMapper: turns the trainer's events (core/run's TrainEvent, read from EVENTS.md lines by
// run::parseEvent) into the platform's events (specs/remote-platform.md). A value the trainer did not
// give (NaN) becomes null. Internal to core/remote (used by RunReporter); public so it can be tested.
//
// Thread affinity: none; not thread-safe (RunReporter calls it under its lock).

#include "remote/outbox.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace osprey::run {
struct TrainEvent;
struct RunCurves;
} // namespace osprey::run

namespace osprey::remote {

/// One platform event to queue. "console_line" rows are merged into console_output by the sender.
struct PlatformEvent {
    std::string event;
    nlohmann::json data;
};

class EventMapper {
public:
    /// `command` is the command line shown as environment.command.
    explicit EventMapper(std::string command = {});

    /// Maps one trainer event; most produce zero or one platform event.
    std::vector<PlatformEvent> map(const run::TrainEvent& trainerEvent);

    /// training_complete's data as Ultralytics 8.4.190 sends it (specs/remote-platform.md): `results`
    /// {metrics (the best epoch's, as validating best.pt gives them, plus the last fitness), bestEpoch,
    /// bestFitness, validation}, classNames, plots, runId; Osprey adds results.status and results.epochs.
    /// `curves` (the run's curves.json) gives the plots and the validation rows; without it both are left
    /// out. The sender fills runId, and results.modelPath/modelSize once the final upload succeeded.
    nlohmann::json completeData(const run::RunCurves* curves = nullptr) const;

    /// The run folder the trainer announced (empty before run_started).
    const std::string& runDir() const { return m_runDir; }

    const std::string& bestCheckpoint() const { return m_bestPath; }
    const std::string& lastCheckpoint() const { return m_lastPath; }
    bool finished() const { return m_finished; }
    bool failed() const { return m_failed; }
    /// The trainer's finished status ("finished", "stopped", "early_stopped"), when seen.
    const std::string& finishStatus() const { return m_finishStatus; }

private:
    std::string m_command;
    nlohmann::json m_modelInfo = nullptr;
    bool m_endToEnd = false; ///< a YOLO26 run: its third loss is the L1 box term
    nlohmann::json m_system = nlohmann::json::object();
    nlohmann::json m_lastMetrics = nlohmann::json::object();
    nlohmann::json m_bestMetrics = nullptr; ///< the best epoch's precision, recall and mAPs
    nlohmann::json m_classNames = nlohmann::json::array();
    double m_bestFitness = 0;
    nlohmann::json m_lastFitness = nullptr;
    bool m_haveBest = false;
    int m_bestEpoch = -1; ///< 0-based
    int m_lastEpoch = -1; ///< 0-based
    std::string m_bestPath, m_lastPath, m_finishStatus, m_runDir;
    bool m_finished = false, m_failed = false;
};

/// Replaces NaN and infinities by null, recursively (the platform rejects them).
nlohmann::json finiteOrNull(nlohmann::json value);

/// training_complete's `plots` from a run's curves: confusion_matrix, r_curve, p_curve, f1_curve and
/// pr_curve (with `classes` when some classes have no validation labels), each with its `type` key.
nlohmann::json platformPlots(const run::RunCurves& curves);

/// training_complete's results.validation: every image ranked by its F1 (ties by file name), all of them
/// or an even sample of `sampleLimit`, and the `extremesLimit` worst and best. Null when there are no
/// images.
nlohmann::json validationPayload(const run::RunCurves& curves, size_t sampleLimit = 5000,
                                 size_t extremesLimit = 100);

/// environment {appVersion, hostname, os, cpu, cpuCount, totalRamGb, totalDiskGb, gpuCount, gpuType,
/// command}.
nlohmann::json environmentInfo(const std::string& command, const nlohmann::json& system);

} // namespace osprey::remote
