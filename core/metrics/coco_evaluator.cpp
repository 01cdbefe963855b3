#include "metrics/coco_evaluator.h"

#include "metrics/box_iou.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numeric>
#include <sstream>
#include <thread>

namespace osprey::metrics {

namespace {

// numpy's np.spacing(1), which pycocotools adds to the precision's denominator.
constexpr double kSpacingOfOne = std::numeric_limits<double>::epsilon();

// numpy.linspace(start, stop, count): start + i * step, with the last point set to stop exactly. Matching
// its rounding matters because thresholds are compared with >=.
std::vector<double> linspace(double start, double stop, int count) {
    std::vector<double> values(static_cast<size_t>(count));
    const double step = (stop - start) / (count - 1);
    for (int i = 0; i < count; ++i)
        values[static_cast<size_t>(i)] = i * step + start;
    values.back() = stop;
    return values;
}

enum DetectionState : std::uint8_t { kIgnored = 0, kTruePositive = 1, kFalsePositive = 2 };

// The boxes of one image and one class, as index ranges into the class's flat arrays.
struct Cell {
    int truthBegin = 0;
    int truthCount = 0;
    int detectionBegin = 0;
    int detectionCount = 0;
};

struct ClassBoxes {
    std::vector<Cell> cells; // in image order
    std::vector<const GroundTruthBox*> truths;
    std::vector<const DetectionBox*> detections;
};

std::vector<ClassBoxes> groupByClass(const EvalSet& set) {
    const size_t classCount = set.classNames.size();
    std::vector<ClassBoxes> classes(classCount);
    std::vector<std::vector<const GroundTruthBox*>> imageTruths(classCount);
    std::vector<std::vector<const DetectionBox*>> imageDetections(classCount);
    std::vector<int> touched;
    for (const auto& image : set.images) {
        touched.clear();
        for (const auto& truth : image.truths) {
            auto& bucket = imageTruths[static_cast<size_t>(truth.classId)];
            if (bucket.empty() && imageDetections[static_cast<size_t>(truth.classId)].empty())
                touched.push_back(truth.classId);
            bucket.push_back(&truth);
        }
        for (const auto& detection : image.detections) {
            auto& bucket = imageDetections[static_cast<size_t>(detection.classId)];
            if (bucket.empty() && imageTruths[static_cast<size_t>(detection.classId)].empty())
                touched.push_back(detection.classId);
            bucket.push_back(&detection);
        }
        for (const int k : touched) {
            auto& target = classes[static_cast<size_t>(k)];
            auto& truths = imageTruths[static_cast<size_t>(k)];
            auto& detections = imageDetections[static_cast<size_t>(k)];
            target.cells.push_back(
                Cell{static_cast<int>(target.truths.size()), static_cast<int>(truths.size()),
                     static_cast<int>(target.detections.size()), static_cast<int>(detections.size())});
            target.truths.insert(target.truths.end(), truths.begin(), truths.end());
            target.detections.insert(target.detections.end(), detections.begin(), detections.end());
            truths.clear();
            detections.clear();
        }
    }
    return classes;
}

// A detection kept for accumulation: its score, its rank within its image, and one state per area range
// and IoU threshold.
struct DetectionRecord {
    double score;
    int rankInImage;
};

class ClassEvaluator {
public:
    ClassEvaluator(const CocoParams& params, int classCount, CocoResult& result)
        : m_params(params), m_classCount(classCount), m_result(result),
          m_thresholdCount(static_cast<int>(params.iouThresholds.size())),
          m_areaCount(static_cast<int>(params.areaRanges.size())),
          m_maxDetectionsLast(params.maxDetections.empty() ? 0 : params.maxDetections.back()) {}

