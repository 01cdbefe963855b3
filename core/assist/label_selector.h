#pragma once
// Label selection ("what to label next"): ranks a project's unlabelled images by how much labelling them
// should help the model, and says per image why it was chosen.
//
// Strategies:
//   - uncertainty (the default): the model's uncertainty on each image, from three signals (ImageSignals):
//     boxes in the ambiguous score band, disagreement between the image and its horizontal mirror, and
//     two classes proposed at one place (the class-score margin). The most uncertain 3n images are then
//     spread over n scene groups (k-means on a cheap image embedding) and the most uncertain image of each
//     group is taken, so that 200 picks are not 200 frames of one scene.
//   - diversity: no model needed; n scene groups over all candidates, the image nearest each group's centre.
//   - random: a seeded shuffle (the baseline the others must beat).
//
// The ranked list is kept in the project (setting "assist.label_next") so that the editor's "Label next"
// queue and the CLI see the same list; auto-label of the picked images stores the model's proposals for
// review (autoLabel with ImageSelection::Listed).
//
// Thread affinity: selectForLabelling runs on the calling thread plus worker threads it joins before
// returning; the Project must belong to the calling thread; each predictor is used by one thread at a time.

#include "assist/box_predictor.h"
#include "common/expected.h"
#include "imaging/image.h"
#include "project/project.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace osprey::assist {

enum class SelectStrategy { Uncertainty, Diversity, Random };

std::optional<SelectStrategy> selectStrategyFromString(const std::string& text);
std::string toString(SelectStrategy strategy);
/// Whether the strategy runs a model on the candidates.
bool needsModel(SelectStrategy strategy);

/// The thresholds of the uncertainty signals.
struct SignalOptions {
    float lowConfidence = 0.05f; ///< proposals at or below this score are ignored
    /// Class confusion counts a pair of boxes only when the higher scores at least this (a box a user would
    /// be shown: the default confidence).
    float shownConfidence = defaultConfidence();
    float matchIou = 0.5f;    ///< a box and its mirrored counterpart are one object at this IoU or more
    float sameSpotIou = 0.7f; ///< two classes at one place: boxes of different classes overlapping this much
};

/// How uncertain the model is about one image; each signal in [0, 1].
struct ImageSignals {
    /// The share of the image's score mass that is ambiguous: sum(a_i s_i) / sum(s_i) over the proposals,
    /// a_i = 1 - |2 s_i - 1| (1 for a score of 0.5, 0 for 0 or 1). Confident boxes pull it down, faint ones
    /// weigh little, so it does not grow with the number of boxes.
    double ambiguity = 0;
    float mostAmbiguousScore = 0; ///< the score of the box closest to 0.5
    /// 1 - (score mass the image and its mirror agree on) / (their mean score mass): 0 when the mirrored
    /// image gives the same boxes (same class, IoU >= matchIou, same scores), 1 when nothing matches.
    double mirrorDisagreement = 0;
    /// The class-score margin as a ratio: max over pairs of boxes of different classes at one place (the
    /// higher at least shownConfidence) of lower score / higher score; 1 when the model cannot choose
    /// between two classes, 0 when no shown box has a rival class.
    double classConfusion = 0;
    int boxes = 0; ///< proposals above lowConfidence
    /// The ranking score: the mean of the three signals.
    double uncertainty() const { return (ambiguity + mirrorDisagreement + classConfusion) / 3.0; }
};

/// The signals of one image from its proposals and those of its mirror (already mapped back to the image's
/// coordinates), both by descending score.
ImageSignals imageSignals(const std::vector<Proposal>& proposals, const std::vector<Proposal>& mirrored,
                          const SignalOptions& options = {});

/// Mirrors proposals made on a horizontally flipped image back to the image (`width` pixels wide).
std::vector<Proposal> mirrorBack(std::vector<Proposal> proposals, int width);
/// The image flipped left to right.
imaging::Image mirrored(const imaging::Image& image);

/// A cheap embedding for scene grouping: the image shrunk to 8 x 8 per RGB channel (area mean), centred
/// and scaled to unit length (192 floats). Images of one scene are close; brightness shifts matter less.
std::vector<float> imageEmbedding(const imaging::Image& image);

/// Seeded k-means (k-means++ start, Lloyd steps until nothing moves or 30 steps) of `points` (all of one
/// dimension) into min(k, points) groups; returns each point's group.
std::vector<int> groupPoints(const std::vector<std::vector<float>>& points, int k, std::uint64_t seed);

/// One candidate image's measurements (what selection ranks).
struct Candidate {
    std::int64_t imageId = 0;
    std::string path;
    ImageSignals evidence;
    std::vector<float> embedding; ///< empty for the random strategy
};

struct SelectedImage {
    std::int64_t imageId = 0;
    std::string path;
    double score = 0; ///< the uncertainty (uncertainty strategy), else 0
    ImageSignals evidence;
    int group = -1;     ///< scene group, -1 for the random strategy
    int groupSize = 0;  ///< candidates in that group
    std::string reason; ///< one line, e.g. "uncertain 0.61: mirror disagreement 0.80, ..."
};

/// Picks `count` of `candidates` by `strategy` (pure: the ranking half of selectForLabelling). Order: most
/// useful first. Ties go to the lower image id.
std::vector<SelectedImage> rankCandidates(const std::vector<Candidate>& candidates, SelectStrategy strategy,
                                          int count, std::uint64_t seed);

struct SelectOptions {
    SelectStrategy strategy = SelectStrategy::Uncertainty;
    int count = 200;
    bool unlabeledOnly = true; ///< candidates: images with status new (else every image)
    std::uint64_t seed = 0;
    int imgsz = 0; ///< inference size, 0: the model's own
    SignalOptions signalOptions;
    int workers = 1; ///< images decoded and inferred at once; > 1 needs openPredictor with a model
    std::function<Expected<std::unique_ptr<BoxPredictor>>()> openPredictor;
};

struct SelectReport {
    std::vector<SelectedImage> picked;
    int candidates = 0; ///< images considered
    int measured = 0;   ///< of those, measured before a cancel (all when not cancelled)
    int failed = 0;     ///< unreadable images, skipped
    bool cancelled = false;
    double seconds = 0;
    std::vector<std::string> warnings;
};

/// Called after each measured image with (done, total); return false to stop (the picks then come from the
/// images measured so far, and the report says cancelled).
using SelectProgress = std::function<bool(int done, int total)>;

/// Measures the candidates (decode, the model on the image and its mirror, the embedding) and ranks them.
/// `predictor` may be null for the diversity and random strategies. Does not write to the project.
Expected<SelectReport> selectForLabelling(const project::Project& project, BoxPredictor* predictor,
                                          const SelectOptions& options, const SelectProgress& progress = {});

/// The "label next" queue kept in the project.
struct LabelNextItem {
    std::int64_t imageId = 0;
    std::string reason; ///< SelectedImage::reason (English)
    SelectStrategy strategy = SelectStrategy::Uncertainty;
    double score = 0;
    ImageSignals evidence; ///< what the reason says, for a front end that words it in another language
    int group = -1;
    int groupSize = 0;
};
/// Replaces the project's label-next queue with `picked`, with the strategy and model named.
Status saveLabelNextQueue(project::Project& project, const std::vector<SelectedImage>& picked,
                          SelectStrategy strategy, const std::string& model);
/// The queue as saved, minus images deleted since; empty when none was saved.
Expected<std::vector<LabelNextItem>> labelNextQueue(const project::Project& project);

} // namespace osprey::assist
