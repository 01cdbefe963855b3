#pragma once
// CocoJsonReader: streams one COCO instances JSON file (SAX, no DOM) into flat records, keeping the field
// path of every value so that each problem names it ("annotations[3].bbox"). Private to core/formats;
// CocoFormat turns the records into a Dataset.

#include "common/expected.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace osprey::formats::coco {

/// A field's presence and type as seen in the file.
enum class FieldState : std::uint8_t { Absent, Ok, BadType };

struct RawCategory {
    std::int64_t id = 0;
    std::string name;
    FieldState idState = FieldState::Absent;
    FieldState nameState = FieldState::Absent;
};

struct RawImage {
    std::int64_t id = 0;
    int width = 0;
    int height = 0;
    std::string fileName;
    FieldState idState = FieldState::Absent;
    FieldState widthState = FieldState::Absent;
    FieldState heightState = FieldState::Absent;
    FieldState fileNameState = FieldState::Absent;
};

enum class Segmentation : std::uint8_t { None, Polygons, Rle };

struct RawAnnotation {
    std::int64_t id = 0;
    std::int64_t imageId = 0;
    std::int64_t categoryId = 0;
    double bbox[4] = {0, 0, 0, 0};
    int bboxCount = 0;         ///< values found in "bbox" (4 when valid)
    bool bboxBadValue = false; ///< a non-number inside "bbox"
    bool crowd = false;
    Segmentation segmentation = Segmentation::None;
    double polyMin[2] = {1e300, 1e300}; ///< bounding box of all polygon points
    double polyMax[2] = {-1e300, -1e300};
    std::string polygonProblem; ///< e.g. "segmentation[0]: 3 coordinates, not divisible by 2"
    FieldState idState = FieldState::Absent;
    FieldState imageIdState = FieldState::Absent;
    FieldState categoryIdState = FieldState::Absent;
    FieldState bboxState = FieldState::Absent;
    FieldState crowdState = FieldState::Absent;
};

struct RawFile {
    bool hasImages = false, hasAnnotations = false, hasCategories = false;
    std::vector<RawCategory> categories;
    std::vector<RawImage> images;
    std::vector<RawAnnotation> annotations;
    std::int64_t notObjects = 0; ///< items of images/annotations/categories that are not objects
};

/// Parses `path`. Fails on unreadable files and JSON syntax errors (with line and column) and when the
/// top level is not an object; field-level problems are left in the records for the caller to report.
Expected<RawFile> readCocoJson(const std::filesystem::path& path, const std::string& displayName);

} // namespace osprey::formats::coco
