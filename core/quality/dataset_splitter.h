#pragma once
// Train/val/test split: seeded and reproducible, stratified by class, keeps images with identical content
// and the frames of one video in the same split (no leakage: neighbouring frames are near-duplicates), and
// leaves images locked to a split where they are.
// Pure functions on a formats::Dataset; applySplit writes the plan in one transaction.

#include "common/expected.h"
#include "formats/dataset.h"
#include "project/project.h"

#include <cstdint>
#include <vector>

namespace osprey::quality {

struct SplitOptions {
    double train = 0.8; ///< fractions; normalised when they do not sum to 1
    double val = 0.2;
    double test = 0;
    std::uint64_t seed = 0;
};

/// The split each image of the dataset gets, in dataset order.
struct SplitPlan {
    std::vector<project::Split> splits;
    std::int64_t changed = 0;           ///< images whose split differs from the dataset's
    std::int64_t locked = 0;            ///< images left where they were because they are locked
    std::int64_t groupedDuplicates = 0; ///< images that followed an identical image
    std::int64_t groupedFrames = 0;     ///< video frames that followed another frame of their video
};

/// Computes the plan. Images without a hash are hashed from their file when it exists.
Expected<SplitPlan> planSplit(const formats::Dataset& dataset, const SplitOptions& options);

/// Writes the plan (dataset read from `project` with formats::readProject) in one transaction.
Status applySplit(project::Project& project, const formats::Dataset& dataset, const SplitPlan& plan);

} // namespace osprey::quality