    void evaluate(int k, const ClassBoxes& boxes) {
        if (boxes.cells.empty())
            return; // no image has this class: every entry stays -1
        m_records.clear();
        m_states.clear();
        m_positives.assign(static_cast<size_t>(m_areaCount), 0);
        for (const auto& cell : boxes.cells)
            matchCell(boxes, cell);
        accumulate(k);
    }

private:
    void matchCell(const ClassBoxes& boxes, const Cell& cell) {
        const int truthCount = cell.truthCount;
        const auto* truths = boxes.truths.data() + cell.truthBegin;

        // Detections by descending score, stable like numpy's mergesort, cut to the largest maxDets.
        m_order.resize(static_cast<size_t>(cell.detectionCount));
        std::iota(m_order.begin(), m_order.end(), 0);
        const auto* detections = boxes.detections.data() + cell.detectionBegin;
        std::stable_sort(m_order.begin(), m_order.end(),
                         [&](int a, int b) { return detections[a]->score > detections[b]->score; });
        const int detectionCount = std::min(cell.detectionCount, m_maxDetectionsLast);

        m_ious.resize(static_cast<size_t>(detectionCount) * static_cast<size_t>(truthCount));
        for (int d = 0; d < detectionCount; ++d)
            for (int g = 0; g < truthCount; ++g)
                m_ious[static_cast<size_t>(d * truthCount + g)] = cocoIou(
                    detections[m_order[static_cast<size_t>(d)]]->boxPx, truths[g]->boxPx, truths[g]->crowd);

        const size_t firstState = m_states.size();
        m_states.resize(firstState + static_cast<size_t>(detectionCount * m_areaCount * m_thresholdCount));
        for (int d = 0; d < detectionCount; ++d)
            m_records.push_back({detections[m_order[static_cast<size_t>(d)]]->score, d});

        m_truthOrder.resize(static_cast<size_t>(truthCount));
        m_truthIgnored.resize(static_cast<size_t>(truthCount));
        m_truthMatched.resize(static_cast<size_t>(truthCount));
        for (int a = 0; a < m_areaCount; ++a) {
            const auto& range = m_params.areaRanges[static_cast<size_t>(a)];
            // Ground truth ordered with the counted boxes first (a stable sort on the ignore flag).
            int next = 0;
            for (int pass = 0; pass < 2; ++pass) {
                for (int g = 0; g < truthCount; ++g) {
                    const double area = truths[g]->rangeAreaPx2();
                    // pycocotools sets ignore = iscrowd, so a crowd box is always ignored.
                    const bool ignored =
                        truths[g]->ignore || truths[g]->crowd || area < range.minPx2 || area > range.maxPx2;
                    if (ignored == (pass == 1)) {
                        m_truthOrder[static_cast<size_t>(next)] = g;
                        m_truthIgnored[static_cast<size_t>(next)] = ignored;
                        ++next;
                    }
                }
            }
            int counted = 0;
            for (int g = 0; g < truthCount; ++g)
                counted += m_truthIgnored[static_cast<size_t>(g)] ? 0 : 1;
            m_positives[static_cast<size_t>(a)] += counted;

            for (int t = 0; t < m_thresholdCount; ++t) {
                std::fill(m_truthMatched.begin(), m_truthMatched.end(), false);
                const double threshold = std::min(m_params.iouThresholds[static_cast<size_t>(t)], 1 - 1e-10);
                for (int d = 0; d < detectionCount; ++d) {
                    double best = threshold;
                    int match = -1;
                    const double* row = m_ious.data() + static_cast<size_t>(d * truthCount);
                    for (int gi = 0; gi < truthCount; ++gi) {
                        const int g = m_truthOrder[static_cast<size_t>(gi)];
                        if (m_truthMatched[static_cast<size_t>(gi)] && !truths[g]->crowd)
                            continue;
                        // Once matched to a counted box, stop at the ignored ones.
                        if (match > -1 && !m_truthIgnored[static_cast<size_t>(match)] &&
                            m_truthIgnored[static_cast<size_t>(gi)])
                            break;
                        if (row[g] < best)
                            continue;
                        best = row[g];
                        match = gi;
                    }
                    std::uint8_t state;
                    if (match >= 0) {
                        m_truthMatched[static_cast<size_t>(match)] = true;
                        state = m_truthIgnored[static_cast<size_t>(match)] ? kIgnored : kTruePositive;
                    } else {
                        const double area = detections[m_order[static_cast<size_t>(d)]]->boxPx.area();
                        state = (area < range.minPx2 || area > range.maxPx2) ? kIgnored : kFalsePositive;
                    }
                    m_states[firstState + static_cast<size_t>((d * m_areaCount + a) * m_thresholdCount + t)] =
                        state;
                }
            }
        }
    }

