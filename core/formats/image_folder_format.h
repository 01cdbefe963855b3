#pragma once
// ImageFolderFormat: a plain folder of images (searched recursively). Every image imports as unlabeled;
// folders named train/val/test set the split. Read-only.

#include "formats/format.h"

namespace osprey::formats {

class ImageFolderFormat final : public Format {
public:
    std::string name() const override { return "images"; }
    std::string description() const override { return "a plain folder of images, imported as unlabeled"; }
    int detect(const std::filesystem::path& source) const override;
    Expected<ReadResult> read(const ReadOptions& options) const override;
};

} // namespace osprey::formats
