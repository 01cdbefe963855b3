#pragma once
// FormatRegistry: the list of known dataset formats, looked up by name or detected from a path.
// The built-in formats are registered on first use. Thread-safe after construction (read-only).

#include "common/expected.h"
#include "formats/format.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace osprey::formats {

class FormatRegistry {
public:
    /// The process-wide registry with the built-in formats (yolo, coco, voc, images).
    static const FormatRegistry& instance();

    FormatRegistry();
    void add(std::unique_ptr<Format> format);

    /// The format called `name` (case-insensitive), or nullptr.
    const Format* find(const std::string& name) const;
    /// The format most confident about `source`. The error lists what was looked for.
    Expected<const Format*> detect(const std::filesystem::path& source) const;
    std::vector<const Format*> formats() const;
    /// "yolo|coco|voc|images"
    std::string names(char separator = '|') const;

private:
    std::vector<std::unique_ptr<Format>> m_formats;
};

} // namespace osprey::formats
