#include "formats/image_locator.h"

#include "common/hash.h"
#include "common/strings.h"
#include "imaging/image.h"

#include <algorithm>
#include <system_error>

namespace fs = std::filesystem;

namespace osprey::formats {

ImageLocator::ImageLocator(fs::path imagesDir) : m_imagesDir(std::move(imagesDir)) {}

void ImageLocator::buildIndex() {
    m_indexed = true;
    if (m_imagesDir.empty())
        return;
    // A recursive scan once is far cheaper than probing the folder per image name.
    for (const auto& file : listImageFiles(m_imagesDir, true)) {
        m_byFileName.emplace(file.filename().string(), file);
        m_byStemName.emplace(file.stem().string(), file);
    }
}

void ImageLocator::enablePairing(fs::path treeRoot, std::shared_ptr<const LayoutScan> scan) {
    m_pairing = true;
    m_treeRoot = std::move(treeRoot);
    m_scan = std::move(scan);
}

std::optional<fs::path> ImageLocator::locate(const std::vector<fs::path>& candidates,
                                             const std::string& fileName, const fs::path& pairKey,
                                             const fs::path& besideDir) {
    std::error_code ec;
    for (const auto& candidate : candidates) {
        if (fs::is_regular_file(candidate, ec)) {
            ++m_beside;
            return candidate;
        }
    }
    if (!m_indexed)
        buildIndex();
    const auto it = m_byFileName.find(fs::path(fileName).filename().string());
    if (it != m_byFileName.end()) {
        ++m_byName;
        return it->second;
    }
    if (m_pairing) {
        if (!m_pairIndex) {
            if (!m_scan)
                m_scan = std::make_shared<const LayoutScan>(scanLayout(m_treeRoot));
            std::vector<fs::path> images = m_scan->images;
            for (const auto& [name, path] : m_byFileName)
                images.push_back(path);
            std::sort(images.begin(), images.end());
            images.erase(std::unique(images.begin(), images.end()), images.end());
            m_pairIndex.emplace(images);
        }
        if (auto paired = m_pairIndex->find(pairKey.empty() ? fs::path(fileName) : pairKey, besideDir)) {
            ++m_paired;
            return paired;
        }
    }
    ++m_missing;
    return std::nullopt;
}

std::optional<fs::path> ImageLocator::locateStem(const std::string& stem) {
    if (!m_indexed)
        buildIndex();
    const auto it = m_byStemName.find(stem);
    if (it != m_byStemName.end()) {
        ++m_byName;
        return it->second;
    }
    ++m_missing;
    return std::nullopt;
}

std::vector<std::string> ImageLocator::notes() const {
    std::vector<std::string> lines;
    const std::int64_t total = m_beside + m_byName + m_missing + m_paired;
    if (total == 0)
        return lines;
    if (m_paired > 0)
        lines.push_back("paired " + std::to_string(m_paired) + " of " + std::to_string(total) +
                        " images with their annotations by relative path or file stem (the paths the "
                        "annotations give were not found)");
    if (!m_imagesDir.empty())
        lines.push_back("matched " + std::to_string(m_byName) + " of " + std::to_string(total) +
                        " images by file name in " + m_imagesDir.string() + "; " + std::to_string(m_beside) +
                        " found where the annotations point; " + std::to_string(m_missing) + " not found");
    else
        lines.push_back("found " + std::to_string(m_beside) + " of " + std::to_string(total) +
                        " images where the annotations point; " + std::to_string(m_missing) + " not found");
    return lines;
}

bool isImageFile(const fs::path& path) {
    static const char* const kExtensions[] = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"};
    const std::string ext = toLower(path.extension().string());
    return std::any_of(std::begin(kExtensions), std::end(kExtensions),
                       [&](const char* e) { return ext == e; });
}

std::vector<fs::path> listImageFiles(const fs::path& dir, bool recursive) {
    std::vector<fs::path> files;
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return files;
    if (recursive) {
        auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
        for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            const auto name = it->path().filename().string();
            if (it->is_directory(ec)) {
                if (!name.empty() && name[0] == '.')
                    it.disable_recursion_pending();
                continue;
            }
            if (isImageFile(it->path()))
                files.push_back(it->path());
        }
    } else {
        for (const auto& entry : fs::directory_iterator(dir, ec))
            if (entry.is_regular_file(ec) && isImageFile(entry.path()))
                files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

bool probeImage(DatasetImage& image, ImageProbe probe, const std::string& displayName,
                ProblemList& problems) {
    if (!image.found || probe == ImageProbe::None)
        return true;
    const auto size = imaging::readImageSize(image.path);
    if (!size) {
        problems.error(ProblemKind::Syntax, displayName, {}, "cannot read the image: " + size.message(),
                       "image " + image.name);
        return false;
    }
    image.width = size->width;
    image.height = size->height;
    if (probe == ImageProbe::SizeAndHash) {
        if (auto hash = hashFileHex(image.path))
            image.hash = std::move(*hash);
    }
    return true;
}

std::string displayPath(const fs::path& path, const fs::path& base) {
    if (base.empty())
        return path.generic_string();
    const auto rel = path.lexically_relative(base);
    if (rel.empty() || startsWith(rel.generic_string(), ".."))
        return path.generic_string();
    return rel.generic_string();
}

} // namespace osprey::formats
