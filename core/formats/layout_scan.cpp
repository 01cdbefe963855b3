#include "formats/layout_scan.h"

#include "formats/format_util.h"
#include "formats/image_locator.h"

#include "common/strings.h"

#include <algorithm>
#include <fstream>
#include <system_error>

namespace fs = std::filesystem;

namespace osprey::formats {

namespace {

std::string head(const fs::path& path, std::size_t bytes) {
    std::ifstream in(path, std::ios::binary);
    std::string text(bytes, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
    return text;
}

bool isVocXmlFile(const fs::path& path) {
    return head(path, 4096).find("<annotation") != std::string::npos;
}

bool isCocoJsonFile(const fs::path& path) {
    const std::string text = head(path, 64 * 1024);
    return text.find("\"images\"") != std::string::npos || text.find("\"categories\"") != std::string::npos;
}

/// The first non-empty line (of the first 4 KiB) is a YOLO box line; an empty file counts as a negative
/// label file only when an image with its stem is beside it (checked by the caller).
enum class TxtKind { Labels, Empty, Other };

TxtKind classifyTxt(const fs::path& path) {
    const std::string text = util::stripBom(head(path, 4096));
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        const auto fields = splitWhitespace(std::string_view(text).substr(start, end - start));
        if (!fields.empty())
            return fields.size() >= 5 && util::parseClassId(fields[0]).has_value() &&
                           parseDouble(fields[1]).has_value()
                       ? TxtKind::Labels
                       : TxtKind::Other;
        start = end + 1;
    }
    return TxtKind::Empty;
}

bool isSubsetListFolder(const fs::path& path) {
    return path.parent_path().filename() == "ImageSets" ||
           path.parent_path().parent_path().filename() == "ImageSets";
}

std::vector<std::string> partsOf(const fs::path& path) {
    std::vector<std::string> parts;
    fs::path p = path;
    p.replace_extension();
    for (const auto& part : p.lexically_normal())
        if (!part.empty() && part != "/")
            parts.push_back(part.string());
    return parts;
}

} // namespace

LayoutScan scanLayout(const fs::path& root) {
    LayoutScan scan;
    std::error_code ec;
    scan.root = fs::is_directory(root, ec) ? root : root.parent_path();
    if (!fs::is_directory(root, ec))
        return scan;
    std::vector<fs::path> emptyTxt;
    auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (++scan.entries > kMaxScanFiles) {
            scan.truncated = true;
            break;
        }
        const fs::path& path = it->path();
        const std::string name = path.filename().string();
        if (it->is_directory(ec)) {
            if ((!name.empty() && name[0] == '.') || it.depth() + 1 > kMaxScanDepth) {
                if (it.depth() + 1 > kMaxScanDepth)
                    scan.truncated = true;
                it.disable_recursion_pending();
            }
            continue;
        }
        if (!it->is_regular_file(ec))
            continue;
        const std::string ext = toLower(path.extension().string());
        const std::string lower = toLower(name);
        if (isImageFile(path))
            scan.images.push_back(path);
        else if (ext == ".xml" && isVocXmlFile(path))
            scan.vocXml.push_back(path);
        else if (ext == ".json" && isCocoJsonFile(path))
            scan.cocoJson.push_back(path);
        else if (lower == "data.yaml" || lower == "obj.data")
            scan.descriptors.push_back(path);
        else if (ext == ".txt" && lower != "readme.txt" && lower != "classes.txt" && lower != "obj.names" &&
                 !isSubsetListFolder(path)) {
            const TxtKind kind = classifyTxt(path);
            if (kind == TxtKind::Labels)
                scan.yoloTxt.push_back(path);
            else if (kind == TxtKind::Empty)
                emptyTxt.push_back(path);
        }
    }
    std::sort(scan.images.begin(), scan.images.end());
    // An empty .txt is a YOLO negative only when it pairs with an image; otherwise it is just a file.
    if (!emptyTxt.empty()) {
        const ImagePairIndex index(scan.images);
        for (const auto& txt : emptyTxt)
            if (index.find(txt, txt.parent_path()))
                scan.yoloTxt.push_back(txt);
    }
    for (auto* list : {&scan.vocXml, &scan.yoloTxt, &scan.cocoJson, &scan.descriptors})
        std::sort(list->begin(), list->end());
    return scan;
}

