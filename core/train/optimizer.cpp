#include "train/optimizer_impl.h"

#include <sstream>

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

RecipeOptimizer::RecipeOptimizer(torch::nn::Module& model, const OptimizerChoice& choice, double weightDecay)
    : m_kind(choice.kind), m_initialLr(choice.lr), m_groups(splitParameters(model)) {
    const std::vector<std::pair<std::vector<torch::Tensor>*, double>> layout{
        {&m_groups.weights, weightDecay}, {&m_groups.norms, 0.0}, {&m_groups.biases, 0.0}};
    if (m_kind == run::OptimizerKind::AdamW) {
        std::vector<torch::optim::OptimizerParamGroup> groups;
        for (const auto& [params, decay] : layout) {
            auto options = std::make_unique<torch::optim::AdamWOptions>(choice.lr);
            options->betas({choice.momentum, 0.999}).weight_decay(decay);
            groups.emplace_back(*params, std::move(options));
        }
        m_optimizer =
            std::make_unique<torch::optim::AdamW>(std::move(groups), torch::optim::AdamWOptions(choice.lr));
    } else {
        std::vector<torch::optim::OptimizerParamGroup> groups;
        for (const auto& [params, decay] : layout) {
            auto options = std::make_unique<torch::optim::SGDOptions>(choice.lr);
            options->momentum(choice.momentum).nesterov(true).weight_decay(decay);
            groups.emplace_back(*params, std::move(options));
        }
        m_optimizer = std::make_unique<torch::optim::SGD>(
            std::move(groups), torch::optim::SGDOptions(choice.lr).momentum(choice.momentum).nesterov(true));
    }
}

double RecipeOptimizer::lr(int group) const {
    return m_optimizer->param_groups()[static_cast<size_t>(group)].options().get_lr();
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
    static_cast<torch::optim::SGDOptions&>(options).momentum(momentum);
}

std::vector<torch::Tensor> RecipeOptimizer::parameters() const {
    std::vector<torch::Tensor> all = m_groups.weights;
    all.insert(all.end(), m_groups.norms.begin(), m_groups.norms.end());
    all.insert(all.end(), m_groups.biases.begin(), m_groups.biases.end());
    return all;
}

std::string RecipeOptimizer::describe() const {
    std::ostringstream out;
    out << (m_kind == run::OptimizerKind::AdamW ? "AdamW" : "SGD") << "(lr=" << m_initialLr
        << ") with parameter groups " << m_groups.weights.size() << " weight(decay), "
        << m_groups.norms.size() << " weight(decay=0.0), " << m_groups.biases.size() << " bias(decay=0.0)";
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
