#pragma once
// Private to core/train: YOLO26's training loss (Ultralytics 8.4.190 E2ELoss, spec yolo26 §4). The head has
// two identical branches over the same anchors: one-to-many (trained as YOLOv8's, topk 10) and one-to-one
// (topk 7, then each GT keeps its single best anchor). Each branch's loss is BCE class loss, CIoU box loss
// and an L1 loss on image-normalised ltrb distances in the DFL slot (reg_max = 1: no DFL), with the recipe's
// gains; both assigners use STAL. The branches are mixed with weights that move from one-to-many to
// one-to-one over the epochs. Holds only its settings and the count of completed epochs; use from the
// training thread.

#include "train/assigner_impl.h"
#include "train/detection_loss_impl.h"

#include <torch/torch.h>

namespace osprey::train {

/// One head branch's raw training output, all levels concatenated along the anchors.
struct HeadBranchOutput {
    torch::Tensor boxes;  ///< [B, 4, A] raw ltrb distances from the anchor in grid units (the conv output)
    torch::Tensor scores; ///< [B, nc, A] class logits
};

/// The anchors both branches share and the size of the batch's images.
struct AnchorGrid {
    torch::Tensor points;  ///< [A, 2] anchor centres in grid units of their level (cell centres: +0.5)
    torch::Tensor strides; ///< [A, 1] stride of each anchor's level, pixels
    int heightPx = 0;      ///< the batch's image height (level 0's height x its stride)
    int widthPx = 0;       ///< the batch's image width
};

/// The loss of one batch.
struct EndToEndLossValue {
    /// Scalar with gradient: (w_o2m x one-to-many parts + w_o2o x one-to-one parts) x batch size, summed.
    torch::Tensor total;
    /// Each branch unweighted: total = sum(parts) x batch size (with gradient), parts [3] detached: box,
    /// cls, l1 after the gains. The log and results.csv show oneToOne.parts, as Ultralytics does.
    LossValue oneToMany;
    LossValue oneToOne;
};

class EndToEndLoss {
public:
    /// `epochs`: the run's epoch count, which sets how fast the weights move.
    EndToEndLoss(int numClasses, int epochs, LossGains gains = {});

    /// `targets` in pixels (padTargets). Both branches must be over `grid`'s anchors.
    EndToEndLossValue operator()(const HeadBranchOutput& oneToMany, const HeadBranchOutput& oneToOne,
                                 const AnchorGrid& grid, const BatchTargets& targets) const;

    /// One branch's loss under the given assigner (what operator() computes per branch).
    LossValue branchLoss(const HeadBranchOutput& branch, const AnchorGrid& grid, const BatchTargets& targets,
                         const AssignerOptions& assigner) const;

    /// Called at the end of every epoch: the next epoch trains with the next weights.
    void update() { ++m_completedEpochs; }
    /// Resume: the weights of the epoch that follows `completedEpochs` finished epochs.
    void setCompletedEpochs(int completedEpochs) { m_completedEpochs = completedEpochs; }
    int completedEpochs() const { return m_completedEpochs; }

    double oneToManyWeight() const { return oneToManyWeight(m_completedEpochs, m_epochs); }
    double oneToOneWeight() const { return oneToOneWeight(m_completedEpochs, m_epochs); }

    /// max(1 - u / max(E - 1, 1), 0) x (0.8 - 0.1) + 0.1 after u completed epochs of E: 0.8 in the first
    /// epoch, 0.1 in the last.
    static double oneToManyWeight(int completedEpochs, int epochs);
    /// max(1 - oneToManyWeight, 0).
    static double oneToOneWeight(int completedEpochs, int epochs);

    /// The branches' assigners: one-to-many topk 10; one-to-one topk 7 and topk2 1; both with STAL at 16 px.
    static AssignerOptions oneToManyAssigner();
    static AssignerOptions oneToOneAssigner();

private:
    int m_numClasses;
    int m_epochs;
    LossGains m_gains;
    int m_completedEpochs = 0;
};

} // namespace osprey::train
