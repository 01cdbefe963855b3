#pragma once
// Private to core/formats: the YOLO reader. yolo_listing.cpp finds the images a dataset lists (Ultralytics
// data.yaml, Darknet obj.data, or a loose folder) and the class names; yolo_reader.cpp reads their label
// files. Not thread-safe; one reader per read.

#include "formats/format.h"
#include "formats/format_util.h"
#include "formats/image_locator.h"

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace osprey::formats::yolo {

namespace fs = std::filesystem;

/// One image the source lists, with where it was listed (for messages).
struct Entry {
    fs::path listed;    ///< image path as the source gives it, resolved against the dataset root
    fs::path label;     ///< known label file (labels-only folders); empty to derive it from `listed`
    std::string origin; ///< the list file or folder that named the image
    std::string where;  ///< "line 3" in a list file, else empty
    project::Split split = project::Split::None;
};

bool pathExists(const fs::path& path);
/// Darknet files name paths as "data/x" relative to the dataset root; accept both spellings.
fs::path resolveDarknetPath(const fs::path& root, const std::string& value);
bool isNamesFile(const fs::path& path);
/// Replaces the last path component equal to `from` (case-insensitive) by `to`.
std::optional<fs::path> swapComponent(const fs::path& path, const std::string& from, const std::string& to);

class YoloReader {
public:
    explicit YoloReader(const ReadOptions& options) : m_options(options), m_locator(options.imagesDir) {}

    Expected<ReadResult> run();

private:
    std::string show(const fs::path& path) const { return displayPath(path, m_root); }
    Status readNames(const fs::path& file);
    // ---- Ultralytics data.yaml ----------------------------------------------------------------------
    Status readUltralytics(const fs::path& yamlPath, std::vector<Entry>& entries);
    /// data.yaml's path: becomes the root when it is inside the yaml's folder, when outside=true, or when it
    /// is a relative path to a readable dataset folder (images/ and labels/) that is not a system folder.
    void followRootPath(const std::string& yamlName, const fs::path& yamlDir, const std::string& value);
    void addSplitSource(const std::string& yamlName, const std::string& key, const std::string& item,
                        project::Split split, std::vector<Entry>& entries);
    Status addListFile(const fs::path& listFile, const fs::path& base, project::Split split,
                       std::vector<Entry>& entries, bool darknet);
    // ---- Darknet obj.data ---------------------------------------------------------------------------
    Status readDarknet(const fs::path& objData, std::vector<Entry>& entries);
    // ---- loose folders ------------------------------------------------------------------------------
    Status readLoose(std::vector<Entry>& entries);
    // ---- one image ----------------------------------------------------------------------------------
    void readEntry(const Entry& entry);
    static std::vector<fs::path> labelCandidates(const fs::path& listed);
    std::optional<fs::path> findLabel(const fs::path& listed) const;
    void parseLabels(DatasetImage& image, const fs::path& labelPath);
    void reportOrphanLabels();

    const ReadOptions& m_options;
    ImageLocator m_locator;
    fs::path m_root;
    ProblemList m_problems;
    std::vector<std::string> m_names;
    bool m_namesKnown = false;
    std::string m_namesFile;
    std::vector<DatasetImage> m_images;
    std::set<fs::path> m_usedLabels;
    std::set<fs::path> m_labelDirs;
    std::int64_t m_clamped = 0;
    std::vector<std::string> m_notes;
};

} // namespace osprey::formats::yolo
