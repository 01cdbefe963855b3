#pragma once
// Private to core/formats: the builder the file readers share.

#include "formats/eval_reader.h"

#include <map>
#include <optional>
#include <string_view>

namespace osprey::formats::eval_detail {

/// Collects images and classes while files are read, then produces an EvalSet with classes in a stable
/// order: names given up front first, the rest sorted (numerically when they are numbers).
class SetBuilder {
public:
    explicit SetBuilder(std::vector<std::string> knownNames);

    /// The class of a text token: an integer indexes the known names when there are any; anything else
    /// is a label.
    int classForToken(std::string_view token);
    int classForName(const std::string& name);

    int addImage(const std::string& name, int widthPx, int heightPx);
    std::optional<int> findImage(const std::string& name) const;
    ImageBoxes& image(int index) { return m_set.images[static_cast<size_t>(index)]; }

    EvalSet finish();

private:
    EvalSet m_set;
    size_t m_knownCount = 0;
    bool m_haveKnownNames = false;
    std::map<std::string, int> m_classIds;
    std::map<std::string, int> m_imageIds;
};

/// A line-oriented error: "path: line N: message".
std::string lineError(const std::filesystem::path& path, size_t line, const std::string& message);

/// Sorted regular files of `folder` with extension `extension` (".txt", ".xml").
Expected<std::vector<std::filesystem::path>> listFiles(const std::filesystem::path& folder,
                                                       const std::string& extension);

Status readTextTruthFolder(const std::filesystem::path& folder, const EvalReadOptions& options,
                           SetBuilder& builder);
Status readTextDetectionFolder(const std::filesystem::path& folder, const EvalReadOptions& options,
                               SetBuilder& builder);
Status readVocFolder(const std::filesystem::path& folder, SetBuilder& builder);

/// COCO ground truth; fills `cocoImages` (COCO image id -> builder image) and `cocoCategories`.
Status readCocoTruth(const std::filesystem::path& path, SetBuilder& builder,
                     std::map<std::string, int>& cocoImages, std::map<std::string, int>& cocoCategories);
/// COCO results. With COCO ground truth, ids resolve through the maps; otherwise by file name or label.
Status readCocoDetections(const std::filesystem::path& path, SetBuilder& builder, bool truthIsCoco,
                          const std::map<std::string, int>& cocoImages,
                          const std::map<std::string, int>& cocoCategories);

} // namespace osprey::formats::eval_detail
