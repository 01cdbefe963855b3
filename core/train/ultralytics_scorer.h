#pragma once
// The engine's validation scorer for a project: DetectionScorer on core/metrics' Ultralytics evaluator
// (the same mAP as Ultralytics' val), which also keeps what the last validation's curves and per-image
// counts were, for <run>/curves.json. Part of train_data. Thread affinity: one thread at a time.

#include "run/run_curves.h"
#include "train/detection_scorer.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace osprey::train {

class UltralyticsScorer : public DetectionScorer {
public:
    /// A scorer for `classCount` classes; a box the evaluator refuses is logged as a warning and skipped.
    explicit UltralyticsScorer(int classCount);
    ~UltralyticsScorer() override;

    void reset() override;
    void addImage(const std::vector<TargetBox>& truths, const std::vector<ScoredBox>& detections) override;
    ValMetrics compute() override;

    /// The last compute()'s curves (101 points) and best-F1 confidences, with the counts of the images
    /// added since reset() named by `imageNames` (in order; left empty when the counts differ). `epoch`,
    /// `classNames` and the confusion matrix are the caller's to fill. Nullopt before the first compute().
    std::optional<run::RunCurves> curves(const std::vector<std::string>& imageNames) const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

std::unique_ptr<UltralyticsScorer> makeUltralyticsScorer(int classCount);

} // namespace osprey::train
