#pragma once
// Dataset statistics for `osprey-cli stats` and the GUI Statistics panel (which plots these vectors with
// QCustomPlot): per-class image and box counts by split, histograms of relative box width and height,
// and boxes per image. Plain data, computed from a formats::Dataset.

#include "common/expected.h"
#include "common/label_box.h"
#include "formats/dataset.h"
#include "project/project.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace osprey::quality {

/// Index into the per-split arrays: train, val, test, none.
inline constexpr int kSplitCount = 4;
int splitIndex(project::Split split);

struct ClassStats {
    std::string name;
    std::int64_t images = 0; ///< images with at least one box of the class
    std::int64_t boxes = 0;
    std::array<std::int64_t, kSplitCount> imagesBySplit{};
    std::array<std::int64_t, kSplitCount> boxesBySplit{};
};

/// Equal-width bins over [lower, upper]; values outside are clamped into the end bins.
struct Histogram {
    double lower = 0;
    double upper = 1;
    std::vector<std::int64_t> counts;
    double binWidth() const {
        return counts.empty() ? 0 : (upper - lower) / static_cast<double>(counts.size());
    }
};

/// A 2-D histogram over [0, 1]^2: counts[y * bins + x].
struct Histogram2D {
    int bins = 0;
    std::vector<std::int64_t> counts;
    std::int64_t at(int x, int y) const { return counts[static_cast<std::size_t>(y * bins + x)]; }
};

/// labels.jpg's box layout draws at most this many boxes, each centred, at its width and height.
inline constexpr std::size_t kLayoutBoxes = 1000;

struct DatasetStats {
    std::int64_t images = 0;
    std::int64_t boxes = 0;
    std::int64_t labeled = 0;       ///< images with boxes
    std::int64_t unlabeled = 0;     ///< status new without boxes
    std::int64_t verifiedEmpty = 0; ///< negatives
    std::array<std::int64_t, kSplitCount> imagesBySplit{};
    std::array<std::int64_t, kSplitCount> boxesBySplit{};
    std::vector<ClassStats> classes; ///< in class-list order
    Histogram relativeWidth;         ///< box width / image width
    Histogram relativeHeight;        ///< box height / image height
    /// labels.jpg's heat maps: box centres (x, y from the top) and box sizes (width, height), relative to
    /// their images, for the boxes of images whose size is known.
    Histogram2D centres, sizes;
    /// labels.jpg's box layout: up to kLayoutBoxes boxes of images whose size is known, evenly spread over
    /// the dataset (labels.jpg takes the first ones; a spread sample shows every part of a large set).
    std::vector<LabelBox> layout;
    /// boxesPerImage[k] = images with k boxes (the last entry counts k and more).
    std::vector<std::int64_t> boxesPerImage;
};

/// `bins` histogram bins for relative sizes (and `bins` x `bins` for the heat maps); boxes-per-image up to
/// `maxBoxesPerImage` (last bin is open).
DatasetStats computeStats(const formats::Dataset& dataset, int bins = 10, int maxBoxesPerImage = 20);
Expected<DatasetStats> projectStats(const project::Project& project, int bins = 10);

/// The boxes of the images in `split` whose size is known.
std::vector<LabelBox> labelBoxes(const formats::Dataset& dataset, project::Split split);

/// Readable text (tables and bar-chart histograms) and JSON.
std::string toText(const DatasetStats& stats);
std::string toJson(const DatasetStats& stats);

} // namespace osprey::quality
