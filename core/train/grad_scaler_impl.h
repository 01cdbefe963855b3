#pragma once
// Private to core/train: mixed precision. choosePrecision picks bf16 autocast, fp16 autocast with a
// dynamic loss scaler, or float32; GradScaler is that loss scaler (torch.cuda.amp.GradScaler's rules).
// Every optimiser step goes through GradScaler::step, which also skips a step whose gradients are not
// finite, in any precision (an fp16 overflow, or a diverging batch that would ruin the weights).
// Thread affinity: the training thread.

#include <torch/torch.h>

#include <string>
#include <vector>

namespace osprey::train {

enum class Precision { Float32, BFloat16, Float16 };

/// "float32", "bf16", "fp16".
const char* toString(Precision precision);

/// The precision of a run: float32 without amp; bf16 where the device computes it fast (GPUs of Ampere
/// and newer; CPUs with AMX or AVX512-BF16 under LibTorch 2.x); otherwise fp16 with the loss scaler on a
/// GPU and float32 on the CPU.
Precision choosePrecision(bool amp, bool cuda, bool fastBFloat16);

/// Whether `device` computes bfloat16 fast enough to train in it (see choosePrecision).
bool fastBFloat16(const torch::Device& device);

/// The autocast dtype of a precision (float32: none, kFloat).
at::ScalarType autocastType(Precision precision);

struct GradScalerOptions {
    double initScale = 65536.0; ///< 2^16, as torch
    double growthFactor = 2.0;  ///< after `growthInterval` finite steps in a row
    double backoffFactor = 0.5; ///< after a step with inf/nan gradients
    int growthInterval = 2000;  ///< finite steps before the scale grows
};

/// What one call of GradScaler::step did.
struct StepOutcome {
    bool stepped = false;   ///< false: gradients were inf/nan, the optimiser step was skipped
    double gradNorm = 0;    ///< total gradient norm after unscaling, before clipping (inf/nan when skipped)
    double scaleBefore = 1; ///< loss scale the gradients were computed with
    double scaleAfter = 1;  ///< loss scale for the next step
};

class GradScaler {
public:
    /// Disabled (float32, bf16): scale 1, no unscaling, no scale updates; non-finite steps are still skipped.
    explicit GradScaler(bool enabled, GradScalerOptions options = {});

    bool enabled() const { return m_enabled; }
    double scale() const { return m_scale; }

    /// The loss to call backward() on: multiplied by the scale when enabled.
    torch::Tensor scaleLoss(const torch::Tensor& loss) const;

    /// Unscales the gradients of `parameters`, clips their total norm to `maxNorm`, steps `optimizer`
    /// when the norm is finite, and updates the scale. Gradients are left for the caller to zero.
    StepOutcome step(torch::optim::Optimizer& optimizer, const std::vector<torch::Tensor>& parameters,
                     double maxNorm);

    /// One log line about a skipped step, e.g. "AMP: skipped the optimiser step at iteration 12 ...".
    static std::string describeSkip(const StepOutcome& outcome, long long iteration, int epoch);

private:
    bool m_enabled;
    GradScalerOptions m_options;
    double m_scale;
    int m_growthTracker = 0;
};

} // namespace osprey::train
