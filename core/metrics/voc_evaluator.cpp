#include "metrics/voc_evaluator.h"

#include <algorithm>
#include <numeric>

namespace osprey::metrics {

double vocAveragePrecision(const std::vector<double>& precision, const std::vector<double>& recall,
                           VocInterpolation interpolation) {
    if (interpolation == VocInterpolation::ElevenPoints) {
        double sum = 0;
        for (int k = 0; k <= 10; ++k) {
            const double point = k * 0.1; // floating k * 0.1 on purpose; see the header
            double best = 0;
            for (size_t i = 0; i < recall.size(); ++i)
                if (recall[i] >= point)
                    best = std::max(best, precision[i]);
            sum += best;
        }
        return sum / 11;
    }
    std::vector<double> mrec{0.0}, mpre{0.0};
    mrec.insert(mrec.end(), recall.begin(), recall.end());
    mpre.insert(mpre.end(), precision.begin(), precision.end());
    mrec.push_back(1.0);
    mpre.push_back(0.0);
    for (size_t i = mpre.size() - 1; i > 0; --i)
        mpre[i - 1] = std::max(mpre[i - 1], mpre[i]);
    double ap = 0;
    for (size_t i = 1; i < mrec.size(); ++i)
        if (mrec[i] != mrec[i - 1])
            ap += (mrec[i] - mrec[i - 1]) * mpre[i];
    return ap;
}

Expected<VocResult> evaluateVoc(const EvalSet& set, const VocParams& params) {
    if (auto valid = set.validate(); !valid)
        return fail(valid.error());
    const int classCount = static_cast<int>(set.classNames.size());
    VocResult result;
    result.perClass.resize(static_cast<size_t>(classCount));

    struct Candidate {
        int image;
        const DetectionBox* detection;
    };
    std::vector<std::vector<Candidate>> candidates(static_cast<size_t>(classCount));
    for (int i = 0; i < static_cast<int>(set.images.size()); ++i) {
        const auto& image = set.images[static_cast<size_t>(i)];
        for (const auto& detection : image.detections)
            candidates[static_cast<size_t>(detection.classId)].push_back({i, &detection});
        for (const auto& truth : image.truths)
            if (!truth.crowd && !truth.ignore)
                ++result.perClass[static_cast<size_t>(truth.classId)].truths;
    }

    double apSum = 0;
    int classesWithTruth = 0;
    std::vector<std::vector<char>> used(set.images.size());
    for (int k = 0; k < classCount; ++k) {
        auto& out = result.perClass[static_cast<size_t>(k)];
        out.classId = k;
        auto& list = candidates[static_cast<size_t>(k)];
        std::stable_sort(list.begin(), list.end(), [](const Candidate& a, const Candidate& b) {
            return a.detection->score > b.detection->score;
        });
        for (size_t i = 0; i < set.images.size(); ++i)
            used[i].assign(set.images[i].truths.size(), 0);
        int truePositives = 0, falsePositives = 0;
        for (const auto& candidate : list) {
            const auto& truths = set.images[static_cast<size_t>(candidate.image)].truths;
            double bestIou = 0;
            int best = -1;
            for (int g = 0; g < static_cast<int>(truths.size()); ++g) {
                const auto& truth = truths[static_cast<size_t>(g)];
                if (truth.classId != k || truth.crowd)
                    continue;
                const double iou = boxIou(candidate.detection->boxPx, truth.boxPx, params.pixels);
                if (iou > bestIou) {
                    bestIou = iou;
                    best = g;
                }
            }
            ++out.detections;
            if (best >= 0 && bestIou >= params.iouThreshold) {
                if (truths[static_cast<size_t>(best)].ignore)
                    continue; // difficult: not counted either way
                auto& taken = used[static_cast<size_t>(candidate.image)][static_cast<size_t>(best)];
                if (!taken) {
                    taken = 1;
                    ++truePositives;
                } else {
                    ++falsePositives;
                }
            } else {
                ++falsePositives;
            }
            if (out.truths > 0) {
                out.recall.push_back(static_cast<double>(truePositives) / out.truths);
                out.precision.push_back(static_cast<double>(truePositives) /
                                        (truePositives + falsePositives));
            }
        }
        out.truePositives = truePositives;
        out.falsePositives = falsePositives;
        if (out.truths > 0) {
            out.ap = vocAveragePrecision(out.precision, out.recall, params.interpolation);
            apSum += out.ap;
            ++classesWithTruth;
        }
    }
    result.map = classesWithTruth ? apSum / classesWithTruth : -1.0;
    return result;
}

} // namespace osprey::metrics