    void accumulate(int k) {
        // One sort by score serves every area and maxDets: records are in image order and, within an
        // image, in rank order, so a stable sort equals pycocotools' mergesort of the concatenation.
        m_sorted.resize(m_records.size());
        std::iota(m_sorted.begin(), m_sorted.end(), 0);
        std::stable_sort(m_sorted.begin(), m_sorted.end(), [&](int a, int b) {
            return m_records[static_cast<size_t>(a)].score > m_records[static_cast<size_t>(b)].score;
        });
        const int recallCount = static_cast<int>(m_params.recallThresholds.size());
        const int maxDetCount = static_cast<int>(m_params.maxDetections.size());
        for (int a = 0; a < m_areaCount; ++a) {
            const int positives = m_positives[static_cast<size_t>(a)];
            if (positives == 0)
                continue;
            for (int m = 0; m < maxDetCount; ++m) {
                const int maxDet = m_params.maxDetections[static_cast<size_t>(m)];
                m_kept.clear();
                for (const int index : m_sorted)
                    if (m_records[static_cast<size_t>(index)].rankInImage < maxDet)
                        m_kept.push_back(index);
                const size_t detectionCount = m_kept.size();
                m_precision.resize(detectionCount);
                m_recall.resize(detectionCount);
                for (int t = 0; t < m_thresholdCount; ++t) {
                    double truePositives = 0, falsePositives = 0;
                    for (size_t i = 0; i < detectionCount; ++i) {
                        const std::uint8_t state = m_states[static_cast<size_t>(
                            (m_kept[i] * m_areaCount + a) * m_thresholdCount + t)];
                        truePositives += state == kTruePositive ? 1 : 0;
                        falsePositives += state == kFalsePositive ? 1 : 0;
                        m_recall[i] = truePositives / positives;
                        m_precision[i] = truePositives / (falsePositives + truePositives + kSpacingOfOne);
                    }
                    m_result.recall[recallIndex(t, k, a, m)] = detectionCount ? m_recall.back() : 0.0;
                    for (size_t i = detectionCount; i-- > 1;)
                        m_precision[i - 1] = std::max(m_precision[i - 1], m_precision[i]);
                    // searchsorted(side='left'); thresholds past the last recall keep precision 0.
                    size_t position = 0;
                    for (int r = 0; r < recallCount; ++r) {
                        const double threshold = m_params.recallThresholds[static_cast<size_t>(r)];
                        while (position < detectionCount && m_recall[position] < threshold)
                            ++position;
                        m_result.precision[precisionIndex(t, r, k, a, m)] =
                            position < detectionCount ? m_precision[position] : 0.0;
                    }
                }
            }
        }
    }

    size_t precisionIndex(int t, int r, int k, int a, int m) const {
        const int recallCount = static_cast<int>(m_params.recallThresholds.size());
        const int maxDetCount = static_cast<int>(m_params.maxDetections.size());
        return static_cast<size_t>(
            (((t * recallCount + r) * m_classCount + k) * m_areaCount + a) * maxDetCount + m);
    }
    size_t recallIndex(int t, int k, int a, int m) const {
        const int maxDetCount = static_cast<int>(m_params.maxDetections.size());
        return static_cast<size_t>(((t * m_classCount + k) * m_areaCount + a) * maxDetCount + m);
    }

