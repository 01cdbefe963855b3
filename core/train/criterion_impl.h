#pragma once
// Private to core/train: what a training or validation step computes from a batch, for every family. A
// YOLOv8 / YOLO11 network trains its one head on DetectionLoss (topk 10, DFL); a YOLO26 network trains
// both head branches on EndToEndLoss (one-to-many and one-to-one, ProgLoss weights, STAL, L1), as
// Ultralytics 8.4.190 chooses E2ELoss when the head has one2one branches. Holds the count of completed
// epochs (YOLO26's branch weights move with it); use from the training thread.

#include "model/detector_torch_impl.h"
#include "train/detection_loss_impl.h"
#include "train/end_to_end_loss_impl.h"

#include <torch/torch.h>

#include <optional>

namespace osprey::train {

class Criterion {
public:
    /// `epochs`: the run's epoch count (YOLO26's branch weights go from the first to the last epoch).
    Criterion(model::DetectionModel& network, int epochs, LossGains gains);

    /// The head maps the loss needs, in float32: the one head's, or both branches' of an end-to-end head
    /// (the backbone runs once). `lowerPrecision`: the forward runs under an autocast the caller opened.
    model::HeadMaps forward(model::DetectionModel& network, const torch::Tensor& images,
                            bool lowerPrecision) const;

    /// The batch's loss. `total` carries the gradient; `parts` (box, cls, dfl, or box, cls, l1 for an
    /// end-to-end head) are what the log, results.csv and the validation losses show: for YOLO26 the
    /// one-to-one branch's, unweighted, as Ultralytics logs them.
    LossValue operator()(const model::HeadMaps& maps, const BatchTargets& targets) const;

    /// YOLO26: both branches are trained and the third loss is the L1 term.
    bool endToEnd() const { return m_endToEnd.has_value(); }
    /// Called at the end of every training epoch; resume sets the completed epochs instead.
    void setCompletedEpochs(int completedEpochs);
    /// The branch weights of the coming epoch (one-to-many, one-to-one); (1, 0) for a single head.
    std::pair<double, double> branchWeights() const;

private:
    int m_numClasses;
    std::vector<int> m_strides;
    std::optional<DetectionLoss> m_detection;
    std::optional<EndToEndLoss> m_endToEnd;
};

} // namespace osprey::train
