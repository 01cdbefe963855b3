#include "train/grad_scaler_impl.h"

#include "model/compat_torch_impl.h"
#include "system/cpu_features.h"

#include <cmath>
#include <cstdio>

namespace osprey::train {

const char* toString(Precision precision) {
    switch (precision) {
    case Precision::Float32:
        return "float32";
    case Precision::BFloat16:
        return "bf16";
    case Precision::Float16:
        return "fp16";
    }
    return "float32";
}

Precision choosePrecision(bool amp, bool cuda, bool fastBFloat16) {
    if (!amp)
        return Precision::Float32;
    if (fastBFloat16)
        return Precision::BFloat16;
    return cuda ? Precision::Float16 : Precision::Float32;
}

bool fastBFloat16(const torch::Device& device) {
    if (device.is_cuda())
        return model::compat::cudaSupportsBFloat16(device.index());
    return device.is_cpu() && model::compat::cpuBFloat16KernelsAreFast() && system::cpuBFloat16IsFast();
}

at::ScalarType autocastType(Precision precision) {
    switch (precision) {
    case Precision::BFloat16:
        return at::kBFloat16;
    case Precision::Float16:
        return at::kHalf;
    case Precision::Float32:
        break;
    }
    return at::kFloat;
}

GradScaler::GradScaler(bool enabled, GradScalerOptions options)
    : m_enabled(enabled), m_options(options), m_scale(enabled ? options.initScale : 1.0) {}

torch::Tensor GradScaler::scaleLoss(const torch::Tensor& loss) const {
    return m_enabled ? loss * m_scale : loss;
}

StepOutcome GradScaler::step(torch::optim::Optimizer& optimizer, const std::vector<torch::Tensor>& parameters,
                             double maxNorm) {
    StepOutcome outcome;
    outcome.scaleBefore = m_scale;
    if (m_enabled) {
        torch::NoGradGuard noGrad;
        const double inverse = 1.0 / m_scale;
        for (const auto& parameter : parameters)
            if (parameter.grad().defined())
                parameter.grad().mul_(inverse);
    }
    // The total norm is inf or nan exactly when some gradient element is (short of a float overflow of
    // the sum of squares, far beyond any trainable gradient).
    outcome.gradNorm = torch::nn::utils::clip_grad_norm_(parameters, maxNorm);
    outcome.stepped = std::isfinite(outcome.gradNorm);
    if (outcome.stepped)
        optimizer.step();
    if (m_enabled) {
        if (!outcome.stepped) {
            m_scale *= m_options.backoffFactor;
            m_growthTracker = 0;
        } else if (++m_growthTracker >= m_options.growthInterval) {
            m_scale *= m_options.growthFactor;
            m_growthTracker = 0;
        }
    }
    outcome.scaleAfter = m_scale;
    return outcome;
}

std::string GradScaler::describeSkip(const StepOutcome& outcome, long long iteration, int epoch) {
    char line[300];
    if (outcome.scaleAfter != outcome.scaleBefore)
        std::snprintf(
            line, sizeof line,
            "AMP: skipped the optimiser step at iteration %lld (epoch %d): the gradients hold inf/nan "
            "(fp16 overflow); loss scale %g -> %g",
            iteration, epoch, outcome.scaleBefore, outcome.scaleAfter);
    else
        std::snprintf(
            line, sizeof line,
            "skipped the optimiser step at iteration %lld (epoch %d): the gradients hold inf/nan; the "
            "weights are unchanged",
            iteration, epoch);
    return line;
}

} // namespace osprey::train
