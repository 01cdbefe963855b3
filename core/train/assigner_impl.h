#pragma once
// Private to core/train: the Task-Aligned Assigner and the box geometry the loss shares with it (CIoU,
// ltrb distances). All functions are batched tensor code without per-box loops; they run on the tensors'
// device and are thread-safe for distinct tensors.

#include <torch/torch.h>

namespace osprey::train {

/// Assigner settings (recipe: topk 10, alpha 0.5, beta 6). The defaults are YOLOv8/YOLO11's assigner;
/// YOLO26's one-to-one branch adds topk2 = 1 (topk 7) and both its branches add STAL (spec yolo26 §4).
struct AssignerOptions {
    int topk = 10;
    /// After an anchor claimed by several GTs has gone to one of them, each GT keeps only its `topk2`
    /// best-aligned positives (Ultralytics tal_topk2). 0 or equal to topk: off.
    int topk2 = 0;
    double alpha = 0.5;
    double beta = 6.0;
    double eps = 1e-9;
    /// STAL (small-target-aware assignment, Ultralytics 8.4.190): for the anchor-centre-inside-GT test
    /// only, a real GT's width or height below this many pixels is widened to it about the box centre.
    /// Targets, IoUs and losses keep the real box. 0: off.
    double stalMinSide = 0.0;
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
