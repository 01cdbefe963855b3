#pragma once
// A straightforward single-threaded COCO evaluation, written in the shape of pycocotools' COCOeval
// (evaluateImg per image, class and area range; accumulate per class, area range and maxDets with a
// concatenation and a stable sort each time). Tests compare the fast evaluator with it on random data, and
// the benchmark measures the fast one against it.

#include "metrics/coco_evaluator.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <vector>

namespace osprey::metrics::reference {

struct ImageEvaluation {
    std::vector<double> scores;            // sorted, cut to maxDets
    std::vector<std::vector<int>> matched; // [t][d]: 1 when matched
    std::vector<std::vector<int>> ignored; // [t][d]
    std::vector<int> truthIgnored;
};

inline double referenceIou(const BoxXyxy& d, const BoxXyxy& g, bool crowd) {
    const double dw = d.x2 - d.x1, dh = d.y2 - d.y1, gw = g.x2 - g.x1, gh = g.y2 - g.y1;
    const double w = std::min(d.x1 + dw, g.x1 + gw) - std::max(d.x1, g.x1);
    const double h = std::min(d.y1 + dh, g.y1 + gh) - std::max(d.y1, g.y1);
    if (w <= 0 || h <= 0)
        return 0;
    const double i = w * h;
    return i / (crowd ? dw * dh : dw * dh + gw * gh - i);
}

inline CocoResult evaluateCocoReference(const EvalSet& set, const CocoParams& p = {}) {
    const int T = static_cast<int>(p.iouThresholds.size()), R = static_cast<int>(p.recallThresholds.size());
    const int K = static_cast<int>(set.classNames.size()), A = static_cast<int>(p.areaRanges.size());
    const int M = static_cast<int>(p.maxDetections.size()), I = static_cast<int>(set.images.size());
    const int maxDet = p.maxDetections.back();
    std::map<std::pair<int, int>, std::vector<GroundTruthBox>> gts;
    std::map<std::pair<int, int>, std::vector<DetectionBox>> dts;
    for (int i = 0; i < I; ++i) {
        for (const auto& g : set.images[static_cast<size_t>(i)].truths)
            gts[{i, g.classId}].push_back(g);
        for (const auto& d : set.images[static_cast<size_t>(i)].detections)
            dts[{i, d.classId}].push_back(d);
    }
    // evalImgs[k][a][i]; empty optional when the image has neither boxes nor detections of the class.
    std::vector<std::vector<std::vector<std::optional<ImageEvaluation>>>> evalImgs(
        static_cast<size_t>(K),
        std::vector<std::vector<std::optional<ImageEvaluation>>>(
            static_cast<size_t>(A), std::vector<std::optional<ImageEvaluation>>(static_cast<size_t>(I))));
    for (int k = 0; k < K; ++k)
        for (int a = 0; a < A; ++a)
            for (int i = 0; i < I; ++i) {
                auto gt = gts[{i, k}];
                auto dt = dts[{i, k}];
                if (gt.empty() && dt.empty())
                    continue;
                const auto& range = p.areaRanges[static_cast<size_t>(a)];
                std::vector<int> ig;
                for (const auto& g : gt) {
                    const double area = g.rangeAreaPx2();
                    ig.push_back(g.ignore || g.crowd || area < range.minPx2 || area > range.maxPx2);
                }
                std::vector<int> gtind(gt.size());
                std::iota(gtind.begin(), gtind.end(), 0);
                std::stable_sort(gtind.begin(), gtind.end(), [&](int x, int y) { return ig[x] < ig[y]; });
                std::stable_sort(dt.begin(), dt.end(), [](const DetectionBox& x, const DetectionBox& y) {
                    return x.score > y.score;
                });
                if (static_cast<int>(dt.size()) > maxDet)
                    dt.resize(static_cast<size_t>(maxDet));
                const size_t G = gt.size(), D = dt.size();
                ImageEvaluation e;
                e.matched.assign(static_cast<size_t>(T), std::vector<int>(D, 0));
                e.ignored.assign(static_cast<size_t>(T), std::vector<int>(D, 0));
                for (size_t g = 0; g < G; ++g)
                    e.truthIgnored.push_back(ig[static_cast<size_t>(gtind[g])]);
                for (const auto& d : dt)
                    e.scores.push_back(d.score);
                for (int t = 0; t < T; ++t) {
                    std::vector<int> gtm(G, 0);
                    for (size_t d = 0; d < D; ++d) {
                        double iou = std::min(p.iouThresholds[static_cast<size_t>(t)], 1 - 1e-10);
                        int m = -1;
                        for (size_t gi = 0; gi < G; ++gi) {
                            const auto& g = gt[static_cast<size_t>(gtind[gi])];
                            if (gtm[gi] && !g.crowd)
                                continue;
                            if (m > -1 && !e.truthIgnored[static_cast<size_t>(m)] && e.truthIgnored[gi])
                                break;
                            const double value = referenceIou(dt[d].boxPx, g.boxPx, g.crowd);
                            if (value < iou)
                                continue;
                            iou = value;
                            m = static_cast<int>(gi);
                        }
                        const double area = dt[d].boxPx.area();
                        if (m == -1) {
                            e.ignored[static_cast<size_t>(t)][d] = area < range.minPx2 || area > range.maxPx2;
                            continue;
                        }
                        e.ignored[static_cast<size_t>(t)][d] = e.truthIgnored[static_cast<size_t>(m)];
                        e.matched[static_cast<size_t>(t)][d] = 1;
                        gtm[static_cast<size_t>(m)] = 1;
                    }
                }
                evalImgs[static_cast<size_t>(k)][static_cast<size_t>(a)][static_cast<size_t>(i)] =
                    std::move(e);
            }

    CocoResult result;
    result.params = p;
    result.classCount = K;
    result.precision.assign(static_cast<size_t>(T * R * K * A * M), -1.0);
    result.recall.assign(static_cast<size_t>(T * K * A * M), -1.0);
    for (int k = 0; k < K; ++k)
        for (int a = 0; a < A; ++a)
            for (int m = 0; m < M; ++m) {
                const int cut = p.maxDetections[static_cast<size_t>(m)];
                std::vector<double> scores;
                std::vector<std::vector<int>> matched(static_cast<size_t>(T)),
                    ignored(static_cast<size_t>(T));
                int positives = 0;
                bool any = false;
                for (int i = 0; i < I; ++i) {
                    const auto& e =
                        evalImgs[static_cast<size_t>(k)][static_cast<size_t>(a)][static_cast<size_t>(i)];
                    if (!e)
                        continue;
                    any = true;
                    const size_t n = std::min(e->scores.size(), static_cast<size_t>(cut));
                    scores.insert(scores.end(), e->scores.begin(), e->scores.begin() + static_cast<long>(n));
                    for (int t = 0; t < T; ++t) {
                        const auto& mt = e->matched[static_cast<size_t>(t)];
                        const auto& it = e->ignored[static_cast<size_t>(t)];
                        matched[static_cast<size_t>(t)].insert(matched[static_cast<size_t>(t)].end(),
                                                               mt.begin(), mt.begin() + static_cast<long>(n));
                        ignored[static_cast<size_t>(t)].insert(ignored[static_cast<size_t>(t)].end(),
                                                               it.begin(), it.begin() + static_cast<long>(n));
                    }
                    for (const int ig : e->truthIgnored)
                        positives += ig ? 0 : 1;
                }
                if (!any || positives == 0)
                    continue;
                std::vector<int> inds(scores.size());
                std::iota(inds.begin(), inds.end(), 0);
                std::stable_sort(inds.begin(), inds.end(),
                                 [&](int x, int y) { return scores[x] > scores[y]; });
                const size_t nd = inds.size();
                for (int t = 0; t < T; ++t) {
                    std::vector<double> rc(nd), pr(nd);
                    double tp = 0, fp = 0;
                    for (size_t j = 0; j < nd; ++j) {
                        const size_t d = static_cast<size_t>(inds[j]);
                        const bool ig = ignored[static_cast<size_t>(t)][d];
                        const bool mt = matched[static_cast<size_t>(t)][d];
                        tp += (mt && !ig) ? 1 : 0;
                        fp += (!mt && !ig) ? 1 : 0;
                        rc[j] = tp / positives;
                        pr[j] = tp / (fp + tp + std::numeric_limits<double>::epsilon());
                    }
                    result.recall[static_cast<size_t>(((t * K + k) * A + a) * M + m)] = nd ? rc.back() : 0;
                    for (size_t j = nd; j-- > 1;)
                        if (pr[j] > pr[j - 1])
                            pr[j - 1] = pr[j];
                    for (int r = 0; r < R; ++r) {
                        const auto pos = std::lower_bound(rc.begin(), rc.end(),
                                                          p.recallThresholds[static_cast<size_t>(r)]);
                        if (pos == rc.end())
                            break;
                        result.precision[static_cast<size_t>((((t * R + r) * K + k) * A + a) * M + m)] =
                            pr[static_cast<size_t>(pos - rc.begin())];
                    }
                    for (int r = 0; r < R; ++r) {
                        auto& value =
                            result.precision[static_cast<size_t>((((t * R + r) * K + k) * A + a) * M + m)];
                        if (value < 0)
                            value = 0;
                    }
                }
            }
    const int last = p.maxDetections.back();
    const auto detAt = [&](size_t i) { return p.maxDetections[std::min(i, p.maxDetections.size() - 1)]; };
    result.stats = {
        cocoSummarize(result, true, -1, "all", last),      cocoSummarize(result, true, 0.5, "all", last),
        cocoSummarize(result, true, 0.75, "all", last),    cocoSummarize(result, true, -1, "small", last),
        cocoSummarize(result, true, -1, "medium", last),   cocoSummarize(result, true, -1, "large", last),
        cocoSummarize(result, false, -1, "all", detAt(0)), cocoSummarize(result, false, -1, "all", detAt(1)),
        cocoSummarize(result, false, -1, "all", detAt(2)), cocoSummarize(result, false, -1, "small", last),
        cocoSummarize(result, false, -1, "medium", last),  cocoSummarize(result, false, -1, "large", last)};
    return result;
}

} // namespace osprey::metrics::reference
