#include "train/criterion_impl.h"

namespace osprey::train {

namespace {

/// Per-level maps [B, 4 + nc, H, W] of a reg_max 1 head -> the branch's boxes [B, 4, A] and logits [B, nc,
/// A].
HeadBranchOutput concatLevels(const std::vector<torch::Tensor>& maps) {
    std::vector<torch::Tensor> flat;
    flat.reserve(maps.size());
    for (const auto& map : maps)
        flat.push_back(map.flatten(2));
    const auto all = torch::cat(flat, 2);
    // split, not two narrows: its backward concatenates the two gradients, where each narrow's backward
    // zero-fills a whole [B, 4 + nc, A] tensor and the two are added.
    const auto parts = all.split_with_sizes({4, all.size(1) - 4}, 1);
    return {parts[0], parts[1]};
}

} // namespace

Criterion::Criterion(model::DetectionModel& network, int epochs, LossGains gains)
    : m_numClasses(network.numClasses()), m_strides(network.strides()) {
    auto& head = network.head();
    if (head.endToEnd())
        m_endToEnd.emplace(m_numClasses, epochs, gains);
    else
        m_detection.emplace(m_numClasses, m_strides, gains, head.regMax());
}

model::HeadMaps Criterion::forward(model::DetectionModel& network, const torch::Tensor& images,
                                   bool lowerPrecision) const {
    model::HeadMaps maps;
    if (m_endToEnd)
        maps = network.forwardHeads(images);
    else
        maps.oneToMany = network.forwardRaw(images);
    if (lowerPrecision) // the loss in float32, as under torch.autocast
        for (auto* branch : {&maps.oneToMany, &maps.oneToOne})
            for (auto& map : *branch)
                map = map.to(torch::kFloat);
    return maps;
}

LossValue Criterion::operator()(const model::HeadMaps& maps, const BatchTargets& targets) const {
    if (m_detection)
        return (*m_detection)(maps.oneToMany, targets);
    const auto [points, strides] = model::makeAnchors(maps.oneToMany, m_strides);
    AnchorGrid grid{points, strides, static_cast<int>(maps.oneToMany.front().size(2)) * m_strides.front(),
                    static_cast<int>(maps.oneToMany.front().size(3)) * m_strides.front()};
    const auto value =
        (*m_endToEnd)(concatLevels(maps.oneToMany), concatLevels(maps.oneToOne), grid, targets);
    return {value.total, value.oneToOne.parts};
}

void Criterion::setCompletedEpochs(int completedEpochs) {
    if (m_endToEnd)
        m_endToEnd->setCompletedEpochs(completedEpochs);
}

std::pair<double, double> Criterion::branchWeights() const {
    if (!m_endToEnd)
        return {1.0, 0.0};
    return {m_endToEnd->oneToManyWeight(), m_endToEnd->oneToOneWeight()};
}

} // namespace osprey::train
