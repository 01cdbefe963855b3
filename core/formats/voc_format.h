#pragma once
// VocFormat: Pascal VOC XML, one <annotation> file per image.
// - Annotations/*.xml with JPEGImages/ (the VOC layout), or a flat folder of XML files whose images are
//   beside them or in images=DIR.
// - Fractional coordinates are kept; w = xmax - xmin (no +1).
// - <difficult> and <truncated> become box flags; an object without <bndbox> is reported and skipped.
// - ImageSets/Main/{train,val,test,trainval}.txt become splits; labelmap.txt fixes the class order.
// - An image (in JPEGImages or a subset list) with no XML imports as unlabeled, with a warning.
//
// Writes Annotations/, JPEGImages/ and ImageSets/Main/<split>.txt.

#include "formats/format.h"

namespace osprey::formats {

class VocFormat final : public Format {
public:
    std::string name() const override { return "voc"; }
    std::string description() const override;
    int detect(const std::filesystem::path& source) const override;
    Expected<ReadResult> read(const ReadOptions& options) const override;
    bool canWrite() const override { return true; }
    Expected<WriteReport> write(const Dataset& dataset, const WriteOptions& options) const override;
};

} // namespace osprey::formats
