#include "train/end_to_end_loss_impl.h"

#include <algorithm>

namespace osprey::train {

namespace {

constexpr double kOneToManyFirstWeight = 0.8;
constexpr double kOneToManyLastWeight = 0.1;
constexpr int kOneToManyTopk = 10;
constexpr int kOneToOneTopk = 7;
constexpr int kOneToOneTopk2 = 1;
/// Ultralytics 8.4.190's STAL side: 8.4.0 to 8.4.1xx widened sides below stride 8 to 16, which made a
/// 7.9-px side larger than an 8.1-px one; 8.4.190 widens everything below 16.
constexpr double kStalMinSidePx = 16.0;

} // namespace

EndToEndLoss::EndToEndLoss(int numClasses, int epochs, LossGains gains)
    : m_numClasses(numClasses), m_epochs(epochs), m_gains(gains) {}

double EndToEndLoss::oneToManyWeight(int completedEpochs, int epochs) {
    const double progress = static_cast<double>(completedEpochs) / std::max(epochs - 1, 1);
    return std::max(1.0 - progress, 0.0) * (kOneToManyFirstWeight - kOneToManyLastWeight) +
           kOneToManyLastWeight;
}

double EndToEndLoss::oneToOneWeight(int completedEpochs, int epochs) {
    return std::max(1.0 - oneToManyWeight(completedEpochs, epochs), 0.0);
}

AssignerOptions EndToEndLoss::oneToManyAssigner() {
    AssignerOptions options;
    options.topk = kOneToManyTopk;
    options.stalMinSide = kStalMinSidePx;
    return options;
}

AssignerOptions EndToEndLoss::oneToOneAssigner() {
    AssignerOptions options;
    options.topk = kOneToOneTopk;
    options.topk2 = kOneToOneTopk2;
    options.stalMinSide = kStalMinSidePx;
    return options;
}

LossValue EndToEndLoss::branchLoss(const HeadBranchOutput& branch, const AnchorGrid& grid,
                                   const BatchTargets& targets, const AssignerOptions& assigner) const {
    const auto batch = branch.boxes.size(0);
    const auto predDistances = branch.boxes.permute({0, 2, 1}).contiguous().to(torch::kFloat); // [B, A, 4]
    const auto predScores = branch.scores.permute({0, 2, 1}).contiguous().to(torch::kFloat);   // [B, A, nc]
    const auto anchors = grid.points.to(torch::kFloat);
    const auto strides = grid.strides.to(torch::kFloat);
    const auto predBoxes = distancesToBoxes(predDistances, anchors); // xyxy, grid units

    const auto assignment =
        taskAlignedAssign(predScores.detach().sigmoid(), predBoxes.detach() * strides, anchors * strides,
                          targets.labels, targets.boxes, targets.mask, m_numClasses, assigner);
    const auto targetScores = assignment.targetScores;
    // Kept on the device (no host sync); an empty foreground gives zero box and L1 losses.
    const auto scoreSum = targetScores.sum().clamp_min(1.0);

    const auto clsLoss =
        torch::binary_cross_entropy_with_logits(predScores, targetScores, {}, {}, at::Reduction::Sum) /
        scoreSum;
    const auto foreground = assignment.foreground;
    const auto targetBoxes = assignment.targetBoxes / strides;
    const auto weight = targetScores.sum(-1).index({foreground}).unsqueeze(-1);
    const auto iou = ciou(predBoxes.index({foreground}), targetBoxes.index({foreground})).unsqueeze(-1);
    const auto boxLoss = ((1.0 - iou) * weight).sum() / scoreSum;
    // L1 on ltrb in pixels over the image's width (l, r) and height (t, b); the target is not clamped.
    const auto corners = targetBoxes.chunk(2, -1);
    const auto targetDistances = torch::cat({anchors - corners[0], corners[1] - anchors}, -1);
    const float width = static_cast<float>(grid.widthPx), height = static_cast<float>(grid.heightPx);
    const auto imageSize = torch::tensor({width, height, width, height}, predScores.options());
    const auto predNorm = (predDistances * strides / imageSize).index({foreground});
    const auto targetNorm = (targetDistances * strides / imageSize).index({foreground});
    const auto l1Loss = ((predNorm - targetNorm).abs().mean(-1, true) * weight).sum() / scoreSum;
    const auto parts = torch::stack({boxLoss * m_gains.box, clsLoss * m_gains.cls, l1Loss * m_gains.dfl});
    return {parts.sum() * static_cast<double>(batch), parts.detach()};
}

EndToEndLossValue EndToEndLoss::operator()(const HeadBranchOutput& oneToMany,
                                           const HeadBranchOutput& oneToOne, const AnchorGrid& grid,
                                           const BatchTargets& targets) const {
    EndToEndLossValue value;
    value.oneToMany = branchLoss(oneToMany, grid, targets, oneToManyAssigner());
    value.oneToOne = branchLoss(oneToOne, grid, targets, oneToOneAssigner());
    value.total = value.oneToMany.total * oneToManyWeight() + value.oneToOne.total * oneToOneWeight();
    return value;
}

} // namespace osprey::train
