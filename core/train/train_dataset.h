#pragma once
// The training data of a project, read from its database: per split the image files and their boxes
// with class indices in class-list order. Verified-empty images are kept as negatives; images still
// "new" (not labeled yet) and crowd boxes are left out; missing or unreadable files are skipped with a
// warning. Plain values; no torch, no OpenCV. readProjectData() runs on the calling thread and opens its
// own Project.

#include "common/expected.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace osprey::train {

/// One box in pixels of the original image (xyxy), with its class index (position in the class list).
struct SampleBox {
    int classId = 0;
    float x1 = 0, y1 = 0, x2 = 0, y2 = 0;
};

/// One image to train or validate on.
struct Sample {
    std::int64_t imageId = 0;
    std::filesystem::path path; ///< absolute
    std::vector<SampleBox> boxes;
};

struct SplitSamples {
    std::vector<Sample> samples;
    std::int64_t boxes = 0;
    std::int64_t negatives = 0; ///< verified-empty images
};

struct ProjectData {
    std::vector<std::string> classNames;
    SplitSamples train, val;
    std::vector<std::string> warnings; ///< skipped files, with the reason
};

/// Reads the train and val splits. `checkFiles` probes each file's header (cheap) so that unreadable
/// images are skipped up front.
Expected<ProjectData> readProjectData(const std::filesystem::path& projectFolder, bool checkFiles = true);

} // namespace osprey::train
