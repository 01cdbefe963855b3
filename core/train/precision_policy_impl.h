#pragma once
// Private to core/train: a training run's precision policy. It picks float32, bf16 autocast or fp16
// autocast with a dynamic loss scaler (choosePrecision), says which and why, and puts every loss and every
// optimiser step through its GradScaler, which also skips steps whose gradients are not finite.
// Thread affinity: the training thread.

#include "run/train_config.h"
#include "train/emitter_impl.h"
#include "train/grad_scaler_impl.h"

#include <torch/torch.h>

#include <vector>

namespace osprey::train::detail {

class PrecisionPolicy {
public:
    /// Chooses the precision of `config.amp` on `device` and logs the choice through `emitter`; on CUDA it
    /// also lets cuDNN time its algorithms once (the input sizes are fixed).
    PrecisionPolicy(const run::TrainConfig& config, const torch::Device& device, Emitter& emitter);

    Precision precision() const { return m_precision; }
    /// Whether forwards run under autocast (bf16 or fp16).
    bool autocast() const { return m_precision != Precision::Float32; }

    /// The loss to call backward() on: multiplied by the fp16 loss scale (unchanged otherwise).
    torch::Tensor scaleLoss(const torch::Tensor& loss) const { return m_scaler.scaleLoss(loss); }

    /// Unscales the gradients, clips their total norm to `maxNorm` and steps `optimizer` when they are
    /// finite (GradScaler::step). A skipped step is logged with its `iteration` and 1-based `epoch`: the
    /// first 20 each by name, then a count every 100.
    StepOutcome step(torch::optim::Optimizer& optimizer, const std::vector<torch::Tensor>& parameters,
                     double maxNorm, long long iteration, int epoch);

private:
    Emitter& m_emit;
    Precision m_precision;
    GradScaler m_scaler;
    long long m_skippedSteps = 0; ///< optimiser steps skipped for inf/nan gradients
};

} // namespace osprey::train::detail
