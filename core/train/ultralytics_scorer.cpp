#include "train/ultralytics_scorer.h"

#include "common/log.h"
#include "metrics/ultralytics_evaluator.h"

namespace osprey::train {

namespace {

/// The platform's sampling of a curve: 101 points, 0 to 1.
constexpr int kCurvePoints = 101;

} // namespace

struct UltralyticsScorer::Impl {
    explicit Impl(int classCount) : evaluator(classCount) {}
    metrics::UltralyticsEvaluator evaluator;
    std::vector<metrics::ImageTally> tallies;
    std::optional<metrics::DetectionMetrics> last;
};

UltralyticsScorer::UltralyticsScorer(int classCount) : m_impl(std::make_unique<Impl>(classCount)) {}

UltralyticsScorer::~UltralyticsScorer() = default;

void UltralyticsScorer::reset() {
    m_impl->evaluator.reset();
    m_impl->tallies.clear();
}

void UltralyticsScorer::addImage(const std::vector<TargetBox>& truths,
                                 const std::vector<ScoredBox>& detections) {
    std::vector<metrics::GroundTruthBox> gt;
    gt.reserve(truths.size());
    for (const auto& t : truths)
        gt.push_back({{t.x1, t.y1, t.x2, t.y2}, t.classId});
    std::vector<metrics::DetectionBox> dt;
    dt.reserve(detections.size());
    for (const auto& d : detections)
        dt.push_back({{d.x1, d.y1, d.x2, d.y2}, d.classId, d.score});
    metrics::ImageTally tally;
    if (auto status = m_impl->evaluator.addImage(gt, dt, &tally); !status)
        log::warn("validation scoring: " + status.message());
    m_impl->tallies.push_back(tally);
}

ValMetrics UltralyticsScorer::compute() {
    m_impl->last = m_impl->evaluator.compute();
    const auto& result = *m_impl->last;
    return {result.precision, result.recall, result.map50, result.map50to95};
}

std::optional<run::RunCurves> UltralyticsScorer::curves(const std::vector<std::string>& imageNames) const {
    if (!m_impl->last)
        return std::nullopt;
    const auto& metrics = *m_impl->last;
    const auto& from = metrics.curves;
    run::RunCurves out;
    for (int i = 0; i < kCurvePoints; ++i)
        out.x.push_back(i / static_cast<double>(kCurvePoints - 1));
    for (size_t row = 0; row < metrics.perClass.size(); ++row) {
        out.classes.push_back(metrics.perClass[row].classId);
        out.ap.push_back(metrics.perClass[row].ap);
        out.precisionAtRecall.push_back(
            metrics::resampleCurve(from.recallAxis, from.precisionAtRecall[row], kCurvePoints));
        out.f1.push_back(metrics::resampleCurve(from.confidence, from.f1[row], kCurvePoints));
        out.precision.push_back(metrics::resampleCurve(from.confidence, from.precision[row], kCurvePoints));
        out.recall.push_back(metrics::resampleCurve(from.confidence, from.recall[row], kCurvePoints));
        out.classBestConfidence.push_back(metrics::bestF1Confidence(from.confidence, from.f1[row]));
    }
    out.bestConfidence = metrics.bestConfidence;
    out.bestF1 = metrics.f1;
    if (imageNames.size() == m_impl->tallies.size())
        for (size_t i = 0; i < imageNames.size(); ++i) {
            const auto& tally = m_impl->tallies[i];
            out.images.push_back(
                {imageNames[i], tally.truePositives, tally.falsePositives(), tally.missed()});
        }
    return out;
}

std::unique_ptr<UltralyticsScorer> makeUltralyticsScorer(int classCount) {
    return std::make_unique<UltralyticsScorer>(classCount);
}

} // namespace osprey::train
