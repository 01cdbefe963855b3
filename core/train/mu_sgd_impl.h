#pragma once
// Private to core/train: MuSGD, YOLO26's optimiser (Ultralytics 8.4.190 ultralytics/optim/muon.py and
// BaseTrainer.build_optimizer; spec yolo26 §5). A parameter group with useMuon gets a Muon step (Nesterov
// momentum, then Newton-Schulz orthogonalisation in bfloat16) scaled by 0.2, followed by a Nesterov SGD step
// scaled by 1.0 on the already-updated weights; other groups get the SGD step alone. Use from the training
// thread only.

#include <torch/torch.h>

#include <string>
#include <vector>

namespace osprey::train {

/// A group's settings. `lr` is the group's full rate (the class branches' x3 included).
struct MuSgdOptions : public torch::optim::OptimizerCloneableOptions<MuSgdOptions> {
    MuSgdOptions(
        double lr = 0.01); // NOLINT(google-explicit-constructor): LibTorch's loader builds one from 0
    TORCH_ARG(double, lr);
    TORCH_ARG(double, momentum) = 0;
    TORCH_ARG(double, weightDecay) = 0;
    TORCH_ARG(bool, nesterov) = true;
    TORCH_ARG(bool, useMuon) = false;

public:
    void serialize(torch::serialize::InputArchive& archive) override;
    void serialize(torch::serialize::OutputArchive& archive) const override;
    double get_lr() const override { return lr(); }
    void set_lr(const double value) override { lr(value); }
};

/// Per-parameter state, named as in Ultralytics' state dict: `momentum_buffer` (Muon's in a Muon group, SGD's
/// otherwise) and `momentum_buffer_SGD` (a Muon group's SGD momentum).
struct MuSgdParamState : public torch::optim::OptimizerCloneableParamState<MuSgdParamState> {
    TORCH_ARG(torch::Tensor, momentumBuffer);
    TORCH_ARG(torch::Tensor, momentumBufferSgd);

public:
    void serialize(torch::serialize::InputArchive& archive) override;
    void serialize(torch::serialize::OutputArchive& archive) const override;
};

class MuSgd : public torch::optim::Optimizer {
public:
    /// The trainer's factors: Muon's step x 0.2, SGD's x 1.0 (the class's own defaults, 0.5/0.5, are unused).
    static constexpr double kMuonScale = 0.2;
    static constexpr double kSgdScale = 1.0;

    explicit MuSgd(std::vector<torch::optim::OptimizerParamGroup> groups,
                   MuSgdOptions defaults = MuSgdOptions(0.01));

    /// One step over every parameter with a gradient (parameters without one are skipped, their state
    /// untouched). `closure` is evaluated first when given.
    torch::Tensor step(LossClosure closure = nullptr) override;

    /// Both momentum buffers of every parameter, keyed by group and position as LibTorch's own optimisers
    /// do, so that a resumed run built with the same groups continues exactly.
    void save(torch::serialize::OutputArchive& archive) const override;
    void load(torch::serialize::InputArchive& archive) override;

    /// The state of `param` (one of the optimiser's), or null before its first step.
    const MuSgdParamState* paramState(const torch::Tensor& param) const;
};

/// Newton-Schulz orthogonalisation, 5 quintic steps with (3.4445, -4.7750, 2.0315), in bfloat16: the input
/// [rows, cols] or a batch [n, rows, cols] is normalised by its Frobenius norm (+1e-7) and transposed while
/// rows > cols. Every op accumulates in float32 and rounds its result to bfloat16, as LibTorch 2 does (with
/// LibTorch 1.x, whose bfloat16 matmul is less exact, in float32 arithmetic rounded after each op). Returns
/// bfloat16 of the input's shape.
torch::Tensor newtonSchulz5(const torch::Tensor& matrices);

/// Muon's update of each gradient [out, ...] (2-D or more) with its momentum buffer (updated in place):
/// m = beta m + (1 - beta) g; u = beta m + (1 - beta) g with Nesterov, else m; u as a matrix [out, rest]
/// orthogonalised by newtonSchulz5 and scaled by sqrt(max(1, rows / cols)) of the gradient's last two
/// dimensions. Matrices with the same column count and scale go through one batched call, zero-padded to the
/// most rows of their batch (a batch spans at most 16x in rows), as Ultralytics 8.4.190 batches them, so that
/// the bfloat16 rounding is the same. Returns updates of the gradients' shapes and dtype.
std::vector<torch::Tensor> muonUpdates(const std::vector<torch::Tensor>& grads,
                                       const std::vector<torch::Tensor>& momentumBuffers, double beta,
                                       bool nesterov);

/// What a parameter group of YOLO26's MuSGD holds, before the optimiser is built.
struct MuSgdGroup {
    enum class Role { Weight, Norm, Bias, Muon };
    Role role{};
    bool boosted = false; ///< one of the head's class branches: lr x 3
    std::vector<std::string> names;
    std::vector<torch::Tensor> params;
    double lr = 0;
    double weightDecay = 0; ///< Weight and Muon groups: the scaled decay; Norm and Bias: 0
};

/// Ultralytics 8.4.190's MuSGD groups for `model`, in its order [weight x3, weight, norm x3, norm, bias x3,
/// bias, muon x3, muon] (empty groups included): walking the modules depth-first, a parameter of 2 or 4
/// dimensions goes to Muon, else a name containing "bias" to Bias, else a normalisation layer's to Norm,
/// else to Weight. Parameters under the module paths in `boostedModules` (the head's class branches,
/// e.g. "model.23.cv3" and "model.23.one2one_cv3") go to the x3 group of their kind. `weightDecay` is
/// already scaled (scaledWeightDecay).
std::vector<MuSgdGroup> muSgdGroups(torch::nn::Module& model, const std::vector<std::string>& boostedModules,
                                    double lr, double weightDecay);

/// The groups as LibTorch parameter groups with `momentum`, Nesterov, and useMuon for the Muon groups.
std::vector<torch::optim::OptimizerParamGroup> toParamGroups(const std::vector<MuSgdGroup>& groups,
                                                             double momentum);

} // namespace osprey::train
