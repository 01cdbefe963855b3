#include "train/precision_policy_impl.h"

#include "model/compat_torch_impl.h"
#include "system/cpu_features.h"

namespace osprey::train::detail {

PrecisionPolicy::PrecisionPolicy(const run::TrainConfig& config, const torch::Device& device,
                                 Emitter& emitter)
    : m_emit(emitter), m_precision(choosePrecision(config.amp, device.is_cuda(), fastBFloat16(device))),
      m_scaler(m_precision == Precision::Float16) {
    if (device.is_cuda()) {
        // Fixed input sizes: let cuDNN time its algorithms once and keep the fastest.
        model::compat::setCudnnBenchmark(true);
        if (!config.amp)
            m_emit.log("amp=false: training in float32");
        else if (m_precision == Precision::BFloat16)
            m_emit.log("AMP: bf16 autocast for training and validation (the GPU supports bfloat16)");
        else
            m_emit.log(
                "AMP: fp16 autocast for training and validation, with a dynamic loss scaler (the GPU has no "
                "bfloat16 support)");
    } else if (!config.amp) {
        m_emit.log("amp=false: training in float32");
    } else if (m_precision == Precision::BFloat16) {
        m_emit.log("AMP: bf16 autocast for training and validation on the CPU (it has " +
                   system::cpuBFloat16Instructions() + "); amp=false trains in float32");
    } else if (system::cpuComputesBFloat16() && !system::cpuBFloat16IsFast()) {
        m_emit.log(
            "AMP: float32 on the CPU: it has " + system::cpuBFloat16Instructions() +
            " but no AMX, where bf16 autocast measured 0.84x float32 per training step on an Intel CPU "
            "(bf16 is faster with AMX, or AVX512-BF16 on AMD)");
    } else if (system::cpuBFloat16IsFast()) {
        m_emit.log("AMP: float32 on the CPU: bf16 autocast needs LibTorch 2.x (" +
                   model::compat::torchVersion() +
                   "'s bf16 kernels measured 0.3-1.08x float32 per training step, 2.15's 1.5-2.5x)");
    }
}

StepOutcome PrecisionPolicy::step(torch::optim::Optimizer& optimizer,
                                  const std::vector<torch::Tensor>& parameters, double maxNorm,
                                  long long iteration, int epoch) {
    const auto outcome = m_scaler.step(optimizer, parameters, maxNorm);
    if (outcome.stepped)
        return outcome;
    ++m_skippedSteps;
    // fp16 skips a few steps while its scale settles; name the first ones, then count.
    if (m_skippedSteps <= 20)
        m_emit.log(GradScaler::describeSkip(outcome, iteration, epoch), "warning");
    else if (m_skippedSteps % 100 == 0)
        m_emit.log(std::to_string(m_skippedSteps) + " optimiser steps skipped so far for inf/nan gradients",
                   "warning");
    return outcome;
}

} // namespace osprey::train::detail
