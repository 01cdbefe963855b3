#pragma once
// Private: how auto-label and label selection turn a list of image files into per-image results (an
// ImageWork run on each decoded image), delivered in list order.
//   - Sequential: decode, then work, on the calling thread (the reference loop).
//   - DecodeAhead: one thread decodes ahead while the calling thread works.
//   - Parallel: N worker threads, each with its own predictor, decode and work on whole images; with one
//     compute thread per worker, N images are in flight on N cores and one image's decode overlaps
//     another's inference.
// Owned and drained by one thread; worker threads are joined when the pipeline is destroyed.

#include "assist/box_predictor.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <vector>

namespace osprey::assist::detail {

/// What the work found on one image. Auto-label fills `proposals`; label selection also the proposals on
/// the mirrored image and the image's embedding (label_selector.h).
struct ImageAnalysis {
    std::vector<Proposal> proposals;
    std::vector<Proposal> mirrored; ///< proposals on the horizontally flipped image, mapped back
    std::vector<float> embedding;
};

/// The work done on each decoded image with the worker's predictor (null when the pipeline has none).
using ImageWork =
    std::function<Expected<ImageAnalysis>(const imaging::Image& image, BoxPredictor* predictor)>;

/// The work of auto-label: the predictor's proposals.
ImageWork proposalWork(const SuggestOptions& options);

/// One image's result, or why not. `decodeFailed` tells an unreadable file (skipped) from a work failure
/// (which stops the run).
struct ImageOutcome {
    bool decodeFailed = false;
    Expected<ImageAnalysis> analysis = fail("not run");
};

class LabelPipeline {
public:
    virtual ~LabelPipeline() = default;
    /// The outcome of the next image in list order; blocks until it is ready. Call at most once per image.
    virtual ImageOutcome next() = 0;
};

std::unique_ptr<LabelPipeline> makeSequentialPipeline(std::vector<std::filesystem::path> paths,
                                                      BoxPredictor* predictor, ImageWork work);
/// `depth`: decoded images held ready at most.
std::unique_ptr<LabelPipeline> makeDecodeAheadPipeline(std::vector<std::filesystem::path> paths,
                                                       BoxPredictor* predictor, ImageWork work, size_t depth);
/// One worker per entry of `predictors` (each used by its worker only; entries may be null when the work
/// needs no model). `window`: images finished or in flight ahead of the one the caller waits for, at most.
std::unique_ptr<LabelPipeline> makeParallelPipeline(std::vector<std::filesystem::path> paths,
                                                    std::vector<BoxPredictor*> predictors, ImageWork work,
                                                    size_t window);

} // namespace osprey::assist::detail
