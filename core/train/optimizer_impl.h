#pragma once
// Private to core/train: the recipe's optimiser (three parameter groups, SGD Nesterov or AdamW; YOLO26's
// MuSGD with Ultralytics' eight) with per-group lr and momentum control for warmup and the schedule, and the
// model EMA. Used from the training thread only.

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

/// One optimiser with the recipe's groups; lr, momentum and weight decay as chosen by the recipe. SGD and
/// AdamW have the three groups of ParamGroup. MuSGD has Ultralytics 8.4.190's eight, [weight x3, weight,
/// norm x3, norm, bias x3, bias, muon x3, muon] (the x3 groups: the parameters under `boostedModules`, the
/// head's class branches, at three times the lr; every 2-D and 4-D weight in a muon group).
class RecipeOptimizer {
public:
    RecipeOptimizer(torch::nn::Module& model, const OptimizerChoice& choice, double weightDecay,
                    const std::vector<std::string>& boostedModules = {});

    torch::optim::Optimizer& get() { return *m_optimizer; }
    run::OptimizerKind kind() const { return m_kind; }
    int groupCount() const { return static_cast<int>(m_layout.size()); }
    /// The lr group `group` starts its schedule from (Ultralytics' initial_lr: the chosen lr, x3 for the
    /// boosted groups).
    double initialLr(int group) const;
    /// Warmup starts a bias group's lr at warmup_bias_lr, the others' at 0.
    bool isBiasGroup(int group) const;
    double lr(int group) const;
    void setLr(int group, double lr);
    /// SGD momentum (MuSGD: both Muon's and SGD's beta) or AdamW beta1 (left alone: Ultralytics ramps only
    /// the momentum of optimisers that have one).
    void setMomentum(int group, double momentum);
    /// The current lr of the weight, norm and bias groups at the chosen lr (results.csv's lr/pg0..2; for
    /// MuSGD the muon group stands for the weights).
    double roleLr(ParamGroup role) const;
    std::vector<torch::Tensor> parameters() const;
    /// Group sizes, for the log: weights, norms, biases.
    std::string describe() const;

private:
    struct GroupInfo {
        ParamGroup role;
        double lrFactor = 1.0;
    };
    run::OptimizerKind m_kind;
    double m_initialLr;
    std::unique_ptr<torch::optim::Optimizer> m_optimizer;
    std::vector<GroupInfo> m_layout;
    std::vector<torch::Tensor> m_parameters;
    int m_counts[3] = {0, 0, 0}; ///< parameters per role, for describe()
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
