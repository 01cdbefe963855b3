#pragma once
// Private: how auto-label turns a list of image files into proposals, delivered in list order.
//   - Sequential: decode, then infer, on the calling thread (the reference loop).
//   - DecodeAhead: one thread decodes ahead while the calling thread infers.
//   - Parallel: N worker threads, each with its own predictor, decode and infer whole images; with one
//     compute thread per worker, N images are in flight on N cores and one image's decode overlaps
//     another's inference.
// Owned and drained by one thread; worker threads are joined when the pipeline is destroyed.

#include "assist/box_predictor.h"

#include <filesystem>
#include <memory>
#include <vector>

namespace osprey::assist::detail {

/// One image's result: proposals, or why not. `decodeFailed` tells an unreadable file (skipped) from a
/// predictor failure (which stops the run).
struct ImageOutcome {
    bool decodeFailed = false;
    Expected<std::vector<Proposal>> proposals = fail("not run");
};

class LabelPipeline {
public:
    virtual ~LabelPipeline() = default;
    /// The outcome of the next image in list order; blocks until it is ready. Call at most once per image.
    virtual ImageOutcome next() = 0;
};

std::unique_ptr<LabelPipeline> makeSequentialPipeline(std::vector<std::filesystem::path> paths,
                                                      BoxPredictor& predictor, const SuggestOptions& options);
/// `depth`: decoded images held ready at most.
std::unique_ptr<LabelPipeline> makeDecodeAheadPipeline(std::vector<std::filesystem::path> paths,
                                                       BoxPredictor& predictor, const SuggestOptions& options,
                                                       size_t depth);
/// One worker per predictor (each used by its worker only). `window`: images finished or in flight ahead
/// of the one the caller waits for, at most.
std::unique_ptr<LabelPipeline> makeParallelPipeline(std::vector<std::filesystem::path> paths,
                                                    std::vector<BoxPredictor*> predictors,
                                                    const SuggestOptions& options, size_t window);

} // namespace osprey::assist::detail
