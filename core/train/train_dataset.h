#pragma once
// The training data the data pipeline takes: per split the image files and their boxes with class
// indices in class-list order. core/job reads them from a project (job/project_data.h). Plain values; no
// torch, no OpenCV.

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

} // namespace osprey::train
