#include "metrics/confusion_matrix.h"

#include "common/xyxy_iou.h"

#include <algorithm>
#include <numeric>

namespace osprey::metrics {

namespace {

double iouWithEpsilon(const BoxXyxy& a, const BoxXyxy& b) {
    return xyxyIou<double>(a, b, 1e-7);
}

} // namespace

ConfusionMatrix::ConfusionMatrix(int classCount, double confidenceThreshold, double iouThreshold)
    : m_classCount(std::max(0, classCount)), m_confidenceThreshold(confidenceThreshold),
      m_iouThreshold(iouThreshold) {
    reset();
}

void ConfusionMatrix::reset() {
    m_counts.assign(static_cast<size_t>((m_classCount + 1) * (m_classCount + 1)), 0);
}

long long ConfusionMatrix::count(int detected, int actual) const {
    if (detected < 0 || detected > m_classCount || actual < 0 || actual > m_classCount)
        return 0;
    return m_counts[static_cast<size_t>(detected * (m_classCount + 1) + actual)];
}

std::vector<std::vector<double>> ConfusionMatrix::columnNormalized() const {
    const int size = m_classCount + 1;
    std::vector<std::vector<double>> out(static_cast<size_t>(size),
                                         std::vector<double>(static_cast<size_t>(size), 0));
    for (int column = 0; column < size; ++column) {
        long long sum = 0;
        for (int row = 0; row < size; ++row)
            sum += count(row, column);
        if (sum > 0)
            for (int row = 0; row < size; ++row)
                out[static_cast<size_t>(row)][static_cast<size_t>(column)] =
                    static_cast<double>(count(row, column)) / static_cast<double>(sum);
    }
    return out;
}

Status ConfusionMatrix::addImage(std::span<const GroundTruthBox> truths,
                                 std::span<const DetectionBox> detections) {
    auto cells = imageCells(truths, detections);
    if (!cells)
        return fail(cells.error());
    for (const auto& [detected, actual] : cells.value())
        ++m_counts[static_cast<size_t>(detected * (m_classCount + 1) + actual)];
    return {};
}

Expected<std::vector<std::pair<int, int>>>
ConfusionMatrix::imageCells(std::span<const GroundTruthBox> truths,
                            std::span<const DetectionBox> detections) const {
    std::vector<std::pair<int, int>> cells;
    std::vector<const GroundTruthBox*> kept;
    for (const auto& truth : truths) {
        if (truth.classId < 0 || truth.classId >= m_classCount)
            return fail("ground truth class id " + std::to_string(truth.classId) + " is outside 0.." +
                        std::to_string(m_classCount - 1));
        if (!truth.crowd && !truth.ignore)
            kept.push_back(&truth);
    }
    std::vector<const DetectionBox*> confident;
    for (const auto& detection : detections) {
        if (detection.classId < 0 || detection.classId >= m_classCount)
            return fail("detection class id " + std::to_string(detection.classId) + " is outside 0.." +
                        std::to_string(m_classCount - 1));
        if (detection.score > m_confidenceThreshold)
            confident.push_back(&detection);
    }
    const auto add = [&](int detected, int actual) { cells.emplace_back(detected, actual); };
    // As Ultralytics: each detection takes its highest-IoU box above the threshold (of any class); a box
    // chosen by several detections keeps the one with the highest IoU, the others become background.
    std::vector<int> truthMatch(kept.size(), -1), detectionMatched(confident.size(), 0);
    std::vector<double> truthBestIou(kept.size(), 0.0);
    for (size_t d = 0; d < confident.size(); ++d) {
        int best = -1;
        double bestIou = m_iouThreshold;
        for (size_t g = 0; g < kept.size(); ++g) {
            const double iou = iouWithEpsilon(kept[g]->boxPx, confident[d]->boxPx);
            if (iou > bestIou) {
                bestIou = iou;
                best = static_cast<int>(g);
            }
        }
        if (best >= 0 && (truthMatch[static_cast<size_t>(best)] < 0 ||
                          bestIou > truthBestIou[static_cast<size_t>(best)])) {
            if (truthMatch[static_cast<size_t>(best)] >= 0)
                detectionMatched[static_cast<size_t>(truthMatch[static_cast<size_t>(best)])] = 0;
            truthMatch[static_cast<size_t>(best)] = static_cast<int>(d);
            truthBestIou[static_cast<size_t>(best)] = bestIou;
            detectionMatched[d] = 1;
        }
    }
    for (size_t g = 0; g < kept.size(); ++g) {
        const int d = truthMatch[g];
        add(d >= 0 ? confident[static_cast<size_t>(d)]->classId : m_classCount, kept[g]->classId);
    }
    for (size_t d = 0; d < confident.size(); ++d)
        if (!detectionMatched[d])
            add(confident[d]->classId, m_classCount);
    return cells;
}

Expected<ConfusionMatrix> confusionMatrix(const EvalSet& set, double confidenceThreshold,
                                          double iouThreshold) {
    if (auto valid = set.validate(); !valid)
        return fail(valid.error());
    ConfusionMatrix matrix(static_cast<int>(set.classNames.size()), confidenceThreshold, iouThreshold);
    for (const auto& image : set.images)
        if (auto added = matrix.addImage(image.truths, image.detections); !added)
            return fail("image '" + image.name + "': " + added.message());
    return matrix;
}

} // namespace osprey::metrics
