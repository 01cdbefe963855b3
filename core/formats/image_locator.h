#pragma once
// ImageLocator: finds the image file behind a name from an annotation file. It tries the paths the source
// implies first, then images=DIR, where files are matched by name (or by stem when a label file only
// gives a stem), then (when pairing is on) every image found in the source tree and images=DIR, paired
// by relative path, then by stem (formats/layout_scan.h). It counts how each image was found so the
// import can report the matching.
//
// Not thread-safe; one per read.

#include "formats/format.h"
#include "formats/layout_scan.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace osprey::formats {

class ImageLocator {
public:
    /// `imagesDir` may be empty (then only the implied paths are tried).
    explicit ImageLocator(std::filesystem::path imagesDir);

    /// Turns on the last resort: pairing with the images of `scan` (the source tree; walked on first use
    /// when null) and of images=DIR, by relative path then stem.
    void enablePairing(std::filesystem::path treeRoot, std::shared_ptr<const LayoutScan> scan);

    /// The first existing candidate, else the file called `fileName` (its last component) in images=DIR,
    /// else (pairing on) the image whose path ends like `pairKey` (default: `fileName`), preferring one in
    /// `besideDir`.
    std::optional<std::filesystem::path> locate(const std::vector<std::filesystem::path>& candidates,
                                                const std::string& fileName,
                                                const std::filesystem::path& pairKey = {},
                                                const std::filesystem::path& besideDir = {});
    /// An image in images=DIR whose stem is `stem` (any image extension).
    std::optional<std::filesystem::path> locateStem(const std::string& stem);

    /// Lines such as "matched 100 of 100 images by name in /data/images".
    std::vector<std::string> notes() const;
    std::int64_t foundBeside() const { return m_beside; }
    std::int64_t foundByName() const { return m_byName; }
    std::int64_t foundByPairing() const { return m_paired; }
    std::int64_t notFound() const { return m_missing; }

private:
    void buildIndex();

    std::filesystem::path m_imagesDir;
    bool m_indexed = false;
    std::unordered_map<std::string, std::filesystem::path> m_byFileName;
    std::unordered_map<std::string, std::filesystem::path> m_byStemName;
    std::int64_t m_beside = 0;
    std::int64_t m_byName = 0;
    std::int64_t m_missing = 0;
    std::int64_t m_paired = 0;
    bool m_pairing = false;
    std::filesystem::path m_treeRoot;
    std::shared_ptr<const LayoutScan> m_scan;
    std::optional<ImagePairIndex> m_pairIndex;
};

/// True for the image extensions Osprey imports (jpg, jpeg, png, bmp, tif, tiff, webp), any case.
bool isImageFile(const std::filesystem::path& path);

/// Image files under `dir`, sorted by path. Hidden folders are skipped.
std::vector<std::filesystem::path> listImageFiles(const std::filesystem::path& dir, bool recursive);

/// Fills width, height and hash of a found image as `probe` asks. Problems name `displayName`.
/// Returns false (and records an error) when the file cannot be read as an image.
bool probeImage(DatasetImage& image, ImageProbe probe, const std::string& displayName, ProblemList& problems);

/// `path` relative to `base` when it lies below it, else as is; for messages.
std::string displayPath(const std::filesystem::path& path, const std::filesystem::path& base);

} // namespace osprey::formats
