#pragma once
// SuggestionEngine: the predictor behind the editor's proposals, run off the GUI thread. It keeps the
// loaded model between suggestions (reloading when the source or its revision changes: a followed best.pt
// rewritten in place), decodes the image and predicts raw candidates (low threshold, no NMS: the sliders
// filter them). Shared with the worker, so a suggestion still running when the editor goes away finishes
// safely. Thread-safe: calls are serialised (BoxPredictor is not thread-safe).

#include "assist/box_predictor.h"
#include "common/expected.h"
#include "ui/assist/proposal_set.h"

#include <QString>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace osprey::ui {

class SuggestionEngine {
public:
    /// Candidates below this score are dropped by the predictor; the confidence slider starts here.
    static constexpr float kRawConfidence = 0.01f;

    struct Result {
        QString error; ///< empty on success
        std::vector<assist::Proposal> proposals;
        std::vector<std::string> names; ///< the model's class names
    };

    /// Predicts on the image file `imagePath` with `source` (loaded unless it is the model in memory at
    /// `revision`). Any thread; blocks while another call runs.
    Result run(const assist::ModelSource& source, std::int64_t revision, const std::string& imagePath);

private:
    std::mutex m_mutex;
    assist::ModelSource m_loaded;
    std::int64_t m_revision = 0;
    std::unique_ptr<assist::BoxPredictor> m_predictor;
};

class ProjectDocument;

/// A prediction's proposals as candidates of the project's classes.
struct MappedProposals {
    std::vector<ProposalSet::Candidate> candidates;
    std::size_t addedClasses = 0; ///< the model's classes added to a project that had none
    int mappedClasses = 0;        ///< model classes that map to a project class
};

/// Maps the model's classes to the project's by name (or by the mapping saved for the model file
/// `modelKey`); a project without classes first takes the model's. Proposals of unmapped classes are
/// dropped. The error is the mapping's. GUI thread (it may edit the project's classes).
Expected<MappedProposals> mapProposals(ProjectDocument& document, const SuggestionEngine::Result& prediction,
                                       const std::string& modelKey);

} // namespace osprey::ui
