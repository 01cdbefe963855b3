#pragma once
// The training engine: builds the network, the loss, the optimiser, the schedule and the EMA, and runs
// the epoch loop over abstract batch sources. It writes the run folder (args.yaml, results.csv,
// weights/last.pt and best.pt) and reports everything through an run::EventSink. Depends on LibTorch (inside)
// but exposes no torch types.
//
// Thread affinity: runTraining() runs on the calling thread, which becomes the training thread; it
// starts and joins its own system-sampler thread. The stop flag may be set from any thread (e.g. a
// signal handler's forwarder): the current batch finishes, last.pt is saved, and the run ends as
// "stopped".

#include "common/expected.h"
#include "run/train_config.h"
#include "run/train_events.h"
#include "train/batch_source.h"
#include "train/detection_scorer.h"
#include "train/distributed.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace osprey::train {

/// What the data side knows about the dataset (for run_started and the auto optimiser).
struct DatasetInfo {
    std::vector<std::string> classNames;
    std::int64_t trainImages = 0, valImages = 0, trainBoxes = 0, valBoxes = 0, negatives = 0;
};

/// Where the engine is, for TrainInputs::beforeStep.
struct StepInfo {
    int epoch = 0;           ///< 1-based
    long long iteration = 0; ///< 0-based batch index over the run
    int images = 0;          ///< images in this forward (fewer than the batch after an out-of-memory split)
};

/// The inputs of a run besides its configuration. `val` and `scorer` may be null (no validation).
struct TrainInputs {
    BatchSource* train = nullptr;
    BatchSource* val = nullptr;
    DetectionScorer* scorer = nullptr;
    DatasetInfo dataset;
    std::filesystem::path runDir;     ///< created if missing; holds args.yaml, results.csv, weights/
    run::EventSink* events = nullptr; ///< required
    const std::atomic<bool>* stop = nullptr;
    /// Tests: called before each forward pass; it may throw what a failing step throws (a simulated CUDA
    /// out-of-memory error) to exercise the recovery.
    std::function<void(const StepInfo&)> beforeStep;
    /// Tests: called with the image count before each validation forward pass; it may throw a simulated
    /// out-of-memory error (validation then runs the batch in smaller pieces).
    std::function<void(int images)> beforeValidationForward;
    /// Tests: called before each optimiser step (with the configured batch); it may throw likewise.
    std::function<void(const StepInfo&)> beforeOptimizerStep;
    /// Data-parallel training: this rank's connected context (its group started), or null for one
    /// process. The train source must then deliver this rank's share of each batch (LoaderOptions'
    /// rank and worldSize), and only rank 0 validates and writes the run folder.
    DistributedContext* distributed = nullptr;
    /// Tests: called after each optimiser step with the trained network's parameters (state-dict order,
    /// flattened, float32 on the host).
    std::function<void(const StepInfo&, const std::vector<float>&)> afterOptimizerStep;
};

/// Seconds spent per phase over the whole run (the speed report).
struct PhaseTimes {
    double dataS = 0;      ///< waiting for the loader plus host-to-device conversion
    double forwardS = 0;   ///< network forward
    double lossS = 0;      ///< the loss: target assignment and its terms
    double backwardS = 0;  ///< backward pass
    double optimizerS = 0; ///< clipping, optimiser step, EMA update
    double validationS = 0;
    double checkpointS = 0;
    double communicationS = 0; ///< data parallel: in the training steps' collectives (part of the above)
    long long images = 0;      ///< training images processed (by this rank)
};

/// How a run ended.
struct TrainResult {
    std::string status; ///< "finished", "early_stopped" or "stopped"
    int epochsCompleted = 0;
    int bestEpoch = 0;
    double bestFitness = 0;
    run::EpochMetrics last;
    std::filesystem::path lastWeights, bestWeights;
    double seconds = 0;
    PhaseTimes phases;
};

/// The result of validating a weights file.
struct ValidationReport {
    ValMetrics metrics;
    double boxLoss = 0, clsLoss = 0, dflLoss = 0; ///< YOLO26: dflLoss holds the L1 box term
    double seconds = 0;
    std::string modelName; ///< "yolo26n", ...
};

/// Validates `weights` (EMA when present) on `source` as the trainer's per-epoch validation does (letterboxed
/// batches, NMS conf/iou/max_det from `config`, metrics through `scorer`). `numClasses` must match the
/// checkpoint. Runs on the calling thread.
Expected<ValidationReport> validateWeights(const std::filesystem::path& weights, BatchSource& source,
                                           DetectionScorer* scorer, int numClasses,
                                           const run::TrainConfig& config);

/// Runs training. Failures (bad config, torch errors, unreadable checkpoint on resume) come back as an
/// error, after a `failed` event has been sent.
Expected<TrainResult> runTraining(const run::TrainConfig& config, const TrainInputs& inputs);

} // namespace osprey::train
