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
}

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

    /// training_complete's data, from what the events said. `modelPath`/`runId` are filled at send time.
    nlohmann::json completeData() const;

    const std::string& bestCheckpoint() const { return m_bestPath; }
    const std::string& lastCheckpoint() const { return m_lastPath; }
    bool finished() const { return m_finished; }
    bool failed() const { return m_failed; }
    /// The trainer's finished status ("finished", "stopped", "early_stopped"), when seen.
    const std::string& finishStatus() const { return m_finishStatus; }

private:
    std::string m_command;
    nlohmann::json m_modelInfo = nullptr;
    nlohmann::json m_system = nlohmann::json::object();
    nlohmann::json m_lastMetrics = nlohmann::json::object();
    nlohmann::json m_classNames = nlohmann::json::array();
    double m_bestFitness = 0;
    nlohmann::json m_lastFitness = nullptr;
    bool m_haveBest = false;
    int m_bestEpoch = -1; ///< 0-based
    int m_lastEpoch = -1; ///< 0-based
    std::string m_bestPath, m_lastPath, m_finishStatus;
    bool m_finished = false, m_failed = false;
};

/// Replaces NaN and infinities by null, recursively (the platform rejects them).
nlohmann::json finiteOrNull(nlohmann::json value);

/// environment {appVersion, hostname, os, cpu, cpuCount, totalRamGb, totalDiskGb, gpuCount, gpuType,
/// command}.
nlohmann::json environmentInfo(const std::string& command, const nlohmann::json& system);

} // namespace osprey::remote
