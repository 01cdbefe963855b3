#pragma once
// Reads ground truth and detections from files into core/metrics' EvalSet, for `osprey-cli eval` and
// tests (core/metrics itself only scores values).
// Ground truth: a COCO JSON file, a folder of VOC XML files, or a folder of text files (one per image:
// the mAP tools' plain-text notation, or YOLO labels). Detections: a COCO results JSON (a list, or an
// object with "annotations") or a folder of text files. Errors name the file and the line or field.

#include "common/expected.h"
#include "metrics/eval_set.h"

#include <filesystem>
#include <string>
#include <vector>

namespace osprey::formats {

// The readers produce core/metrics' value types.
using metrics::BoxXyxy;
using metrics::DetectionBox;
using metrics::EvalSet;
using metrics::GroundTruthBox;
using metrics::ImageBoxes;

/// How the four numbers of a text line describe a box.
enum class BoxNotation {
    Xyxy,          ///< left top right bottom, pixels
    Xywh,          ///< left top width height, pixels
    YoloNormalized ///< centre-x centre-y width height, as fractions of the image size
};

/// Options for readEvalSet.
struct EvalReadOptions {
    BoxNotation notation =
        BoxNotation::Xyxy; ///< text files of detections, and of ground truth unless overridden
    bool truthNotationSet = false;
    BoxNotation truthNotation = BoxNotation::Xyxy; ///< used when truthNotationSet
    /// Class names by id (a darknet .names file): integer class tokens and COCO category ids index it.
    std::vector<std::string> classNames;
    /// Where to read image sizes for normalised boxes when the ground truth does not carry them.
    std::filesystem::path imagesDir;
    int imageWidthPx =
        0; ///< size to assume for every image when neither the ground truth nor imagesDir has it
    int imageHeightPx = 0;
    /// Round normalised boxes to whole pixels (left, top, width and height, half to even), as the mAP
    /// tools do when they convert relative coordinates; off by default, as in Ultralytics.
    bool roundNormalizedToPixels = false;
};

/// Reads a ground truth path and a detection path (see the file comment). Text lines:
/// ground truth `<class> <4 numbers> [difficult]`, detections `<class> <confidence> <4 numbers>`; blank
/// lines and lines starting with '#' are skipped. A missing or empty detection file means no detections.
/// A detection for an image that has no ground truth entry is an error.
Expected<EvalSet> readEvalSet(const std::filesystem::path& truthPath,
                              const std::filesystem::path& detectionPath,
                              const EvalReadOptions& options = {});

/// Reads class names, one per line (darknet obj.names); blank lines are skipped.
Expected<std::vector<std::string>> readClassNames(const std::filesystem::path& path);

/// Reads the pixel size of a JPEG, PNG or BMP file from its header.
Expected<std::pair<int, int>> readImageSizePx(const std::filesystem::path& path);

} // namespace osprey::formats
