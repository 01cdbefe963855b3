#include "ui/assist/suggestion_engine.h"

#include "assist/auto_labeler.h"
#include "imaging/image.h"
#include "ui/project/project_document.h"

namespace osprey::ui {

namespace {
constexpr int kRawMaxDetections = 1000;
} // namespace

SuggestionEngine::Result SuggestionEngine::run(const assist::ModelSource& source, std::int64_t revision,
                                               const std::string& imagePath) {
    Result result;
    const std::lock_guard lock(m_mutex);
    if (!m_predictor || m_revision != revision || m_loaded.model != source.model ||
        m_loaded.weights != source.weights || m_loaded.names != source.names) {
        m_predictor.reset();
        auto opened = assist::BoxPredictor::open(source);
        if (!opened) {
            result.error = QString::fromStdString(opened.message());
            return result;
        }
        m_predictor = std::move(*opened);
        m_loaded = source;
        m_revision = revision;
    }
    auto image = imaging::decodeImage(imagePath);
    if (!image) {
        result.error = QString::fromStdString(image.message());
        return result;
    }
    assist::SuggestOptions options;
    options.confThreshold = kRawConfidence;
    options.iouThreshold = 1.0f; // no suppression here: the sliders apply NMS on the cached set
    options.maxDetections = kRawMaxDetections;
    auto proposals = m_predictor->predict(*image, options);
    if (!proposals) {
        result.error = QString::fromStdString(proposals.message());
        return result;
    }
    result.proposals = std::move(*proposals);
    result.names = m_predictor->names();
    return result;
}

Expected<MappedProposals> mapProposals(ProjectDocument& document, const SuggestionEngine::Result& prediction,
                                       const std::string& modelKey) {
    MappedProposals mapped;
    Expected<assist::ClassMapping> mapping = fail("no mapping");
    if (document.classes().empty()) {
        const Status added = document.editClasses([&](project::Project& project) -> Status {
            mapping = assist::mapClassesByName(project, prediction.names, assist::AddClasses::Yes, modelKey);
            return mapping ? Status{} : fail(mapping.message());
        });
        if (added && mapping)
            mapped.addedClasses = prediction.names.size();
    } else {
        mapping =
            assist::mapClassesByName(document.project(), prediction.names, assist::AddClasses::No, modelKey);
    }
    if (!mapping)
        return fail(mapping.error());
    mapped.mappedClasses = static_cast<int>(mapping->mappedCount());
    for (const auto& p : prediction.proposals) {
        const auto index = static_cast<size_t>(p.classIndex);
        if (index >= mapping->projectClassIds.size() || !mapping->projectClassIds[index])
            continue; // unmapped model classes are ignored
        mapped.candidates.push_back({QRectF(QPointF(p.x1, p.y1), QPointF(p.x2, p.y2)).normalized(), p.score,
                                     *mapping->projectClassIds[index], false});
    }
    return mapped;
}

} // namespace osprey::ui
