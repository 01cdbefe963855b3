#pragma once
// The training event stream: one value type per event kind and one callback interface through which
// every event leaves the engine. The CLI writes them as JSON lines (schema: core/run/EVENTS.md), the
// GUI and the remote reporter read them. No torch.
//
// Thread affinity: the engine calls EventSink::onEvent from its training thread and, for `system`
// events, from its sampler thread; implementations must be thread-safe.

#include "common/expected.h"

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
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

/// One per-epoch value of EpochMetrics: its key in results.csv and in `epoch` events' `metrics`.
struct MetricColumn {
    const char* key;             ///< "train/box_loss", "metrics/mAP50-95(B)", ...
    double EpochMetrics::*value; ///< where it lives
    bool inResultsCsv;           ///< false for `fitness`, which only the events carry
};

/// The per-epoch values in results.csv order (after `epoch`), then `fitness`: the one list of them.
const std::vector<MetricColumn>& metricColumns();

/// One event. `type` selects which fields are meaningful; toJson() writes exactly the documented ones.
struct TrainEvent {
    /// Remote is the platform-streaming status line (stdout only; see EVENTS.md).
    /// Advice is the run advice (core/planner's AdviceMonitor): one line per piece of advice.
    enum class Type { RunStarted, Batch, Epoch, System, Log, Checkpoint, Finished, Failed, Remote, Advice };
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
    int startEpoch = 1;     ///< >1 when resuming
    std::int64_t pid = 0;   ///< the training process, so that a later GUI session can ask it to stop
    int computeThreads = 0; ///< the threads a CPU run computes on; 0 on a GPU

    // batch / epoch
    int epoch = 0; ///< 1-based
    int epochs = 0;
    int batch = 0; ///< 1-based within the epoch
    int batches = 0;
    double boxLoss = 0, clsLoss = 0, dflLoss = 0; ///< running means over the epoch so far
    double imagesPerS = 0; ///< all ranks together (the sum of rankImagesPerS when training data parallel)
    /// Data-parallel training: each rank's images/s (index = rank), measured over its own time in the
    /// epoch so far; empty for one process (no `rank_images_per_s` key on the line)
    std::vector<double> rankImagesPerS;
    double etaS = 0;
    int instances = 0; ///< boxes in the batch
    EpochMetrics metrics;
    bool best = false; ///< epoch: this epoch improved the fitness
    /// epoch: the most GPU memory the trainer's tensors held during the epoch (CUDA allocator), MiB; NaN
    /// (null in JSON) when training on the CPU
    double gpuPeakMemMb = std::numeric_limits<double>::quiet_NaN();

    // system
    double cpuPercent = 0;        ///< whole machine, 0..100
    double processCpuPercent = 0; ///< the trainer's share of it (same scale)
    int cpuCores = 0;             ///< logical CPUs of the machine
    double ramUsedMb = 0, ramTotalMb = 0, processRssMb = 0;
    bool gpu = false; ///< an NVIDIA GPU was found through NVML
    std::string gpuName;
    double gpuUtilPercent = 0, gpuMemUsedMb = 0, gpuMemTotalMb = 0, gpuTempC = 0;

    // log / finished / failed
    std::string level = "info"; ///< log: "info", "warning", "error"
    std::string message;        ///< log text; finished: summary; failed: the reason

    // checkpoint
    std::string path;
    std::string kind; ///< checkpoint: "last" or "best"; advice: what it is about (EVENTS.md)

    // finished
    std::string status; ///< "finished", "stopped" (signal / stop request) or "early_stopped"
    int bestEpoch = 0;
    double bestFitness = 0;
    std::string bestPath, lastPath;

    // remote (`error` is `message`; `failed` is `remoteFailed`)
    std::string remoteState; ///< connecting, connected, retrying, unauthorized, finished or off
    std::int64_t queued = 0, delivered = 0, remoteFailed = 0;
    std::optional<std::string> dashboardUrl; ///< absent in a line: unchanged since the last line
    bool uploading = false;
    std::int64_t uploadSent = 0, uploadTotal = 0;
    std::optional<bool> cancelled; ///< absent in a line: unchanged since the last line
};

/// "run_started", "batch", "epoch", "system", "log", "checkpoint", "finished", "failed", "remote",
/// "advice".
const char* toString(TrainEvent::Type type);

/// One JSON object on one line (no trailing newline), following EVENTS.md.
std::string toJson(const TrainEvent& event);

/// The one reader of event lines (what toJson() and EVENTS.md write), for the dashboard and the remote
/// reporter. Keys it does not know are ignored (a newer writer may add some). A number that is missing,
/// null (not finite) or of another JSON type reads as NaN, so a gap stays a gap; a missing integer, text
/// or flag keeps the field's default. The error says why a line is not an event; its code is "not_json"
/// (not JSON, or not an object) or "unknown_type" (no `type`, or one this version does not know: a
/// reader that must stay forward compatible skips such a line).
Expected<TrainEvent> parseEvent(std::string_view line);

/// Receives every event. Must be thread-safe (see the file comment) and should return quickly.
class EventSink {
public:
    virtual ~EventSink() = default;
    virtual void onEvent(const TrainEvent& event) = 0;
};

} // namespace osprey::run
