#pragma once
// LayoutScan: one bounded walk of a dataset folder that finds the label files wherever they are (VOC XML
// in any folder, YOLO .txt beside the images or in a parallel folder, COCO JSON anywhere, data.yaml and
// obj.data) and the images, so that detection and the readers do not depend on conventional folder names.
// The walk stops at kMaxScanDepth levels and kMaxScanFiles files and says so (`truncated`). Hidden folders
// are skipped. Also pairs label files with images: by relative path first, then by file stem.
//
// Plain values; scanLayout may run on any thread.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace osprey::formats {

/// Folder levels below the source the scan descends (the source itself is level 0).
constexpr int kMaxScanDepth = 8;
/// Directory entries the scan looks at before it stops.
constexpr std::size_t kMaxScanFiles = 500000;

struct LayoutScan {
    std::filesystem::path root;
    std::vector<std::filesystem::path> images;      ///< every image file, sorted
    std::vector<std::filesystem::path> vocXml;      ///< XML files with an <annotation> root, sorted
    std::vector<std::filesystem::path> yoloTxt;     ///< .txt files whose first box line is a YOLO line
    std::vector<std::filesystem::path> cocoJson;    ///< JSON files that name COCO top-level keys
    std::vector<std::filesystem::path> descriptors; ///< data.yaml / *.yaml with names / obj.data
    std::size_t entries = 0;                        ///< directory entries looked at
    bool truncated = false;                         ///< a depth or file limit was hit

    std::size_t labelFiles() const { return vocXml.size() + yoloTxt.size() + cocoJson.size(); }
};

/// Walks `root` (a folder) within the limits. A regular file gives an empty scan rooted at its folder.
LayoutScan scanLayout(const std::filesystem::path& root);

/// "164 images in images/" style text for a list of files: the count and the folders (relative to
/// `root`, the three largest, then "and N more folders").
std::string describeFiles(const std::vector<std::filesystem::path>& files, const std::filesystem::path& root,
                          const std::string& what);

/// What a scan found, in one line for the error of a failed import ("found 164 VOC XML annotations in
/// annots/, 164 images in images/").
std::string describeScan(const LayoutScan& scan);

/// Pairs files with images by relative path, then by stem. Index the images once; each lookup takes a
/// label (or a name from an annotation) and returns the image whose path shares the longest trailing run
/// of components (extensions ignored) with it, preferring one in the label's own folder on a tie.
class ImagePairIndex {
public:
    ImagePairIndex() = default;
    explicit ImagePairIndex(const std::vector<std::filesystem::path>& images);

    /// The image for `key` (a label file path or an annotation's file name; extension ignored).
    /// `besideDir`, when not empty, breaks ties in favour of images in that folder.
    std::optional<std::filesystem::path> find(const std::filesystem::path& key,
                                              const std::filesystem::path& besideDir = {}) const;
    bool empty() const { return m_byStem.empty(); }

private:
    std::unordered_map<std::string, std::vector<std::size_t>> m_byStem;
    std::vector<std::vector<std::string>> m_parts; ///< components of each image path, stem last
    std::vector<std::filesystem::path> m_images;
};

} // namespace osprey::formats
