#include "metrics/image_errors.h"

#include "common/xyxy_iou.h"

#include <algorithm>

namespace osprey::metrics {

ImageErrors analyseImageErrors(std::span<const GroundTruthBox> truths,
                               std::span<const DetectionBox> detections, const ImageErrorOptions& options) {
    ImageErrors out;
    out.detectionMarks.assign(detections.size(), ErrorMark::Hidden);
    out.truthMarks.assign(truths.size(), ErrorMark::Match);
    out.truthIou.assign(truths.size(), 0.0);
    const auto counts = [](const GroundTruthBox& truth) { return !truth.crowd && !truth.ignore; };

    // Greedy matching by descending score: the matches of the shown detections are the same whether or
    // not the weaker ones take part, so one pass serves both the score and the counts.
    std::vector<size_t> order;
    for (size_t d = 0; d < detections.size(); ++d)
        if (detections[d].score >= options.scoreFloor)
            order.push_back(d);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return detections[a].score > detections[b].score; });
    std::vector<char> duplicate(detections.size(), 0);
    if (options.duplicateIou <= 1.0) {
        std::vector<size_t> kept;
        for (const size_t d : order) {
            for (const size_t k : kept)
                if (detections[k].classId != detections[d].classId &&
                    xyxyIou<double>(detections[k].boxPx, detections[d].boxPx) >= options.duplicateIou) {
                    duplicate[d] = 1;
                    break;
                }
            if (!duplicate[d])
                kept.push_back(d);
        }
        order = std::move(kept);
    }
    std::vector<int> truthMatch(truths.size(), -1), detectionMatch(detections.size(), -1);
    for (const size_t d : order) {
        int best = -1;
        double bestIou = options.iouThreshold;
        for (size_t t = 0; t < truths.size(); ++t) {
            if (truthMatch[t] >= 0 || !counts(truths[t]) || truths[t].classId != detections[d].classId)
                continue;
            const double iou = xyxyIou<double>(truths[t].boxPx, detections[d].boxPx);
            if (iou >= bestIou) {
                bestIou = iou;
                best = static_cast<int>(t);
            }
        }
        if (best >= 0) {
            truthMatch[static_cast<size_t>(best)] = static_cast<int>(d);
            detectionMatch[d] = best;
            out.truthIou[static_cast<size_t>(best)] = bestIou;
        }
    }

    for (size_t t = 0; t < truths.size(); ++t)
        if (counts(truths[t]))
            out.score +=
                1.0 - (truthMatch[t] >= 0 ? detections[static_cast<size_t>(truthMatch[t])].score : 0.0);
    int boxes = 0;
    for (const auto& truth : truths)
        boxes += counts(truth) ? 1 : 0;
    for (const size_t d : order)
        if (detectionMatch[d] < 0)
            out.score += detections[d].score;
    out.score /= boxes + 1;

    // The marks of what is shown.
    std::vector<size_t> unmatchedShown;
    for (size_t d = 0; d < detections.size(); ++d) {
        if (detections[d].score < options.confidenceThreshold || duplicate[d])
            continue;
        if (detectionMatch[d] >= 0) {
            out.detectionMarks[d] = ErrorMark::Match;
            ++out.truePositives;
        } else {
            out.detectionMarks[d] = ErrorMark::FalsePositive;
            unmatchedShown.push_back(d);
        }
    }
    std::vector<size_t> missed;
    for (size_t t = 0; t < truths.size(); ++t) {
        if (!counts(truths[t]))
            continue;
        const int d = truthMatch[t];
        if (d < 0 || detections[static_cast<size_t>(d)].score < options.confidenceThreshold) {
            out.truthMarks[t] = ErrorMark::Missed;
            out.truthIou[t] = 0;
            missed.push_back(t);
        }
    }
    // Pairs among the leftovers, the largest overlap first: same class below the threshold (low IoU), or
    // another class at or above it (wrong class).
    struct Pair {
        double iou;
        size_t detection, truth;
        bool sameClass;
    };
    std::vector<Pair> pairs;
    for (const size_t d : unmatchedShown)
        for (const size_t t : missed) {
            const double iou = xyxyIou<double>(truths[t].boxPx, detections[d].boxPx);
            const bool sameClass = truths[t].classId == detections[d].classId;
            if (sameClass ? (iou >= options.lowIouFloor && iou < options.iouThreshold)
                          : iou >= options.iouThreshold)
                pairs.push_back({iou, d, t, sameClass});
        }
    std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.iou > b.iou; });
    for (const auto& pair : pairs) {
        if (out.detectionMarks[pair.detection] != ErrorMark::FalsePositive ||
            out.truthMarks[pair.truth] != ErrorMark::Missed)
            continue;
        const ErrorMark mark = pair.sameClass ? ErrorMark::LowIou : ErrorMark::WrongClass;
        out.detectionMarks[pair.detection] = mark;
        out.truthMarks[pair.truth] = mark;
        out.truthIou[pair.truth] = pair.iou;
        if (pair.sameClass)
            ++out.lowIou;
        else
            ++out.wrongClass;
    }
    for (const auto mark : out.detectionMarks)
        if (mark == ErrorMark::FalsePositive || mark == ErrorMark::WrongClass)
            ++out.falsePositives;
    for (size_t t = 0; t < truths.size(); ++t)
        if (out.truthMarks[t] == ErrorMark::Missed || out.truthMarks[t] == ErrorMark::WrongClass)
            ++out.missed;
    return out;
}

} // namespace osprey::metrics
