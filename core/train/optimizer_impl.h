#pragma once
// Private to core/train: the recipe's optimiser (three parameter groups, SGD Nesterov or AdamW) with
// per-group lr and momentum control for warmup and the schedule, and the model EMA. Used from the
// training thread only.

#include "train/schedule.h"

#include <torch/torch.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace osprey::train {

/// Index of each parameter group in the optimiser (results.csv lr/pg0, lr/pg1, lr/pg2).
enum ParamGroup : int {
    kWeightsGroup = 0, ///< convolution (and other) weights, with weight decay
    kNormGroup = 1,    ///< BatchNorm weights, no decay
    kBiasGroup = 2,    ///< all biases, no decay; warmup starts its lr at warmup_bias_lr
};

/// Trainable parameters split as the recipe says. Parameters without gradients (the DFL conv) are left out.
struct ParamGroups {
    std::vector<torch::Tensor> weights, norms, biases;
};
ParamGroups splitParameters(torch::nn::Module& model);

/// One optimiser with the three groups; lr, momentum and weight decay as chosen by the recipe.
class RecipeOptimizer {
public:
    RecipeOptimizer(torch::nn::Module& model, const OptimizerChoice& choice, double weightDecay);

    torch::optim::Optimizer& get() { return *m_optimizer; }
    run::OptimizerKind kind() const { return m_kind; }
    /// The lr the schedule starts from (Ultralytics' initial_lr), the same for every group.
    double initialLr() const { return m_initialLr; }
    double lr(int group) const;
    void setLr(int group, double lr);
    /// SGD momentum or AdamW beta1.
    void setMomentum(int group, double momentum);
    std::vector<torch::Tensor> parameters() const;
    /// Group sizes, for the log: weights, norms, biases.
    std::string describe() const;

private:
    run::OptimizerKind m_kind;
    double m_initialLr;
    std::unique_ptr<torch::optim::Optimizer> m_optimizer;
    ParamGroups m_groups;
};

/// Exponential moving average of a model's floating-point state (parameters and BatchNorm statistics),
/// decay 0.9999 * (1 - exp(-updates / 2000)).
class ModelEma {
public:
    /// `ema` must have the same architecture as the models later passed to update(); it is overwritten
    /// with `source`'s state.
    ModelEma(std::shared_ptr<torch::nn::Module> ema,
             const std::vector<std::pair<std::string, torch::Tensor>>& emaState,
             const std::vector<std::pair<std::string, torch::Tensor>>& sourceState);
    void update();
    long long updates() const { return m_updates; }
    void setUpdates(long long updates) { m_updates = updates; }

private:
    std::shared_ptr<torch::nn::Module> m_ema;
    std::vector<torch::Tensor> m_target, m_source;
    long long m_updates = 0;
};

} // namespace osprey::train
