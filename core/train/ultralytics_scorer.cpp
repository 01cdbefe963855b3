#include "train/ultralytics_scorer.h"

#include "common/log.h"
#include "metrics/ultralytics_evaluator.h"

namespace osprey::train {

namespace {

class UltralyticsScorer : public DetectionScorer {
public:
    explicit UltralyticsScorer(int classCount) : m_evaluator(classCount) {}
    void reset() override { m_evaluator.reset(); }
    void addImage(const std::vector<TargetBox>& truths, const std::vector<ScoredBox>& detections) override {
        std::vector<metrics::GroundTruthBox> gt;
        gt.reserve(truths.size());
        for (const auto& t : truths)
            gt.push_back({{t.x1, t.y1, t.x2, t.y2}, t.classId});
        std::vector<metrics::DetectionBox> dt;
        dt.reserve(detections.size());
        for (const auto& d : detections)
            dt.push_back({{d.x1, d.y1, d.x2, d.y2}, d.classId, d.score});
        if (auto status = m_evaluator.addImage(gt, dt); !status)
            log::warn("validation scoring: " + status.message());
    }
    ValMetrics compute() override {
        const auto result = m_evaluator.compute();
        return {result.precision, result.recall, result.map50, result.map50to95};
    }

private:
    metrics::UltralyticsEvaluator m_evaluator;
};

} // namespace

std::unique_ptr<DetectionScorer> makeUltralyticsScorer(int classCount) {
    return std::make_unique<UltralyticsScorer>(classCount);
}

} // namespace osprey::train
