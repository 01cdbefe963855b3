#pragma once
// Batch auto-label: runs a BoxPredictor over a project's images and stores the proposals as boxes with
// source=model and their scores. An image that receives boxes ends up `labeled` (a `reviewed` one is set
// back to `labeled`), which together with its model boxes marks it as needing review (review_queue.h).
// Each batch of images is one transaction, so a cancel or a crash loses at most one batch.
//
// Pipelining: by default one thread decodes ahead while the calling thread infers and stores. With
// workers = N > 1, N threads each decode and infer whole images on their own predictor (opened with
// openPredictor) and the calling thread stores the results in order; give each worker one compute thread
// (model::setComputeThreads(1) for checkpoints) so that N images run on N cores.
//
// Thread affinity: runs on the calling thread (plus the threads it owns and joins before returning); the
// Project must belong to the calling thread; the predictor is used by one thread at a time.

#include "assist/box_predictor.h"
#include "common/expected.h"
#include "project/project.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace osprey::assist {

/// Whether model classes missing from the project are added to it.
enum class AddClasses {
    Auto, ///< yes when the project has no classes yet, otherwise no
    Yes,
    No,
};

/// For each model class, the project class id it maps to (by name, case-insensitive), or none.
struct ClassMapping {
    std::vector<std::optional<std::int64_t>> projectClassIds;
    int mappedCount() const;
};

/// Maps model classes to project classes by name; adds the missing ones per `addClasses` (one
/// transaction). Unmapped model classes are ignored by the auto-labeler. With a `modelKey` (e.g. the model
/// file name), a mapping saved for that model with saveClassMapping overrides the by-name match for the
/// classes it lists (a saved "none" keeps a class unmapped).
Expected<ClassMapping> mapClassesByName(project::Project& project, const std::vector<std::string>& modelNames,
                                        AddClasses addClasses, const std::string& modelKey = {});

/// Saves an edited mapping for `modelKey` in the project settings ("assist.class_map.<key>").
Status saveClassMapping(project::Project& project, const std::string& modelKey,
                        const std::vector<std::string>& modelNames, const ClassMapping& mapping);

enum class ImageSelection {
    Unlabeled, ///< status new
    All,
    Split,  ///< the images of AutoLabelOptions::split
    Listed, ///< AutoLabelOptions::imageIds, in that order
};
enum class WriteMode {
    Add,     ///< keep the image's boxes and add the proposals
    Replace, ///< delete the image's earlier source=model boxes first (manual and imported boxes stay)
};
enum class Pipelining { Pipelined, Sequential };

struct AutoLabelOptions {
    ImageSelection images = ImageSelection::Unlabeled;
    project::Split split = project::Split::Val; ///< with ImageSelection::Split
    std::vector<std::int64_t> imageIds;         ///< with ImageSelection::Listed
    SuggestOptions suggest;
    WriteMode mode = WriteMode::Add;
    AddClasses addClasses = AddClasses::Auto;
    int batchSize = 16; ///< images per transaction
    Pipelining pipelining = Pipelining::Pipelined;
    int workers = 1; ///< images decoded and inferred at once (Pipelined only); > 1 needs openPredictor
    /// Opens another predictor like the one passed to autoLabel, one per extra worker.
    std::function<Expected<std::unique_ptr<BoxPredictor>>()> openPredictor;
    std::string mappingKey; ///< model key of a saved class mapping (see mapClassesByName); empty: by name
};

struct AutoLabelReport {
    int images = 0;   ///< images processed
    int labeled = 0;  ///< images that received at least one box
    int boxes = 0;    ///< boxes stored
    int failed = 0;   ///< images that could not be decoded (skipped)
    int reopened = 0; ///< reviewed images that received model boxes and were set back to labeled
    bool cancelled = false;
    double seconds = 0;
    std::vector<std::string> warnings; ///< one line per skipped image
};

/// Called after each stored batch with (done, total); return false to stop after that batch.
using AutoLabelProgress = std::function<bool(int done, int total)>;

/// Parses "unlabeled", "all" or "split:val" into `options`.
Status parseImageSelection(const std::string& text, AutoLabelOptions& options);

Expected<AutoLabelReport> autoLabel(project::Project& project, BoxPredictor& predictor,
                                    const AutoLabelOptions& options, const AutoLabelProgress& progress = {});

} // namespace osprey::assist
