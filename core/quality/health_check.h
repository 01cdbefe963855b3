#pragma once
// Dataset health check: finds the problems that silently hurt training (missing or corrupt images, boxes
// out of bounds or too small to learn at the training size, duplicates, ...). Works on a formats::Dataset,
// so it checks a project (via formats::readProject) or a source folder before import alike.
//
// Runs on the calling thread and may take long (it decodes every image when asked); progress and cancel
// go through formats::Progress. The report is plain data for `osprey-cli validate` and the GUI panel.

#include "common/expected.h"
#include "formats/dataset.h"
#include "formats/format.h"
#include "formats/problem.h"
#include "project/project.h"

#include <cstdint>
#include <string>
#include <vector>

namespace osprey::quality {

/// The checks, in report order.
enum class Check {
    MissingImage,      ///< the image file does not exist
    CorruptImage,      ///< the file cannot be decoded
    LabelWithoutImage, ///< a label file with no image (source folders)
    ImageWithoutLabel, ///< no label file / never labeled (kept apart from EmptyLabel)
    EmptyLabel,        ///< an empty label file / verified-empty image (information, not an error)
    BoxOutOfBounds,    ///< a box reaches outside the image
    BoxDegenerate,     ///< zero or negative width or height
    BoxDuplicate,      ///< same class and IoU above the threshold with another box of the image
    DuplicateImage,    ///< same content hash as an earlier image
    ClassOutOfRange,   ///< a class id outside the class list
    BoxTooSmall,       ///< smaller than the minimum once resized to the training imgsz
    ExifRotated,       ///< the EXIF orientation changes the image's size
    SizeMismatch,      ///< the stored size differs from the file
};

/// "missing_image", "box_too_small", ... (stable keys for JSON).
std::string checkKey(Check check);
/// "missing image files", ... (table headings).
std::string checkTitle(Check check);

enum class Severity { Error, Warning, Info };
Severity checkSeverity(Check check);

struct HealthOptions {
    int imgsz = 640;            ///< training size: the long side is resized to this
    double minBoxPx = 4;        ///< BoxTooSmall below this many pixels at imgsz
    double duplicateIoU = 0.95; ///< BoxDuplicate above this IoU (same class)
    bool decode = true;         ///< decode every image to find corrupt ones (slow); else headers only
    formats::Progress progress;
};

struct HealthIssue {
    Check check = Check::MissingImage;
    std::int64_t imageId = 0; ///< project image id (0 for source folders)
    std::int64_t boxId = 0;   ///< project box id when the issue is about one box
    std::string path;         ///< the image (or label) file, for the GUI to jump to
    std::string detail;       ///< what exactly, e.g. "box 3 (person) x2=642.5 > width 640"
};

struct HealthReport {
    std::int64_t images = 0;
    std::int64_t boxes = 0;
    std::vector<HealthIssue> issues;

    std::int64_t count(Check check) const;
    /// True when no issue of severity Error was found.
    bool healthy() const;
};

/// Checks `dataset`. `readProblems` are the reader's problems when the dataset comes from a source folder
/// (label files without images and class ids outside the list are only visible there).
Expected<HealthReport> checkDataset(const formats::Dataset& dataset, const HealthOptions& options,
                                    const std::vector<formats::Problem>& readProblems = {});

/// Reads the project and checks it.
Expected<HealthReport> checkProject(const project::Project& project, const HealthOptions& options);

/// A readable table: one line per check with its count, then the issues (at most `maxPerCheck` each).
std::string toTable(const HealthReport& report, int maxPerCheck = 20);
/// JSON:
/// {"images":..,"boxes":..,"healthy":..,"counts":{key:n},"issues":[{check,image_id,box_id,path,detail}]}
std::string toJson(const HealthReport& report);

} // namespace osprey::quality