std::string describeFiles(const std::vector<fs::path>& files, const fs::path& root, const std::string& what) {
    std::map<std::string, std::size_t> perDir;
    for (const auto& file : files) {
        std::string dir = displayPath(file.parent_path(), root);
        if (dir.empty() || dir == ".")
            dir = "./";
        else if (dir.back() != '/')
            dir += '/';
        ++perDir[dir];
    }
    std::vector<std::pair<std::string, std::size_t>> dirs(perDir.begin(), perDir.end());
    std::stable_sort(dirs.begin(), dirs.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string text = std::to_string(files.size()) + " " + what;
    if (dirs.empty())
        return text;
    text += " in ";
    const std::size_t shown = std::min<std::size_t>(3, dirs.size());
    for (std::size_t i = 0; i < shown; ++i) {
        if (i > 0)
            text += ", ";
        text += dirs[i].first;
        if (dirs.size() > 1)
            text += " (" + std::to_string(dirs[i].second) + ")";
    }
    if (dirs.size() > shown)
        text += " and " + std::to_string(dirs.size() - shown) + " more folders";
    return text;
}

std::string describeScan(const LayoutScan& scan) {
    std::vector<std::string> parts;
    if (!scan.descriptors.empty())
        parts.push_back(describeFiles(scan.descriptors, scan.root, "YOLO descriptors (data.yaml/obj.data)"));
    if (!scan.cocoJson.empty())
        parts.push_back(describeFiles(scan.cocoJson, scan.root, "COCO JSON files"));
    if (!scan.vocXml.empty())
        parts.push_back(describeFiles(scan.vocXml, scan.root, "VOC XML annotations"));
    if (!scan.yoloTxt.empty())
        parts.push_back(describeFiles(scan.yoloTxt, scan.root, "YOLO label files"));
    parts.push_back(describeFiles(scan.images, scan.root, "images"));
    std::string text = "found ";
    for (std::size_t i = 0; i < parts.size(); ++i)
        text += (i ? ", " : "") + parts[i];
    if (scan.truncated)
        text += " (the scan stopped at " + std::to_string(kMaxScanDepth) + " folder levels or " +
                std::to_string(kMaxScanFiles) + " entries)";
    return text;
}

ImagePairIndex::ImagePairIndex(const std::vector<fs::path>& images) : m_images(images) {
    m_parts.reserve(images.size());
    for (std::size_t i = 0; i < images.size(); ++i) {
        m_parts.push_back(partsOf(images[i]));
        if (!m_parts.back().empty())
            m_byStem[m_parts.back().back()].push_back(i);
    }
}

std::optional<fs::path> ImagePairIndex::find(const fs::path& key, const fs::path& besideDir) const {
    const std::vector<std::string> parts = partsOf(key);
    if (parts.empty())
        return std::nullopt;
    const auto it = m_byStem.find(parts.back());
    if (it == m_byStem.end())
        return std::nullopt;
    std::size_t best = 0;
    std::size_t bestRun = 0;
    bool bestBeside = false;
    for (const std::size_t index : it->second) {
        const auto& candidate = m_parts[index];
        std::size_t run = 0;
        while (run < parts.size() && run < candidate.size() &&
               parts[parts.size() - 1 - run] == candidate[candidate.size() - 1 - run])
            ++run;
        const bool beside = !besideDir.empty() && m_images[index].parent_path() == besideDir;
        if (run > bestRun || (run == bestRun && beside && !bestBeside)) {
            best = index;
            bestRun = run;
            bestBeside = beside;
        }
    }
    return m_images[best];
}

} // namespace osprey::formats
