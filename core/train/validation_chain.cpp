#include "train/validation_chain.h"

#include "run/run_folder.h"

namespace osprey::train {

namespace {

std::vector<std::string> fileNamesOf(const std::vector<Sample>& samples) {
    std::vector<std::string> names;
    names.reserve(samples.size());
    for (const auto& sample : samples)
        names.push_back(sample.path.filename().string());
    return names;
}

} // namespace

ValidationChain::ValidationChain(BatchSource& loader, const std::vector<Sample>& samples,
                                 const std::vector<std::string>& classNames, int imgsz,
                                 const std::filesystem::path& folder,
                                 std::function<void(const std::string&)> warn)
    : m_scorer(makeUltralyticsScorer(static_cast<int>(classNames.size()))),
      m_recorder(*m_scorer, recordedImagesOf(samples), classNames, imgsz,
                 run::RunFolder(folder).validation()),
      m_curves(*m_scorer, m_recorder, fileNamesOf(samples), classNames, run::RunFolder(folder).curves()),
      m_pictures(loader, m_recorder, folder, classNames, std::move(warn)) {}

ValidationChain::~ValidationChain() = default;

void ValidationChain::onEvent(const run::TrainEvent& event) {
    m_recorder.onEvent(event);
    m_curves.onEvent(event);
    m_pictures.onEvent(event);
}

} // namespace osprey::train
