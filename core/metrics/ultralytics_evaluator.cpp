#include "metrics/ultralytics_evaluator.h"

#include "common/xyxy_iou.h"

#include "metrics/box_iou.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace osprey::metrics {

namespace {

std::vector<double> linspace(double start, double stop, int count) {
    std::vector<double> values(static_cast<size_t>(count));
    const double step = (stop - start) / (count - 1);
    for (int i = 0; i < count; ++i)
        values[static_cast<size_t>(i)] = i * step + start;
    values.back() = stop;
    return values;
}

// Ultralytics' box_iou adds 1e-7 to the union; kept so that threshold decisions agree.
double ultralyticsIou(const BoxXyxy& a, const BoxXyxy& b) {
    return xyxyIou<double>(a, b, 1e-7);
}

// AP of one PR curve: envelope, sampled at 101 recall points, trapezoid rule (Ultralytics' compute_ap).
// As 8.4.190 closes the curve: precision falls to 0 at the last recall reached (a sentinel at that
// recall), then stays 0 up to recall 1. Up to 8.4.90 it fell linearly from the last recall to recall 1,
// which counted area for recall never reached (0.003 mAP50-95 more on the shapes fixture).
double envelopeAp(const std::vector<double>& recall, const std::vector<double>& precision,
                  std::vector<double>* envelopeRecall, std::vector<double>* envelopePrecision) {
    std::vector<double> mrec{0.0}, mpre{1.0};
    mrec.insert(mrec.end(), recall.begin(), recall.end());
    mpre.insert(mpre.end(), precision.begin(), precision.end());
    mrec.push_back(recall.empty() ? 1.0 : recall.back());
    mpre.push_back(0.0);
    mrec.push_back(1.0);
    mpre.push_back(0.0);
    for (size_t i = mpre.size() - 1; i > 0; --i)
        mpre[i - 1] = std::max(mpre[i - 1], mpre[i]);
    static const std::vector<double> kPoints = linspace(0, 1, 101);
    double area = 0, previous = interpolate(kPoints[0], mrec, mpre, mpre.front(), mpre.back());
    for (size_t i = 1; i < kPoints.size(); ++i) {
        const double value = interpolate(kPoints[i], mrec, mpre, mpre.front(), mpre.back());
        area += (kPoints[i] - kPoints[i - 1]) * (value + previous) / 2;
        previous = value;
    }
    if (envelopeRecall)
        *envelopeRecall = std::move(mrec);
    if (envelopePrecision)
        *envelopePrecision = std::move(mpre);
    return area;
}

} // namespace

double interpolate(double x, const std::vector<double>& xs, const std::vector<double>& ys, double left,
                   double right) {
    if (xs.empty())
        return left;
    if (x < xs.front())
        return left;
    if (x > xs.back())
        return right;
    // The last index with xs[j] <= x, as numpy's binary search finds it.
    const size_t j = static_cast<size_t>(std::upper_bound(xs.begin(), xs.end(), x) - xs.begin()) - 1;
    if (j == xs.size() - 1 || xs[j] == x)
        return ys[j];
    const double slope = (ys[j + 1] - ys[j]) / (xs[j + 1] - xs[j]);
    return slope * (x - xs[j]) + ys[j];
}

namespace {

/// The index where `f1` peaks after Ultralytics' smooth(f1, 0.1): a box filter of round(0.2 n) // 2 + 1
/// points (101 of 1000), edges padded with the end values; the first index on a tie.
size_t bestF1Index(const std::vector<double>& f1) {
    const long n = static_cast<long>(f1.size());
    if (n == 0)
        return 0;
    const long half = (std::lround(0.2 * static_cast<double>(n)) / 2 + 1) / 2;
    size_t best = 0;
    double bestValue = -1;
    for (long i = 0; i < n; ++i) {
        double sum = 0;
        for (long j = i - half; j <= i + half; ++j)
            sum += f1[static_cast<size_t>(std::clamp(j, 0L, n - 1))];
        const double value = sum / static_cast<double>(2 * half + 1);
        if (value > bestValue) {
            bestValue = value;
            best = static_cast<size_t>(i);
        }
    }
    return best;
}

} // namespace

double bestF1Confidence(const std::vector<double>& confidence, const std::vector<double>& f1) {
    return confidence.empty() || confidence.size() != f1.size() ? 0.0 : confidence[bestF1Index(f1)];
}

std::vector<double> resampleCurve(const std::vector<double>& xs, const std::vector<double>& ys, int count) {
    std::vector<double> out;
    if (xs.empty() || xs.size() != ys.size() || count <= 0)
        return out;
    out.reserve(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
        const double x = count == 1
                             ? xs.front()
                             : xs.front() + (xs.back() - xs.front()) * i / static_cast<double>(count - 1);
        out.push_back(interpolate(x, xs, ys, ys.front(), ys.back()));
    }
    return out;
}

