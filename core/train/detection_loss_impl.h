#pragma once
// Private to core/train: the YOLOv8 detection loss (Ultralytics v8DetectionLoss): the Task-Aligned
// Assigner, BCE class loss, CIoU box loss and DFL, with the recipe's gains. Thread-safe for distinct
// inputs; holds no state besides its settings.

#include "train/assigner_impl.h"

#include <torch/torch.h>

#include <vector>

namespace osprey::train {

struct LossGains {
    double box = 7.5;
    double cls = 0.5;
    double dfl = 1.5;
};

/// The loss of one batch.
struct LossValue {
    torch::Tensor total; ///< scalar with gradient: (box + cls + dfl) x batch size
    torch::Tensor parts; ///< [3] detached: box, cls, dfl after the gains, before the batch factor
};

/// Ground truth of a batch laid out for the assigner: per image up to M boxes, padded with zeros.
struct BatchTargets {
    torch::Tensor labels; ///< [B, M, 1] float class ids
    torch::Tensor boxes;  ///< [B, M, 4] xyxy pixels
    torch::Tensor mask;   ///< [B, M, 1] float: 1 for a real box
};

/// Per-box rows [N, 6] (image index, class, x1, y1, x2, y2) -> BatchTargets for `batchSize` images.
BatchTargets padTargets(const torch::Tensor& rows, int batchSize);

/// DFL of predicted bin logits [N, reg_max] against continuous targets [N] in bins: two-bin cross-entropy,
/// linearly weighted between the left and right bins. Returns [N].
torch::Tensor distributionFocalLoss(const torch::Tensor& logits, const torch::Tensor& targets);

class DetectionLoss {
public:
    /// `assigner`: the Task-Aligned Assigner's settings (the default is YOLOv8/YOLO11's plain TAL, without
    /// the STAL of Ultralytics 8.4).
    DetectionLoss(int numClasses, std::vector<int> strides, LossGains gains = {}, int regMax = 16,
                  AssignerOptions assigner = {});

    /// `raw`: the per-level head maps [B, 4*reg_max + nc, H, W]; `targets`: see padTargets.
    LossValue operator()(const std::vector<torch::Tensor>& raw, const BatchTargets& targets) const;

private:
    int m_numClasses;
    std::vector<int> m_strides;
    LossGains m_gains;
    int m_regMax;
    AssignerOptions m_assigner;
};

} // namespace osprey::train
