#pragma once
// YoloFormat: YOLO text labels (`class cx cy w h`, normalised), in every common layout:
// - Ultralytics: a data.yaml whose `path`, `train`, `val` and `test` are folders, list files or lists of
//   them; `names` as a list or a dict; images/<split> + labels/<split> or <split>/images + <split>/labels.
// - Darknet: obj.data (classes, train, valid, names) with obj.names and train.txt.
// - Loose folders: labels next to the images or in a labels/ twin folder, with classes.txt or obj.names.
// Ultralytics segment lines (`class x1 y1 x2 y2 ...`) import as the polygon's bounding box.
//
// Writes the Ultralytics layout: data.yaml, images/<split>/ and labels/<split>/.

#include "formats/format.h"

namespace osprey::formats {

class YoloFormat final : public Format {
public:
    std::string name() const override { return "yolo"; }
    std::string description() const override;
    int detect(const std::filesystem::path& source) const override;
    Expected<ReadResult> read(const ReadOptions& options) const override;
    bool canWrite() const override { return true; }
    Expected<WriteReport> write(const Dataset& dataset, const WriteOptions& options) const override;
};

} // namespace osprey::formats
