#pragma once
// The training event stream: one value type per event kind and one callback interface through which
// every event leaves the engine. The CLI writes them as JSON lines (schema: core/run/EVENTS.md), the
// GUI and the remote reporter read them. No torch.
//
// Thread affinity: the engine calls EventSink::onEvent from its training thread and, for `system`
// events, from its sampler thread; implementations must be thread-safe.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace osprey::run {

inline constexpr int kEventSchemaVersion = 1;

/// Metrics of one finished epoch (one results.csv row).
struct EpochMetrics {
    int epoch = 0;      ///< 1-based
    double timeS = 0;   ///< cumulative training time in seconds
    double boxLoss = 0; ///< mean train losses of the epoch (per image, before the gains' batch factor)
    double clsLoss = 0;
    double dflLoss = 0;
    double precision = 0; ///< validation, at the confidence of maximal mean F1
    double recall = 0;
    double map50 = 0;
    double map50to95 = 0;
    double valBoxLoss = 0;
    double valClsLoss = 0;
    double valDflLoss = 0;
    double lrPg0 = 0;   ///< weights (with decay)
    double lrPg1 = 0;   ///< BatchNorm weights
    double lrPg2 = 0;   ///< biases
    double fitness = 0; ///< mAP50-95
};

/// One event. `type` selects which fields are meaningful; toJson() writes exactly the documented ones.
struct TrainEvent {
    enum class Type { RunStarted, Batch, Epoch, System, Log, Checkpoint, Finished, Failed };
    Type type = Type::Log;
    double timeS = 0; ///< seconds since the run (this process) started

    // run_started
    std::map<std::string, std::string> config;
    std::int64_t trainImages = 0, valImages = 0, trainBoxes = 0, valBoxes = 0, negatives = 0;
    std::vector<std::string> classNames;
    std::string modelName;
    std::int64_t parameters = 0;
    double gflops = 0;
    std::string runDir;
    int startEpoch = 1;   ///< >1 when resuming
    std::int64_t pid = 0; ///< the training process, so that a later GUI session can ask it to stop

    // batch / epoch
    int epoch = 0; ///< 1-based
    int epochs = 0;
    int batch = 0; ///< 1-based within the epoch
    int batches = 0;
    double boxLoss = 0, clsLoss = 0, dflLoss = 0; ///< running means over the epoch so far
    double imagesPerS = 0;
    double etaS = 0;
    int instances = 0; ///< boxes in the batch
    EpochMetrics metrics;
    bool best = false; ///< epoch: this epoch improved the fitness

    // system
    double cpuPercent = 0; ///< whole machine, 0..100
    double ramUsedMb = 0, ramTotalMb = 0, processRssMb = 0;
    bool gpu = false; ///< an NVIDIA GPU was found through NVML
    std::string gpuName;
    double gpuUtilPercent = 0, gpuMemUsedMb = 0, gpuMemTotalMb = 0, gpuTempC = 0;

    // log / finished / failed
    std::string level = "info"; ///< log: "info", "warning", "error"
    std::string message;        ///< log text; finished: summary; failed: the reason

    // checkpoint
    std::string path;
    std::string kind; ///< "last" or "best"

    // finished
    std::string status; ///< "finished", "stopped" (signal / stop request) or "early_stopped"
    int bestEpoch = 0;
    double bestFitness = 0;
    std::string bestPath, lastPath;
};

/// "run_started", "batch", "epoch", "system", "log", "checkpoint", "finished", "failed".
const char* toString(TrainEvent::Type type);

/// One JSON object on one line (no trailing newline), following EVENTS.md.
std::string toJson(const TrainEvent& event);

/// Receives every event. Must be thread-safe (see the file comment) and should return quickly.
class EventSink {
public:
    virtual ~EventSink() = default;
    virtual void onEvent(const TrainEvent& event) = 0;
};

} // namespace osprey::run
