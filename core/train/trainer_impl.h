#pragma once
// Private to core/train: the engine's mutable state (network, EMA, optimiser, counters) and the helpers
// the loop shares with checkpointing and validation. Used from the training thread only.

#include "model/detector_torch_impl.h"
#include "run/train_config.h"
#include "run/train_events.h"
#include "train/batch_source.h"
#include "train/criterion_impl.h"
#include "train/detection_scorer.h"
#include "train/grad_scaler_impl.h"
#include "train/optimizer_impl.h"

#include <torch/torch.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>

namespace osprey::train {

/// Everything that must survive a resume.
struct TrainingState {
    std::shared_ptr<model::DetectionModel> model; ///< trained network
    std::shared_ptr<model::DetectionModel> ema;   ///< EMA copy: validated and used for inference
    std::unique_ptr<RecipeOptimizer> optimizer;
    std::unique_ptr<ModelEma> emaUpdater;
    OptimizerChoice choice;
    int nextEpoch = 0;                ///< 0-based epoch to run next (= epochs completed)
    int bestEpoch = 0;                ///< 1-based; 0 = none yet
    double bestFitness = -1;          ///< -1 = none yet
    long long lastOptimizerStep = -1; ///< global batch index of the last optimiser step
    double elapsedS = 0;              ///< training time of the completed epochs (results.csv `time`)
};

/// A batch on the device: images float [N, 3, H, W] in 0..1, targets for the loss, boxes for scoring.
struct DeviceBatch {
    torch::Tensor images;
    BatchTargets targets;
    int count = 0;
    int instances = 0;
};

/// Converts a host batch; on CUDA through pinned memory with a non-blocking copy.
DeviceBatch toDevice(const HostBatch& batch, const torch::Device& device);

/// Writes weights/last.pt (and best.pt when `isBest`) atomically. `metrics` is the finished epoch's row.
Status saveTrainingCheckpoint(const TrainingState& state, const run::TrainConfig& config,
                              const std::vector<std::string>& classNames, const run::EpochMetrics& metrics,
                              const std::filesystem::path& path);

/// Restores model, EMA, optimiser, counters and the RNG from last.pt. The network and optimiser in
/// `state` must already be built with the same spec and kind.
Status loadTrainingCheckpoint(TrainingState& state, const std::filesystem::path& path);

/// The optimiser kind and lr a checkpoint was trained with (resume must rebuild the same optimiser).
Expected<OptimizerChoice> checkpointOptimizer(const std::filesystem::path& path);

/// Validation losses and metrics of one pass over `source` with the EMA network.
struct ValidationResult {
    double boxLoss = 0, clsLoss = 0, dflLoss = 0;
    ValMetrics metrics;
};
/// A GPU out-of-memory error during a forward frees the cache and runs that batch, and the rest of the
/// pass, in halves (down to one image, which then fails with the error); `beforeForward` is the test hook
/// of TrainInputs::beforeValidationForward.
/// `precision` other than float32 runs the network under that autocast; the raw maps are then cast to
/// float32, and the boxes decoded, the loss computed and NMS run in float32 (bf16's 8-bit mantissa would
/// round box corners at 640 px to whole pixels).
ValidationResult validateEpoch(model::DetectionModel& network, BatchSource& source, const Criterion& loss,
                               DetectionScorer* scorer, const run::TrainConfig& config,
                               const torch::Device& device, Precision precision, int epoch,
                               const std::function<void(int)>& beforeForward = {});

} // namespace osprey::train
