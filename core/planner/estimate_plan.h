#pragma once
// The plan: for one workload, every catalogue GPU and "this machine" as rows of one table (time as a
// range, cost, cost per epoch, the largest batch that fits), the cheapest and the fastest, a
// recommendation that follows the Ultralytics articles' guidance with its reason in one sentence, and a
// smaller first run to start with. Pure function of its inputs; thread-safe.
//
// Time per run = start-up + epochs x (train images x s/image + val images x s/val image + per-epoch
// overhead). This machine's row uses its measured point (calibration or finished run) directly (exact
// model and imgsz), or scaled by the FLOPs ratio from another model or imgsz measured on it (CPU
// training is compute-bound). A GPU row uses the scaling model (scaling_model.h), or the user's measured
// point on that GPU when there is one.

#include "planner/gpu_catalogue.h"
#include "planner/measurements.h"
#include "planner/planner_options.h"
#include "planner/scaling_model.h"
#include "planner/workload.h"

#include <optional>
#include <string>
#include <vector>

namespace osprey::planner {

/// A duration with its uncertainty: low <= mid <= high.
struct TimeRange {
    double lowS = 0, midS = 0, highS = 0;
};

/// How a row's time was obtained.
enum class Basis {
    Measured,     ///< a measured point for this model and imgsz on this device
    Scaled,       ///< a measured point of another model or imgsz on this device, scaled by FLOPs
    Modelled,     ///< the scaling model (no measurement on this device)
    NotCalibrated ///< this machine without any measurement: no time
};
const char* toString(Basis basis); ///< "measured", "scaled", "modelled", "not calibrated"

struct PlanRow {
    std::string name; ///< GPU name, or "This machine (CPU)"
    bool thisMachine = false;
    Tier tier = Tier::Balanced;
    double vramGb = 0;                  ///< 0 for a CPU
    std::optional<double> pricePerHour; ///< this machine: its power cost
    std::string priceSource, priceDate;
    Basis basis = Basis::Modelled;
    std::string basisDetail; ///< e.g. "calibration 2026-12-01 at batch 8"
    std::optional<TimeRange> time;
    double secondsPerEpoch = 0;
    std::optional<TimeRange> cost;      ///< USD (needs a price and a time)
    std::optional<double> costPerEpoch; ///< USD, at the mid time
    int maxBatch = -1;                  ///< -1: not a GPU (host memory is not modelled)
    bool batchFits = true;
};

struct Recommendation {
    std::string gpu; ///< empty when nothing is priced and fits
    std::string reason;
};

/// A smaller first run: the nano model of the family, fewer epochs, a subset of a large dataset.
struct StartSmall {
    std::string model;
    int epochs = 0;
    double fraction = 1.0; ///< share of the train images
    std::string gpu;       ///< the recommended GPU (or this machine when nothing is priced)
    std::optional<TimeRange> time;
    std::optional<TimeRange> cost;
    std::string note; ///< what to do and the patience reminder
};

struct PlanInputs {
    Catalogue catalogue;
    Workload workload;
    std::vector<Measurement> measurements;
    std::string machine;            ///< machineId() of this machine
    std::string thisDevice = "cpu"; ///< "cpu" or this machine's GPU name
    double thisMachinePowerPerHour =
        run::defaultNumber(planOptions(), "power"); ///< USD of electricity per training hour
};

struct Plan {
    Workload workload;
    std::vector<PlanRow> rows; ///< this machine first, then the catalogue in its order
    std::string cheapest;      ///< lowest mid cost among rows with a cost and a fitting batch
    std::string fastest;       ///< lowest mid time among rows with a time and a fitting batch
    Recommendation recommendation;
    StartSmall startSmall;
    std::vector<std::string> warnings; ///< e.g. the chosen batch does not fit some GPUs
    ScalingFit fit;
};

Plan makePlan(const PlanInputs& inputs);

/// The run time of `workload` for a per-image time and overheads (the formula above).
double runSeconds(const Workload& workload, double trainSecondsPerImage, double valSecondsPerImage,
                  double epochOverheadS, double startupS);

/// The plan as an aligned text table with the cheapest, fastest, recommendation and start-small lines.
std::string formatPlan(const Plan& plan);
/// The plan as one JSON document (times in seconds, costs in USD).
std::string planToJson(const Plan& plan);
/// "1 h 05 min", "12 min", "45 s".
std::string formatDuration(double seconds);
/// "$1.23", "$0.004", "$1,234".
std::string formatMoney(double usd);

} // namespace osprey::planner
