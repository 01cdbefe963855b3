#include "train/curves_recorder.h"

#include "common/log.h"
#include "train/ultralytics_scorer.h"
#include "train/validation_recorder.h"

namespace osprey::train {

CurvesRecorder::CurvesRecorder(const UltralyticsScorer& scorer, const ValidationRecorder& validation,
                               std::vector<std::string> imageNames, std::vector<std::string> classNames,
                               std::filesystem::path file)
    : m_scorer(scorer), m_validation(validation), m_imageNames(std::move(imageNames)),
      m_classNames(std::move(classNames)), m_file(std::move(file)) {}

void CurvesRecorder::onEvent(const run::TrainEvent& event) {
    if (event.type != run::TrainEvent::Type::Epoch || !event.best)
        return;
    const run::EpochValidation* validation = m_validation.last();
    auto curves = m_scorer.curves(m_imageNames);
    if (!curves || !validation || validation->epoch != event.metrics.epoch || curves->images.empty()) {
        if (!m_warned)
            log::warn("run curves: epoch " + std::to_string(event.metrics.epoch) +
                      " was not recorded per image, so " + m_file.filename().string() + " is not updated");
        m_warned = true;
        return;
    }
    curves->epoch = event.metrics.epoch;
    curves->classNames = m_classNames;
    curves->confusionMatrix.assign(validation->matrix.begin(), validation->matrix.end());
    curves->matrixConfidence = validation->matrixConfidence;
    curves->matrixIou = validation->matrixIou;
    if (auto written = run::writeRunCurves(m_file, *curves); !written)
        log::warn("run curves: " + written.message());
}

} // namespace osprey::train
