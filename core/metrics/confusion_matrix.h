#pragma once
// The detection confusion matrix, classes plus background, as Ultralytics builds it: detections above a
// confidence threshold are matched to boxes of any class by IoU (each detection and each box at most
// once, highest IoU first); a match counts under (detected class, true class), an unmatched box under
// (background, true class) and an unmatched detection under (detected class, background).

#include "common/expected.h"
#include "metrics/eval_set.h"

#include <span>
#include <utility>
#include <vector>

namespace osprey::metrics {

/// Accumulates images into a (classes + 1) x (classes + 1) matrix. Not thread-safe.
class ConfusionMatrix {
public:
    /// A detection counts when its score is above `confidenceThreshold`; a pair matches when its IoU is
    /// above `iouThreshold` (both strict, as in Ultralytics; defaults 0.25 and 0.45).
    explicit ConfusionMatrix(int classCount, double confidenceThreshold = 0.25, double iouThreshold = 0.45);

    /// Adds one image. Crowd and ignored boxes are left out.
    Status addImage(std::span<const GroundTruthBox> truths, std::span<const DetectionBox> detections);
    /// The cells one image would add, as (detected, actual) pairs, one per count; the matrix is unchanged
    /// (which images lie behind a cell).
    Expected<std::vector<std::pair<int, int>>> imageCells(std::span<const GroundTruthBox> truths,
                                                          std::span<const DetectionBox> detections) const;

    int classCount() const { return m_classCount; }
    int backgroundIndex() const { return m_classCount; }
    /// Count of (detected row, true column); index classCount() is the background.
    long long count(int detected, int actual) const;
    /// Each column divided by its sum (zero columns stay zero), for plotting.
    std::vector<std::vector<double>> columnNormalized() const;
    void reset();

private:
    int m_classCount;
    double m_confidenceThreshold;
    double m_iouThreshold;
    std::vector<long long> m_counts; // row-major (detected, actual)
};

/// Builds the confusion matrix of a whole set.
Expected<ConfusionMatrix> confusionMatrix(const EvalSet& set, double confidenceThreshold = 0.25,
                                          double iouThreshold = 0.45);

} // namespace osprey::metrics
