#pragma once
// Review queue: the images whose model boxes a person has not checked yet, ordered so that the likeliest
// mistakes come first.
//
// "Needs review" without a schema change: an image needs review when its status is `labeled` and it has
// at least one box with source=model. Auto-label stores its proposals that way (and sets a `reviewed`
// image back to `labeled` when it adds boxes to it); marking the image `reviewed` (or `verified_empty`)
// takes it out of the queue. The boxes keep source=model and their scores after review.
//
// Thread affinity: runs on the calling thread; the Project must belong to it.

#include "common/expected.h"
#include "project/project.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace osprey::assist {

enum class ReviewOrder {
    Confidence,   ///< lowest mean score of the image's model boxes first
    Disagreement, ///< most false positives + missed boxes against the manual/imported labels first
};

struct ReviewOptions {
    ReviewOrder order = ReviewOrder::Confidence;
    double iouThreshold = 0.5; ///< a model box matches a label of the same class at this IoU or more
    int limit = 0;             ///< at most this many items; <= 0: all
};

/// How a set of model boxes compares with the reference labels of the same image.
struct BoxAgreement {
    int matched = 0;        ///< model boxes matched to a label (same class, IoU >= threshold)
    int falsePositives = 0; ///< model boxes that match no label
    int missed = 0;         ///< labels that no model box matches
};

struct ReviewItem {
    std::int64_t imageId = 0;
    std::string path;
    int modelBoxes = 0;
    int referenceBoxes = 0;          ///< manual and imported boxes
    std::optional<double> meanScore; ///< mean score of the model boxes (none when no box has a score)
    BoxAgreement agreement;          ///< model boxes against the reference boxes
    int disagreement() const { return agreement.falsePositives + agreement.missed; }
};

struct ReviewQueue {
    std::vector<ReviewItem> items; ///< in review order, cut to the limit
    int needingReview = 0;         ///< images that need review (before the limit)
    /// Disagreement order only: images that need review but have no manual or imported labels to compare
    /// with; they are left out of that order (the confidence order lists them).
    int withoutLabels = 0;
};

/// Greedy matching as in detection evaluation: model boxes by descending score, each to the unmatched
/// label of the same class with the highest IoU at or above `iouThreshold`.
BoxAgreement compareBoxes(const std::vector<project::BoxRecord>& model,
                          const std::vector<project::BoxRecord>& reference, double iouThreshold);

/// Builds the queue in one pass over the project's boxes. Ties go to the lower mean score, then to the
/// lower image id; images whose model boxes have no score come first in confidence order.
Expected<ReviewQueue> reviewQueue(const project::Project& project, const ReviewOptions& options = {});

/// "confidence" or "disagreement".
std::optional<ReviewOrder> reviewOrderFromString(const std::string& text);

} // namespace osprey::assist
