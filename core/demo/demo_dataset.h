#pragma once
// The built-in demo project: a synthetic detection dataset of coloured shapes (circle, square, triangle,
// star) on noisy textured backgrounds, written as JPEG files and imported into a new project.
// The same seed gives byte-identical files and identical boxes. Runs on the calling thread.

#include "common/expected.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace osprey::demo {

struct DemoOptions {
    int images = 500;
    int imageSizePx = 320; ///< images are square, this many pixels on a side
    std::uint64_t seed = 0;
    double trainFraction = 0.8;
    int jpegQuality = 90;
};

/// One generated object, in image pixels (xyxy).
struct DemoObject {
    int classIndex = 0; ///< 0 circle, 1 square, 2 triangle, 3 star
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
};

/// One generated image: its pixels (RGB) and its objects.
struct DemoImage {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> rgb;
    std::vector<DemoObject> objects;
};

inline const std::vector<std::string>& demoClassNames() {
    static const std::vector<std::string> kNames{"circle", "square", "triangle", "star"};
    return kNames;
}

/// Renders image `index` of the dataset for `options` (deterministic in seed and index).
DemoImage renderDemoImage(const DemoOptions& options, int index);

/// Called with (done, total); return false to cancel.
using Progress = std::function<bool(int done, int total)>;

/// Generates the dataset into `folder`/images and creates the project there. Fails if a project already
/// exists. On failure or cancel, nothing is left behind that looks like a finished project.
Status createDemoProject(const std::filesystem::path& folder, const DemoOptions& options,
                         const Progress& progress = {});

} // namespace osprey::demo
