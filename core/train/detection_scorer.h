#pragma once
// How the engine scores its validation detections without depending on core/metrics (the engine builds
// with LibTorch alone). train_data implements it with metrics::UltralyticsEvaluator. Thread affinity:
// called from the training thread only.

#include "train/batch_source.h"

#include <vector>

namespace osprey::train {

/// One detection in pixels of the validation batch's images.
struct ScoredBox {
    float x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    float score = 0;
    int classId = 0;
};

/// The validation metrics the engine records.
struct ValMetrics {
    double precision = 0, recall = 0, map50 = 0, map50to95 = 0;
};

class DetectionScorer {
public:
    virtual ~DetectionScorer() = default;
    virtual void reset() = 0;
    /// The letterboxed size of the val batch whose images follow (its images are padded to it; see
    /// valBatchShape); scorers that map boxes back to the original images need it.
    virtual void beginBatch(int width, int height) {
        (void)width;
        (void)height;
    }
    /// One validation image: its ground truth and the detections after NMS (same pixel space).
    virtual void addImage(const std::vector<TargetBox>& truths, const std::vector<ScoredBox>& detections) = 0;
    virtual ValMetrics compute() = 0;
};

} // namespace osprey::train
