#pragma once
// CurvesRecorder: keeps <run>/curves.json (run/run_curves.h) describing the best model. On each `epoch`
// event that improved the fitness it takes the curves and per-image counts of that validation from the
// run's UltralyticsScorer and the confusion matrix from its ValidationRecorder, and rewrites the file
// atomically. A validation that could not be recorded (another number of images than the val set, as in
// a val set split between processes) leaves the file as it was, with one warning. No torch.
//
// Thread affinity: the training thread (the events it emits there).

#include "run/train_events.h"

#include <filesystem>
#include <string>
#include <vector>

namespace osprey::train {

class UltralyticsScorer;
class ValidationRecorder;

class CurvesRecorder : public run::EventSink {
public:
    /// `imageNames` are the val images' file names in validation order. Add it to the sink after
    /// `validation`, so that the epoch's validation is written there first.
    CurvesRecorder(const UltralyticsScorer& scorer, const ValidationRecorder& validation,
                   std::vector<std::string> imageNames, std::vector<std::string> classNames,
                   std::filesystem::path file);

    void onEvent(const run::TrainEvent& event) override;

private:
    const UltralyticsScorer& m_scorer;
    const ValidationRecorder& m_validation;
    std::vector<std::string> m_imageNames;
    std::vector<std::string> m_classNames;
    std::filesystem::path m_file;
    bool m_warned = false;
};

} // namespace osprey::train
