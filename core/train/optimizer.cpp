#include "train/optimizer_impl.h"

#include "train/mu_sgd_impl.h"

#include <sstream>
#include <tuple>

namespace osprey::train {

namespace {

void collect(torch::nn::Module& module, ParamGroups& groups) {
    const bool isNorm = dynamic_cast<torch::nn::BatchNorm2dImpl*>(&module) != nullptr;
    for (const auto& item : module.named_parameters(/*recurse=*/false)) {
        if (!item.value().requires_grad())
            continue;
        if (item.key().find("bias") != std::string::npos)
            groups.biases.push_back(item.value());
        else if (isNorm)
            groups.norms.push_back(item.value());
        else
            groups.weights.push_back(item.value());
    }
    for (const auto& child : module.children())
        collect(*child, groups);
}

} // namespace

ParamGroups splitParameters(torch::nn::Module& model) {
    ParamGroups groups;
    collect(model, groups);
    return groups;
}

RecipeOptimizer::RecipeOptimizer(torch::nn::Module& model, const OptimizerChoice& choice, double weightDecay,
                                 const std::vector<std::string>& boostedModules)
    : m_kind(choice.kind), m_initialLr(choice.lr) {
    std::vector<torch::optim::OptimizerParamGroup> groups;
    if (m_kind == run::OptimizerKind::MuSgd) {
        const auto muon = muSgdGroups(model, boostedModules, choice.lr, weightDecay);
        for (const auto& group : muon) {
            const ParamGroup role = group.role == MuSgdGroup::Role::Norm   ? kNormGroup
                                    : group.role == MuSgdGroup::Role::Bias ? kBiasGroup
                                                                           : kWeightsGroup;
            m_layout.push_back({role, group.lr / choice.lr});
            m_counts[role] += static_cast<int>(group.params.size());
            m_parameters.insert(m_parameters.end(), group.params.begin(), group.params.end());
        }
        m_optimizer = std::make_unique<MuSgd>(toParamGroups(muon, choice.momentum), MuSgdOptions(choice.lr));
        return;
    }
    ParamGroups split = splitParameters(model);
    const std::vector<std::tuple<ParamGroup, std::vector<torch::Tensor>*, double>> layout{
        {kWeightsGroup, &split.weights, weightDecay},
        {kNormGroup, &split.norms, 0.0},
        {kBiasGroup, &split.biases, 0.0}};
    for (const auto& [role, params, decay] : layout) {
        m_layout.push_back({role, 1.0});
        m_counts[role] = static_cast<int>(params->size());
        m_parameters.insert(m_parameters.end(), params->begin(), params->end());
        if (m_kind == run::OptimizerKind::AdamW) {
            auto options = std::make_unique<torch::optim::AdamWOptions>(choice.lr);
            options->betas({choice.momentum, 0.999}).weight_decay(decay);
            groups.emplace_back(*params, std::move(options));
        } else {
            auto options = std::make_unique<torch::optim::SGDOptions>(choice.lr);
            options->momentum(choice.momentum).nesterov(true).weight_decay(decay);
            groups.emplace_back(*params, std::move(options));
        }
    }
    if (m_kind == run::OptimizerKind::AdamW)
        m_optimizer =
            std::make_unique<torch::optim::AdamW>(std::move(groups), torch::optim::AdamWOptions(choice.lr));
    else
        m_optimizer = std::make_unique<torch::optim::SGD>(
            std::move(groups), torch::optim::SGDOptions(choice.lr).momentum(choice.momentum).nesterov(true));
}

double RecipeOptimizer::initialLr(int group) const {
    return m_initialLr * m_layout[static_cast<size_t>(group)].lrFactor;
}

bool RecipeOptimizer::isBiasGroup(int group) const {
    return m_layout[static_cast<size_t>(group)].role == kBiasGroup;
}

double RecipeOptimizer::lr(int group) const {
    return m_optimizer->param_groups()[static_cast<size_t>(group)].options().get_lr();
}

double RecipeOptimizer::roleLr(ParamGroup role) const {
    // The last group of the role: MuSGD puts each role's x3 group first and its plain group after it.
    double value = 0;
    for (size_t i = 0; i < m_layout.size(); ++i)
        if (m_layout[i].role == role && m_layout[i].lrFactor == 1.0)
            value = lr(static_cast<int>(i));
    return value;
}

void RecipeOptimizer::setLr(int group, double lr) {
    m_optimizer->param_groups()[static_cast<size_t>(group)].options().set_lr(lr);
}

void RecipeOptimizer::setMomentum(int group, double momentum) {
    auto& options = m_optimizer->param_groups()[static_cast<size_t>(group)].options();
    if (m_kind == run::OptimizerKind::AdamW) {
        // Ultralytics ramps only SGD's momentum; Adam-style groups have betas and keep beta1.
        return;
    }
    if (m_kind == run::OptimizerKind::MuSgd)
        static_cast<MuSgdOptions&>(options).momentum(momentum);
    else
        static_cast<torch::optim::SGDOptions&>(options).momentum(momentum);
}

std::vector<torch::Tensor> RecipeOptimizer::parameters() const {
    return m_parameters;
}

std::string RecipeOptimizer::describe() const {
    std::ostringstream out;
    out << toString(m_kind) << "(lr=" << m_initialLr << ") with parameter groups " << m_counts[kWeightsGroup]
        << (m_kind == run::OptimizerKind::MuSgd ? " weight(decay, Muon)" : " weight(decay)") << ", "
        << m_counts[kNormGroup] << " weight(decay=0.0), " << m_counts[kBiasGroup] << " bias(decay=0.0)";
    if (m_kind == run::OptimizerKind::MuSgd)
        out << "; the class branches at lr x3";
    return out.str();
}

ModelEma::ModelEma(std::shared_ptr<torch::nn::Module> ema,
                   const std::vector<std::pair<std::string, torch::Tensor>>& emaState,
                   const std::vector<std::pair<std::string, torch::Tensor>>& sourceState)
    : m_ema(std::move(ema)) {
    torch::NoGradGuard noGrad;
    for (size_t i = 0; i < emaState.size() && i < sourceState.size(); ++i) {
        auto target = emaState[i].second;
        const auto& source = sourceState[i].second;
        target.copy_(source);
        if (target.is_floating_point()) {
            m_target.push_back(target);
            m_source.push_back(source);
        }
    }
    for (auto& parameter : m_ema->parameters())
        parameter.set_requires_grad(false);
    m_ema->eval();
}

void ModelEma::update() {
    torch::NoGradGuard noGrad;
    ++m_updates;
    const double decay = emaDecay(m_updates);
    at::_foreach_mul_(m_target, decay);
    at::_foreach_add_(m_target, m_source, 1.0 - decay);
}

} // namespace osprey::train