UltralyticsParams::UltralyticsParams() : iouThresholds(linspace(0.5, 0.95, 10)) {}

double ClassDetectionMetrics::ap50to95() const {
    return ap.empty() ? 0 : std::accumulate(ap.begin(), ap.end(), 0.0) / static_cast<double>(ap.size());
}

UltralyticsEvaluator::UltralyticsEvaluator(int classCount, UltralyticsParams params)
    : m_classCount(std::max(0, classCount)), m_params(std::move(params)) {
    if (m_params.iouThresholds.size() > 32)
        m_params.iouThresholds.resize(32); // one bit per threshold
    reset();
}

void UltralyticsEvaluator::reset() {
    m_records.clear();
    m_instances.assign(static_cast<size_t>(m_classCount), 0);
    m_images.assign(static_cast<size_t>(m_classCount), 0);
    m_imageCount = 0;
}

double ImageTally::f1() const {
    if (detections == 0 && truths == 0)
        return 1.0;
    const double precision = detections ? static_cast<double>(truePositives) / detections : 0.0;
    const double recall = truths ? static_cast<double>(truePositives) / truths : 0.0;
    return precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0.0;
}

Status UltralyticsEvaluator::addImage(std::span<const GroundTruthBox> truths,
                                      std::span<const DetectionBox> detections, ImageTally* tally) {
    for (const auto& truth : truths)
        if (truth.classId < 0 || truth.classId >= m_classCount)
            return fail("ground truth class id " + std::to_string(truth.classId) + " is outside 0.." +
                        std::to_string(m_classCount - 1));
    for (const auto& detection : detections)
        if (detection.classId < 0 || detection.classId >= m_classCount)
            return fail("detection class id " + std::to_string(detection.classId) + " is outside 0.." +
                        std::to_string(m_classCount - 1));
    ++m_imageCount;
    std::vector<const GroundTruthBox*> kept;
    std::vector<char> present(static_cast<size_t>(m_classCount), 0);
    for (const auto& truth : truths) {
        if (truth.crowd || truth.ignore)
            continue;
        kept.push_back(&truth);
        ++m_instances[static_cast<size_t>(truth.classId)];
        present[static_cast<size_t>(truth.classId)] = 1;
    }
    for (int k = 0; k < m_classCount; ++k)
        m_images[static_cast<size_t>(k)] += present[static_cast<size_t>(k)];

    // Most confident first, as NMS returns them: on a tie for a box, the earlier detection wins.
    std::vector<int> order(detections.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return detections[static_cast<size_t>(a)].score > detections[static_cast<size_t>(b)].score;
    });
    const size_t truthCount = kept.size();
    std::vector<double> ious(order.size() * truthCount);
    for (size_t d = 0; d < order.size(); ++d) {
        const auto& detection = detections[static_cast<size_t>(order[d])];
        for (size_t g = 0; g < truthCount; ++g)
            ious[d * truthCount + g] =
                kept[g]->classId == detection.classId ? ultralyticsIou(kept[g]->boxPx, detection.boxPx) : 0.0;
    }
    std::vector<std::uint32_t> correct(order.size(), 0);
    std::vector<int> winner(truthCount);
    for (size_t t = 0; t < m_params.iouThresholds.size(); ++t) {
        const double threshold = m_params.iouThresholds[t];
        std::fill(winner.begin(), winner.end(), -1);
        for (size_t d = 0; d < order.size(); ++d) {
            int best = -1;
            double bestIou = 0;
            for (size_t g = 0; g < truthCount; ++g) {
                const double iou = ious[d * truthCount + g];
                if (iou >= threshold && (best < 0 || iou > bestIou)) {
                    best = static_cast<int>(g);
                    bestIou = iou;
                }
            }
            if (best >= 0 && winner[static_cast<size_t>(best)] < 0)
                winner[static_cast<size_t>(best)] = static_cast<int>(d);
        }
        for (const int d : winner)
            if (d >= 0)
                correct[static_cast<size_t>(d)] |= (1u << t);
    }
    for (size_t d = 0; d < order.size(); ++d) {
        const auto& detection = detections[static_cast<size_t>(order[d])];
        m_records.push_back({detection.score, detection.classId, correct[d]});
    }
    if (tally) {
        tally->detections = static_cast<int>(order.size());
        tally->truths = static_cast<int>(truthCount);
        tally->truePositives = static_cast<int>(
            std::count_if(correct.begin(), correct.end(), [](std::uint32_t bits) { return bits & 1u; }));
    }
    return {};
}

