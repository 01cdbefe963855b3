#pragma once
// Dataset: the in-memory value every importer produces and every exporter consumes. It sits between the
// file formats and the project database, so a format never touches SQLite and an import can be checked
// (strict mode, preview counts) before anything is written.
//
// Plain values; safe to move between threads, not to share mutably.

#include "project/types.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace osprey::formats {

/// One class of the dataset. Its index in Dataset::classes is the YOLO class index.
struct DatasetClass {
    std::string name;
    std::string color; ///< "#rrggbb", empty when the format has none
};

/// A box in image pixels, xyxy.
struct DatasetBox {
    int classIndex = 0; ///< index into Dataset::classes
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    project::BoxFlags flags;
    project::BoxSource source = project::BoxSource::Import;
    std::optional<double> score;
    std::int64_t id = 0; ///< project box id when read from a project; 0 otherwise
};

/// Whether the source had annotations for an image: this separates "not labeled yet" from a negative.
enum class LabelState {
    Missing, ///< no label file / no entry: unlabeled
    Empty,   ///< a label file (or entry) with no boxes: verified empty
    Present, ///< at least one box
};

struct DatasetImage {
    std::string name;                ///< file name as the source names it (e.g. "2007_000027.jpg")
    std::filesystem::path path;      ///< resolved image file; may not exist (then `found` is false)
    bool found = false;              ///< the image file exists
    std::filesystem::path labelPath; ///< label or annotation file it came from; empty when none
    int width = 0;
    int height = 0;
    std::string hash; ///< content hash (hex), empty when unknown
    project::ImageStatus status = project::ImageStatus::New;
    project::Split split = project::Split::None;
    bool splitLocked = false;
    LabelState labels = LabelState::Missing;
    std::vector<DatasetBox> boxes;
    std::int64_t id = 0; ///< project image id when read from a project; 0 otherwise
    /// The video a frame was cut from (as the project stores it), empty for other images: the splitter
    /// keeps the frames of one video in one split, as near-duplicates would otherwise leak across splits.
    std::string video;
};

struct Dataset {
    std::vector<DatasetClass> classes;
    std::vector<DatasetImage> images;

    std::size_t boxCount() const;
    /// Index of the class with this name, or -1.
    int classIndex(const std::string& name) const;
    /// Returns the index of `name`, adding the class at the end when missing.
    int ensureClass(const std::string& name);
};

/// The image status an importer assigns from what the source said about an image.
project::ImageStatus statusFor(LabelState labels);

} // namespace osprey::formats
