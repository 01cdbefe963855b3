#include "train/detection_loss_impl.h"

#include "model/detector_torch_impl.h"

#include <algorithm>

namespace osprey::train {

BatchTargets padTargets(const torch::Tensor& rows, int batchSize) {
    const auto options = torch::TensorOptions(torch::kFloat).device(rows.device());
    BatchTargets out;
    if (rows.size(0) == 0) {
        out.labels = torch::zeros({batchSize, 0, 1}, options);
        out.boxes = torch::zeros({batchSize, 0, 4}, options);
        out.mask = torch::zeros({batchSize, 0, 1}, options);
        return out;
    }
    const auto cpuRows = rows.to(torch::kCPU, torch::kFloat).contiguous();
    const auto imageIndex = cpuRows.select(1, 0).to(torch::kLong);
    const auto counts = torch::bincount(imageIndex, {}, batchSize);
    const int maxBoxes = counts.max().item<int>();
    auto labels = torch::zeros({batchSize, maxBoxes, 1});
    auto boxes = torch::zeros({batchSize, maxBoxes, 4});
    auto mask = torch::zeros({batchSize, maxBoxes, 1});
    const auto* data = cpuRows.data_ptr<float>();
    auto labelAccess = labels.accessor<float, 3>();
    auto boxAccess = boxes.accessor<float, 3>();
    auto maskAccess = mask.accessor<float, 3>();
    std::vector<int> fill(static_cast<size_t>(batchSize), 0);
    for (int64_t i = 0; i < cpuRows.size(0); ++i) {
        const float* row = data + i * 6;
        const int image = static_cast<int>(row[0]);
        const int slot = fill[static_cast<size_t>(image)]++;
        labelAccess[image][slot][0] = row[1];
        for (int c = 0; c < 4; ++c)
            boxAccess[image][slot][c] = row[2 + c];
        maskAccess[image][slot][0] = 1;
    }
    out.labels = labels.to(rows.device());
    out.boxes = boxes.to(rows.device());
    out.mask = mask.to(rows.device());
    return out;
}

torch::Tensor distributionFocalLoss(const torch::Tensor& logits, const torch::Tensor& targets) {
    const auto left = targets.to(torch::kLong);
    const auto right = left + 1;
    const auto leftWeight = right.to(targets.scalar_type()) - targets;
    const auto rightWeight = 1 - leftWeight;
    namespace F = torch::nn::functional;
    const auto options = F::CrossEntropyFuncOptions().reduction(torch::kNone);
    return F::cross_entropy(logits, left, options) * leftWeight +
           F::cross_entropy(logits, right, options) * rightWeight;
}

DetectionLoss::DetectionLoss(int numClasses, std::vector<int> strides, LossGains gains, int regMax,
                             AssignerOptions assigner)
    : m_numClasses(numClasses), m_strides(std::move(strides)), m_gains(gains), m_regMax(regMax),
      m_assigner(assigner) {}

LossValue DetectionLoss::operator()(const std::vector<torch::Tensor>& raw,
                                    const BatchTargets& targets) const {
    const auto batch = raw[0].size(0);
    const int outputs = 4 * m_regMax + m_numClasses;
    std::vector<torch::Tensor> flat;
    for (const auto& map : raw)
        flat.push_back(map.view({batch, outputs, -1}));
    const auto all = torch::cat(flat, 2).to(torch::kFloat);
    const auto split = all.split_with_sizes({4 * m_regMax, m_numClasses}, 1);
    const auto predDist = split[0].permute({0, 2, 1}).contiguous();   // [B, A, 64]
    const auto predScores = split[1].permute({0, 2, 1}).contiguous(); // [B, A, nc]
    const auto anchorCount = predDist.size(1);

    auto [anchors, strideColumn] = model::makeAnchors(raw, m_strides, 0.5);
    anchors = anchors.to(torch::kFloat);
    strideColumn = strideColumn.to(torch::kFloat);
    const auto project = torch::arange(m_regMax, predDist.options());
    const auto predDistances =
        predDist.view({batch, anchorCount, 4, m_regMax}).softmax(3).matmul(project); // [B, A, 4] grid units
    const auto predBoxes = distancesToBoxes(predDistances, anchors);                 // xyxy grid units

    const auto assignment = taskAlignedAssign(
        predScores.detach().sigmoid(), predBoxes.detach() * strideColumn, anchors * strideColumn,
        targets.labels, targets.boxes, targets.mask, m_numClasses, m_assigner);
    const auto targetScores = assignment.targetScores;
    const auto scoreSum = std::max(targetScores.sum().item<double>(), 1.0);

    const auto clsLoss =
        torch::binary_cross_entropy_with_logits(predScores, targetScores, {}, {}, at::Reduction::Sum) /
        scoreSum;
    auto boxLoss = torch::zeros({}, all.options());
    auto dflLoss = torch::zeros({}, all.options());
    const auto foreground = assignment.foreground;
    if (foreground.any().item<bool>()) {
        const auto targetBoxes = assignment.targetBoxes / strideColumn;
        const auto weight = targetScores.sum(-1).index({foreground}).unsqueeze(-1);
        const auto iou = ciou(predBoxes.index({foreground}), targetBoxes.index({foreground})).unsqueeze(-1);
        boxLoss = ((1.0 - iou) * weight).sum() / scoreSum;
        const auto targetDistances = boxesToDistances(anchors, targetBoxes, m_regMax - 1).index({foreground});
        const auto dfl = distributionFocalLoss(predDist.index({foreground}).view({-1, m_regMax}),
                                               targetDistances.reshape({-1}))
                             .view({-1, 4})
                             .mean(-1, true);
        dflLoss = (dfl * weight).sum() / scoreSum;
    }
    const auto parts = torch::stack({boxLoss * m_gains.box, clsLoss * m_gains.cls, dflLoss * m_gains.dfl});
    return {parts.sum() * static_cast<double>(batch), parts.detach()};
}

} // namespace osprey::train
