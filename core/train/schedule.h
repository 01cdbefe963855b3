#pragma once
// The recipe's optimiser and schedule arithmetic as pure functions: the "auto" optimiser rule, gradient
// accumulation, weight-decay scaling, the per-epoch lr factor and the warmup ramps. No torch;
// thread-safe.

#include "run/train_config.h"

namespace osprey::train {

/// The optimiser the run actually uses, with its learning rate and first momentum (filled by
/// chooseOptimizer or from a checkpoint; the option defaults live in core/run's table only).
struct OptimizerChoice {
    run::OptimizerKind kind = run::OptimizerKind::Sgd;
    double lr{};
    double momentum{}; ///< SGD momentum or AdamW beta1
    /// The bias lr at the start of warmup: warmup_bias_lr for an explicit optimizer; for auto see
    /// autoWarmupBiasLr.
    double warmupBiasLr{};
};

/// The bias lr at the start of warmup under optimizer=auto for YOLOv8 and YOLO11: warmup_bias_lr (0.1) from
/// scratch, 0 from pretrained weights. Ultralytics' auto takes 0 in both cases; a bias lr of 0.1 under AdamW
/// moves every bias by ~0.1 per step, which wrecks a pretrained start (half its mAP lost in epoch 1), but
/// from scratch it is what gets the detector off the ground: on the demo data (yolov8n, 30 epochs at 320,
/// seed 0, float32) 0 ended at mAP50-95 0.582, 0.1 at 0.717 (docs/training.md, issue 37).
double autoWarmupBiasLr(const run::TrainConfig& config);

/// Auto: iterations = ceil(images / max(batch, 64)) * epochs; above 10,000 SGD at lr 0.01, otherwise AdamW
/// with lr = round(0.002 * 5 / (4 + nc), 6) and beta1 0.9; both with autoWarmupBiasLr. Explicit kinds keep
/// lr0, momentum and warmup_bias_lr.
OptimizerChoice chooseOptimizer(const run::TrainConfig& config, int trainImages, int numClasses);

/// YOLO26 runs (Ultralytics 8.4.190's rule): as chooseOptimizer, except that auto picks MuSGD at lr 0.01 and
/// momentum 0.9 above 10,000 iterations, and that auto warms the biases up from 0 from scratch too (8.4.190's
/// rule; the 0.1 of autoWarmupBiasLr was measured for YOLOv8 only). Warmup then ramps the momentum from
/// warmup_momentum to the configured momentum (0.937 by default), not to 0.9, as Ultralytics does. The choice
/// is what a resumed run must rebuild (8.4.190 writes it back into the run's args).
OptimizerChoice chooseYolo26Optimizer(const run::TrainConfig& config, int trainImages, int numClasses);

/// max(round(nominal / batch), 1).
int accumulateSteps(int batch, int nominalBatch);

/// weight_decay * batch * accumulate / nominal.
double scaledWeightDecay(double weightDecay, int batch, int accumulate, int nominalBatch);

/// Iterations of warmup: max(round(warmupEpochs * batchesPerEpoch), 100); 0 when warmupEpochs <= 0.
int warmupIterations(double warmupEpochs, int batchesPerEpoch);

/// YOLO26 runs (Ultralytics 8.4.190): round(min(warmupEpochs, epochs - 1) * batchesPerEpoch) iterations, half
/// to even as Python rounds, without the floor of 100, so the last epoch is never warmup; 0 when the capped
/// warmup is <= 0 (a 1-epoch run).
int yolo26WarmupIterations(double warmupEpochs, int epochs, int batchesPerEpoch);

/// The lr factor of a 0-based epoch: linear (1 - e/E)(1 - lrf) + lrf, or the cosine ramp from 1 to lrf.
double lrFactor(run::LrSchedule schedule, int epoch, int epochs, double lrf);

/// numpy.interp for two points: x in [x0, x1] maps linearly to [y0, y1]; clamped outside.
double interpolate2(double x, double x0, double x1, double y0, double y1);

/// One parameter group's lr and momentum during warmup at global iteration `iteration`.
struct WarmupValues {
    double lr = 0;
    double momentum = 0;
};
/// `biasGroup` ramps from warmupBiasLr, the others from 0, to `scheduledLr`; momentum ramps from
/// warmupMomentum to `momentum`.
WarmupValues warmupValues(int iteration, int warmupIters, bool biasGroup, double scheduledLr,
                          double warmupBiasLr, double warmupMomentum, double momentum);

/// EMA decay after `updates` updates: 0.9999 * (1 - exp(-updates / 2000)).
double emaDecay(long long updates, double decay = 0.9999, double tau = 2000.0);

} // namespace osprey::train