    const CocoParams& m_params;
    int m_classCount;
    CocoResult& m_result;
    int m_thresholdCount;
    int m_areaCount;
    int m_maxDetectionsLast;
    // Scratch buffers reused across cells and classes of one worker.
    std::vector<DetectionRecord> m_records;
    std::vector<std::uint8_t> m_states;
    std::vector<int> m_positives;
    std::vector<int> m_order;
    std::vector<double> m_ious;
    std::vector<int> m_truthOrder;
    std::vector<bool> m_truthIgnored;
    std::vector<bool> m_truthMatched;
    std::vector<int> m_sorted;
    std::vector<int> m_kept;
    std::vector<double> m_precision;
    std::vector<double> m_recall;
};

int findThreshold(const std::vector<double>& thresholds, double value) {
    for (size_t i = 0; i < thresholds.size(); ++i)
        if (thresholds[i] == value)
            return static_cast<int>(i);
    return -1;
}

} // namespace

CocoParams::CocoParams()
    : iouThresholds(linspace(0.5, 0.95, 10)),
      recallThresholds(linspace(0.0, 1.0, 101)), areaRanges{{"all", 0, 1e10},
                                                            {"small", 0, 32 * 32},
                                                            {"medium", 32 * 32, 96 * 96},
                                                            {"large", 96 * 96, 1e10}} {}

double CocoResult::precisionAt(int t, int r, int k, int a, int m) const {
    const int recallCount = static_cast<int>(params.recallThresholds.size());
    const int areaCount = static_cast<int>(params.areaRanges.size());
    const int maxDetCount = static_cast<int>(params.maxDetections.size());
    return precision[static_cast<size_t>(
        (((t * recallCount + r) * classCount + k) * areaCount + a) * maxDetCount + m)];
}

double CocoResult::recallAt(int t, int k, int a, int m) const {
    const int areaCount = static_cast<int>(params.areaRanges.size());
    const int maxDetCount = static_cast<int>(params.maxDetections.size());
    return recall[static_cast<size_t>(((t * classCount + k) * areaCount + a) * maxDetCount + m)];
}

double CocoResult::classAp(int classId) const {
    const int m = static_cast<int>(params.maxDetections.size()) - 1;
    double sum = 0;
    int count = 0;
    for (int t = 0; t < static_cast<int>(params.iouThresholds.size()); ++t)
        for (int r = 0; r < static_cast<int>(params.recallThresholds.size()); ++r) {
            const double value = precisionAt(t, r, classId, 0, m);
            if (value > -1) {
                sum += value;
                ++count;
            }
        }
    return count ? sum / count : -1.0;
}

double cocoSummarize(const CocoResult& result, bool averagePrecision, double iouThreshold,
                     const std::string& areaName, int maxDetections) {
    const auto& params = result.params;
    int a = -1;
    for (size_t i = 0; i < params.areaRanges.size(); ++i)
        if (params.areaRanges[i].name == areaName)
            a = static_cast<int>(i);
    const int m = [&] {
        for (size_t i = 0; i < params.maxDetections.size(); ++i)
            if (params.maxDetections[i] == maxDetections)
                return static_cast<int>(i);
        return -1;
    }();
    if (a < 0 || m < 0)
        return -1.0;
    int tBegin = 0, tEnd = static_cast<int>(params.iouThresholds.size());
    if (iouThreshold >= 0) {
        tBegin = findThreshold(params.iouThresholds, iouThreshold);
        if (tBegin < 0)
            return -1.0;
        tEnd = tBegin + 1;
    }
    double sum = 0;
    long long count = 0;
    for (int t = tBegin; t < tEnd; ++t)
        for (int k = 0; k < result.classCount; ++k) {
            if (averagePrecision) {
                for (int r = 0; r < static_cast<int>(params.recallThresholds.size()); ++r) {
                    const double value = result.precisionAt(t, r, k, a, m);
                    if (value > -1) {
                        sum += value;
                        ++count;
                    }
                }
            } else {
                const double value = result.recallAt(t, k, a, m);
                if (value > -1) {
                    sum += value;
                    ++count;
                }
            }
        }
    return count ? sum / static_cast<double>(count) : -1.0;
}

Expected<CocoResult> evaluateCoco(const EvalSet& set, const CocoParams& params) {
    if (auto valid = set.validate(); !valid)
        return fail(valid.error());
    if (params.iouThresholds.empty() || params.recallThresholds.empty() || params.maxDetections.empty() ||
        params.areaRanges.empty())
        return fail(
            "COCO parameters: IoU thresholds, recall thresholds, maxDets and area ranges must not be empty");

    CocoResult result;
    result.params = params;
    result.classCount = static_cast<int>(set.classNames.size());
    const size_t t = params.iouThresholds.size(), r = params.recallThresholds.size(),
                 k = set.classNames.size(), a = params.areaRanges.size(), m = params.maxDetections.size();
    result.precision.assign(t * r * k * a * m, -1.0);
    result.recall.assign(t * k * a * m, -1.0);

    const auto classes = groupByClass(set);
    std::atomic<int> nextClass{0};
    const auto work = [&] {
        ClassEvaluator evaluator(params, result.classCount, result);
        for (int c = nextClass++; c < result.classCount; c = nextClass++)
            evaluator.evaluate(c, classes[static_cast<size_t>(c)]);
    };
    int threads = params.threads > 0 ? params.threads : static_cast<int>(std::thread::hardware_concurrency());
    threads = std::clamp(threads, 1, std::max(1, result.classCount));
    std::vector<std::thread> workers;
    try {
        for (int i = 1; i < threads; ++i)
            workers.emplace_back(work);
    } catch (const std::system_error&) {
        // Could not start more threads: the ones running plus this one finish the work.
    }
    work();
    for (auto& worker : workers)
        worker.join();

    const auto& maxDets = params.maxDetections;
    const int last = maxDets.back();
    const auto detAt = [&](size_t i) { return maxDets[std::min(i, maxDets.size() - 1)]; };
    result.stats = {
        cocoSummarize(result, true, -1, "all", last),      cocoSummarize(result, true, 0.5, "all", last),
        cocoSummarize(result, true, 0.75, "all", last),    cocoSummarize(result, true, -1, "small", last),
        cocoSummarize(result, true, -1, "medium", last),   cocoSummarize(result, true, -1, "large", last),
        cocoSummarize(result, false, -1, "all", detAt(0)), cocoSummarize(result, false, -1, "all", detAt(1)),
        cocoSummarize(result, false, -1, "all", detAt(2)), cocoSummarize(result, false, -1, "small", last),
        cocoSummarize(result, false, -1, "medium", last),  cocoSummarize(result, false, -1, "large", last)};
    return result;
}

std::string formatCocoSummary(const CocoResult& result) {
    const auto& params = result.params;
    const auto& maxDets = params.maxDetections;
    const int last = maxDets.back();
    const auto detAt = [&](size_t i) { return maxDets[std::min(i, maxDets.size() - 1)]; };
    struct Line {
        bool ap;
        double iou;
        const char* area;
        int maxDet;
    };
    const Line lines[12] = {
        {true, -1, "all", last},      {true, 0.5, "all", last},     {true, 0.75, "all", last},
        {true, -1, "small", last},    {true, -1, "medium", last},   {true, -1, "large", last},
        {false, -1, "all", detAt(0)}, {false, -1, "all", detAt(1)}, {false, -1, "all", detAt(2)},
        {false, -1, "small", last},   {false, -1, "medium", last},  {false, -1, "large", last}};
    std::ostringstream out;
    char buffer[160];
    for (size_t i = 0; i < 12; ++i) {
        const auto& line = lines[i];
        char iou[32];
        if (line.iou < 0)
            std::snprintf(iou, sizeof iou, "%0.2f:%0.2f", params.iouThresholds.front(),
                          params.iouThresholds.back());
        else
            std::snprintf(iou, sizeof iou, "%0.2f", line.iou);
        std::snprintf(buffer, sizeof buffer, " %-18s %s @[ IoU=%-9s | area=%6s | maxDets=%3d ] = %0.3f\n",
                      line.ap ? "Average Precision" : "Average Recall", line.ap ? "(AP)" : "(AR)", iou,
                      line.area, line.maxDet, result.stats[i]);
        out << buffer;
    }
    return out.str();
}

} // namespace osprey::metrics
