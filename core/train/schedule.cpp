#include "train/schedule.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace osprey::train {

namespace {

constexpr long long kAutoLongRunIterations = 10000;

long long autoIterations(const run::TrainConfig& config, int trainImages) {
    const int perStep = std::max(config.batch, config.nominalBatch);
    const long long perEpoch = (trainImages + perStep - 1) / perStep;
    return perEpoch * config.epochs;
}

OptimizerChoice autoAdamW(int numClasses) {
    const double lr = std::round(0.002 * 5.0 / (4.0 + numClasses) * 1e6) / 1e6;
    return {run::OptimizerKind::AdamW, lr, 0.9, 0.0};
}

} // namespace

double autoWarmupBiasLr(const run::TrainConfig& config) {
    return config.weights.empty() ? config.warmupBiasLr : 0.0;
}

OptimizerChoice chooseOptimizer(const run::TrainConfig& config, int trainImages, int numClasses) {
    if (config.optimizer != run::OptimizerKind::Auto)
        return {config.optimizer, config.lr0, config.momentum, config.warmupBiasLr};
    if (autoIterations(config, trainImages) > kAutoLongRunIterations)
        return {run::OptimizerKind::Sgd, 0.01, config.momentum, autoWarmupBiasLr(config)};
    auto choice = autoAdamW(numClasses);
    choice.warmupBiasLr = autoWarmupBiasLr(config);
    return choice;
}

OptimizerChoice chooseYolo26Optimizer(const run::TrainConfig& config, int trainImages, int numClasses) {
    if (config.optimizer != run::OptimizerKind::Auto)
        return {config.optimizer, config.lr0, config.momentum, config.warmupBiasLr};
    if (autoIterations(config, trainImages) > kAutoLongRunIterations)
        return {run::OptimizerKind::MuSgd, 0.01, 0.9, 0.0};
    return autoAdamW(numClasses);
}

int accumulateSteps(int batch, int nominalBatch) {
    return std::max(static_cast<int>(std::lround(static_cast<double>(nominalBatch) / batch)), 1);
}

double scaledWeightDecay(double weightDecay, int batch, int accumulate, int nominalBatch) {
    return weightDecay * batch * accumulate / nominalBatch;
}

int warmupIterations(double warmupEpochs, int batchesPerEpoch) {
    if (warmupEpochs <= 0)
        return 0;
    return std::max(static_cast<int>(std::lround(warmupEpochs * batchesPerEpoch)), 100);
}

int yolo26WarmupIterations(double warmupEpochs, int epochs, int batchesPerEpoch) {
    const double capped = std::min(warmupEpochs, static_cast<double>(std::max(epochs - 1, 0)));
    if (capped <= 0)
        return 0;
    // Python's round: halves to even (std::nearbyint in the default rounding mode).
    return static_cast<int>(std::nearbyint(capped * batchesPerEpoch));
}

double lrFactor(run::LrSchedule schedule, int epoch, int epochs, double lrf) {
    const double x = static_cast<double>(epoch);
    if (schedule == run::LrSchedule::Cosine)
        return ((1.0 - std::cos(x * std::numbers::pi / epochs)) / 2.0) * (lrf - 1.0) + 1.0;
    return std::max(1.0 - x / epochs, 0.0) * (1.0 - lrf) + lrf;
}

double interpolate2(double x, double x0, double x1, double y0, double y1) {
    if (x <= x0)
        return y0;
    if (x >= x1)
        return y1;
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
}

WarmupValues warmupValues(int iteration, int warmupIters, bool biasGroup, double scheduledLr,
                          double warmupBiasLr, double warmupMomentum, double momentum) {
    const double start = biasGroup ? warmupBiasLr : 0.0;
    return {interpolate2(iteration, 0, warmupIters, start, scheduledLr),
            interpolate2(iteration, 0, warmupIters, warmupMomentum, momentum)};
}

double emaDecay(long long updates, double decay, double tau) {
    return decay * (1.0 - std::exp(-static_cast<double>(updates) / tau));
}

} // namespace osprey::train
