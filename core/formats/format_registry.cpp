#include "formats/format_registry.h"

#include "formats/coco_format.h"
#include "formats/image_folder_format.h"
#include "formats/voc_format.h"
#include "formats/yolo_format.h"

#include "common/strings.h"

namespace osprey::formats {

Expected<WriteReport> Format::write(const Dataset&, const WriteOptions&) const {
    return fail("format " + name() + " cannot be written; export to yolo, coco or voc");
}

const FormatRegistry& FormatRegistry::instance() {
    static const FormatRegistry registry;
    return registry;
}

FormatRegistry::FormatRegistry() {
    add(std::make_unique<YoloFormat>());
    add(std::make_unique<CocoFormat>());
    add(std::make_unique<VocFormat>());
    add(std::make_unique<ImageFolderFormat>());
}

void FormatRegistry::add(std::unique_ptr<Format> format) {
    m_formats.push_back(std::move(format));
}

const Format* FormatRegistry::find(const std::string& name) const {
    const std::string lower = toLower(name);
    for (const auto& format : m_formats)
        if (format->name() == lower)
            return format.get();
    return nullptr;
}

Expected<const Format*> FormatRegistry::detect(const std::filesystem::path& source) const {
    std::error_code ec;
    if (!std::filesystem::exists(source, ec))
        return fail(source.string() + ": no such file or folder", "missing");
    const Format* best = nullptr;
    int bestScore = 0;
    for (const auto& format : m_formats) {
        const int score = format->detect(source);
        if (score > bestScore) {
            bestScore = score;
            best = format.get();
        }
    }
    if (!best)
        return fail(source.string() +
                    ": cannot tell the dataset format (looked for data.yaml, obj.data, YOLO .txt "
                    "labels, COCO .json, VOC .xml and image files); give format=" +
                    names());
    return best;
}

std::vector<const Format*> FormatRegistry::formats() const {
    std::vector<const Format*> out;
    for (const auto& format : m_formats)
        out.push_back(format.get());
    return out;
}

std::string FormatRegistry::names(char separator) const {
    std::string out;
    for (const auto& format : m_formats) {
        if (!out.empty())
            out += separator;
        out += format->name();
    }
    return out;
}

} // namespace osprey::formats
