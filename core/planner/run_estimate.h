#pragma once
// The planner's estimate of a run, recorded when the run starts, so that the run view can say afterwards
// "estimated X, took Y" and how far off the planner was. The estimate is this machine's row of the plan
// (estimate_plan.h) for the run's model, imgsz, batch, epochs and split sizes, from the measured points
// known at the start. Stored as <run>/estimate.json. Value types; file access on the calling thread.

#include "common/expected.h"
#include "run/train_events.h"

#include <filesystem>
#include <optional>
#include <string>

namespace osprey::planner {

struct RunEstimate {
    bool estimated = false; ///< false: this machine was not calibrated for it (`reason` says why)
    double lowS = 0, midS = 0, highS = 0;
    std::string basis; ///< "measured", "scaled", "modelled"
    std::string basisDetail;
    std::string reason; ///< when not estimated
    std::string model, device;
    int epochs = 0, imgsz = 0, batch = 0;
    std::int64_t trainImages = 0, valImages = 0;
    std::string recordedAt; ///< ISO 8601 UTC
};

/// The estimate for a run from its run_started event (config, split sizes), with `measurementsFile`'s
/// points (measurementsPath() when empty). A GPU run needs `gpuName`, the driver's name of its first
/// device ("NVIDIA GeForce RTX 4090"): its points on this machine when there are any, else the GPU's
/// catalogue row (modelled); without a name, or for a GPU the catalogue lacks, `reason` says why.
RunEstimate estimateRun(const run::TrainEvent& runStarted, const std::filesystem::path& measurementsFile = {},
                        const std::string& gpuName = {});

Status writeRunEstimate(const std::filesystem::path& runDir, const RunEstimate& estimate);
/// nullopt when the run has no estimate.json (runs before it was recorded); an error for a damaged one.
Expected<std::optional<RunEstimate>> readRunEstimate(const std::filesystem::path& runDir);

/// (took - estimated mid) / estimated mid, in percent.
double estimateErrorPercent(const RunEstimate& estimate, double tookS);

/// Records the estimate when a run starts (run_started of a run that does not resume, or has none yet).
/// Thread affinity: called on the thread that emits run_started (the training thread).
class EstimateRecorder : public run::EventSink {
public:
    /// `gpuName`: as for estimateRun (empty for a CPU run).
    explicit EstimateRecorder(std::filesystem::path measurementsFile = {}, std::string gpuName = {})
        : m_measurementsFile(std::move(measurementsFile)), m_gpuName(std::move(gpuName)) {}
    void onEvent(const run::TrainEvent& event) override;

private:
    std::filesystem::path m_measurementsFile;
    std::string m_gpuName;
};

} // namespace osprey::planner