DetectionMetrics UltralyticsEvaluator::compute() const {
    DetectionMetrics metrics;
    metrics.images = m_imageCount;
    const size_t thresholdCount = m_params.iouThresholds.size();
    std::vector<int> sorted(m_records.size());
    std::iota(sorted.begin(), sorted.end(), 0);
    std::stable_sort(sorted.begin(), sorted.end(), [&](int a, int b) {
        return m_records[static_cast<size_t>(a)].score > m_records[static_cast<size_t>(b)].score;
    });
    auto& curves = metrics.curves;
    curves.confidence = linspace(0, 1, 1000);
    curves.recallAxis = curves.confidence;
    const size_t points = curves.confidence.size();

    std::vector<std::vector<int>> byClass(static_cast<size_t>(m_classCount));
    for (const int index : sorted)
        byClass[static_cast<size_t>(m_records[static_cast<size_t>(index)].classId)].push_back(index);

    for (int k = 0; k < m_classCount; ++k) {
        const int instances = m_instances[static_cast<size_t>(k)];
        if (instances == 0)
            continue;
        metrics.instances += instances;
        ClassDetectionMetrics out;
        out.classId = k;
        out.images = m_images[static_cast<size_t>(k)];
        out.instances = instances;
        out.ap.assign(thresholdCount, 0.0);
        std::vector<double> precisionRow(points, 0.0), recallRow(points, 0.0), prRow(points, 0.0);
        const auto& list = byClass[static_cast<size_t>(k)];
        if (!list.empty()) {
            std::vector<double> negativeScore(list.size());
            for (size_t i = 0; i < list.size(); ++i)
                negativeScore[i] = -m_records[static_cast<size_t>(list[i])].score;
            for (size_t t = 0; t < thresholdCount; ++t) {
                std::vector<double> recall(list.size()), precision(list.size());
                double truePositives = 0, falsePositives = 0;
                for (size_t i = 0; i < list.size(); ++i) {
                    const bool hit = (m_records[static_cast<size_t>(list[i])].correct >> t) & 1u;
                    truePositives += hit ? 1 : 0;
                    falsePositives += hit ? 0 : 1;
                    recall[i] = truePositives / (instances + 1e-16);
                    precision[i] = truePositives / (truePositives + falsePositives);
                }
                std::vector<double> envelopeRecall, envelopePrecision;
                out.ap[t] = envelopeAp(recall, precision, &envelopeRecall, &envelopePrecision);
                if (t == 0) {
                    for (size_t i = 0; i < points; ++i) {
                        const double x = curves.confidence[i];
                        recallRow[i] = interpolate(-x, negativeScore, recall, 0.0, recall.back());
                        precisionRow[i] = interpolate(-x, negativeScore, precision, 1.0, precision.back());
                        prRow[i] = interpolate(x, envelopeRecall, envelopePrecision,
                                               envelopePrecision.front(), envelopePrecision.back());
                    }
                }
            }
        }
        std::vector<double> f1Row(points);
        for (size_t i = 0; i < points; ++i)
            f1Row[i] = 2 * precisionRow[i] * recallRow[i] / (precisionRow[i] + recallRow[i] + 1e-16);
        curves.precision.push_back(std::move(precisionRow));
        curves.recall.push_back(std::move(recallRow));
        curves.f1.push_back(std::move(f1Row));
        curves.precisionAtRecall.push_back(std::move(prRow));
        metrics.perClass.push_back(std::move(out));
    }
    const size_t classes = metrics.perClass.size();
    if (classes == 0)
        return metrics;

    // Mean F1 over classes, smoothed with a box filter of 101 points (Ultralytics' smooth(f1, 0.1)),
    // edges padded with the end values.
    std::vector<double> meanF1(points, 0.0);
    for (const auto& row : curves.f1)
        for (size_t i = 0; i < points; ++i)
            meanF1[i] += row[i];
    for (auto& value : meanF1)
        value /= static_cast<double>(classes);
    const size_t best = bestF1Index(meanF1);
    metrics.bestConfidence = curves.confidence[best];
    for (size_t c = 0; c < classes; ++c) {
        auto& out = metrics.perClass[c];
        out.precision = curves.precision[c][best];
        out.recall = curves.recall[c][best];
        out.f1 = curves.f1[c][best];
        metrics.precision += out.precision;
        metrics.recall += out.recall;
        metrics.f1 += out.f1;
        metrics.map50 += out.ap50();
        metrics.map50to95 += out.ap50to95();
    }
    const double n = static_cast<double>(classes);
    metrics.precision /= n;
    metrics.recall /= n;
    metrics.f1 /= n;
    metrics.map50 /= n;
    metrics.map50to95 /= n;
    metrics.fitness = 0.1 * metrics.map50 + 0.9 * metrics.map50to95;
    return metrics;
}

Expected<DetectionMetrics> evaluateUltralytics(const EvalSet& set, const UltralyticsParams& params) {
    if (auto valid = set.validate(); !valid)
        return fail(valid.error());
    UltralyticsEvaluator evaluator(static_cast<int>(set.classNames.size()), params);
    for (const auto& image : set.images)
        if (auto added = evaluator.addImage(image.truths, image.detections); !added)
            return fail("image '" + image.name + "': " + added.message());
    return evaluator.compute();
}

} // namespace osprey::metrics
