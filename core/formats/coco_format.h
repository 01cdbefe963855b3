#pragma once
// CocoFormat: COCO instances JSON ("object detection" annotations).
// - One file per split (instances_train.json, instances_val.json, Roboflow's <split>/_annotations.coco.json)
//   or one file only; the split is taken from the file or folder name.
// - Category ids need not be contiguous; classes keep the categories' order.
// - iscrowd annotations are kept with the crowd flag, or skipped and counted (ReadOptions::crowd).
// - A polygon without a bbox gets the polygon's bounding box.
// - Image sizes come from the JSON and are checked against the file when it is present.
// - Image files are looked for where the JSON implies, in images=DIR, then anywhere in the source tree by
//   relative path or stem; a file_name reaching outside the source and images=DIR (../, absolute) is
//   refused. An image whose file exists but cannot be read is skipped with its boxes.
// - A negative width or height, zero-size boxes and boxes wholly outside the image are errors; boxes
//   reaching outside are clamped (util::checkBox). Two categories with one name share the class (a
//   warning says so); invalid UTF-8 in a name is replaced by U+FFFD (a warning).
// - A missing iscrowd reads as 0 and a file without "annotations" as an image-info file (images import as
//   unlabeled); both with a warning.
//
// Writes annotations/instances_<split>.json and images/<split>/.

#include "formats/format.h"

namespace osprey::formats {

class CocoFormat final : public Format {
public:
    std::string name() const override { return "coco"; }
    std::string description() const override;
    int detect(const std::filesystem::path& source) const override;
    Expected<ReadResult> read(const ReadOptions& options) const override;
    bool canWrite() const override { return true; }
    Expected<WriteReport> write(const Dataset& dataset, const WriteOptions& options) const override;

    /// The JSON files a source stands for: the file itself, or the COCO files found in the folder (its
    /// top, annotations/, <split>/_annotations.coco.json; else anywhere in the tree, from `scan` or a walk).
    static std::vector<std::filesystem::path> annotationFiles(const std::filesystem::path& source,
                                                              const LayoutScan* scan = nullptr);
};

} // namespace osprey::formats
