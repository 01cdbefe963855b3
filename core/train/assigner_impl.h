#pragma once
// Private to core/train: the Task-Aligned Assigner and the box geometry the loss shares with it (CIoU,
// ltrb distances). All functions are batched tensor code without per-box loops; they run on the tensors'
// device and are thread-safe for distinct tensors.

#include <torch/torch.h>

namespace osprey::train {

/// Assigner settings (recipe: topk 10, alpha 0.5, beta 6).
struct AssignerOptions {
    int topk = 10;
    double alpha = 0.5;
    double beta = 6.0;
    double eps = 1e-9;
};

/// What the assigner decided for every anchor of every image.
struct Assignment {
    torch::Tensor targetBoxes;  ///< [B, A, 4] xyxy, same units as the GT boxes
    torch::Tensor targetScores; ///< [B, A, nc] one-hot x normalised alignment
    torch::Tensor foreground;   ///< [B, A] bool: the anchor has a target
    torch::Tensor targetIndex;  ///< [B, A] long: index of the assigned GT within its image
};

/// CIoU of paired xyxy boxes [..., 4] -> [...] (Ultralytics bbox_iou with CIoU=True, eps 1e-7).
torch::Tensor ciou(const torch::Tensor& box1, const torch::Tensor& box2, double eps = 1e-7);

/// Plain IoU of paired xyxy boxes [..., 4] -> [...].
torch::Tensor pairIou(const torch::Tensor& box1, const torch::Tensor& box2, double eps = 1e-7);

/// Distances from anchor points [A, 2] to the sides of xyxy boxes [..., A, 4] as ltrb, clamped to
/// [0, maxDistance - 0.01] (Ultralytics bbox2dist with reg_max - 1).
torch::Tensor boxesToDistances(const torch::Tensor& anchors, const torch::Tensor& boxes, double maxDistance);

/// ltrb distances [..., A, 4] around anchor points [A, 2] -> xyxy boxes [..., A, 4].
torch::Tensor distancesToBoxes(const torch::Tensor& distances, const torch::Tensor& anchors);

/// Assigns targets. Inputs: predicted class probabilities (after sigmoid) [B, A, nc], predicted xyxy boxes
/// [B, A, 4] in pixels, anchor points [A, 2] in pixels, GT labels [B, M, 1], GT xyxy boxes [B, M, 4] in
/// pixels and the mask of real (non-padding) GTs [B, M, 1]. Runs without gradients.
Assignment taskAlignedAssign(const torch::Tensor& predScores, const torch::Tensor& predBoxes,
                             const torch::Tensor& anchors, const torch::Tensor& gtLabels,
                             const torch::Tensor& gtBoxes, const torch::Tensor& gtMask, int numClasses,
                             const AssignerOptions& options = {});

} // namespace osprey::train
