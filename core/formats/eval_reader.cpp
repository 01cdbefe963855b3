#include "formats/eval_reader.h"

#include "common/atomic_file.h"
#include "common/strings.h"
#include "formats/eval_reader_impl.h"

#include <algorithm>
#include <cstdint>
#include <fstream>

namespace osprey::formats {

namespace eval_detail {

SetBuilder::SetBuilder(std::vector<std::string> knownNames) : m_haveKnownNames(!knownNames.empty()) {
    for (auto& name : knownNames)
        classForName(name);
    m_knownCount = m_set.classNames.size();
}

int SetBuilder::classForToken(std::string_view token) {
    if (m_haveKnownNames) {
        if (const auto id = parseInt(token)) {
            if (*id < 0 || *id >= static_cast<long long>(m_knownCount))
                return -1;
            return static_cast<int>(*id);
        }
    }
    return classForName(std::string(token));
}

int SetBuilder::classForName(const std::string& name) {
    const auto [it, inserted] = m_classIds.emplace(name, static_cast<int>(m_set.classNames.size()));
    if (inserted)
        m_set.classNames.push_back(name);
    return it->second;
}

int SetBuilder::addImage(const std::string& name, int widthPx, int heightPx) {
    const auto [it, inserted] = m_imageIds.emplace(name, static_cast<int>(m_set.images.size()));
    if (inserted) {
        ImageBoxes image;
        image.name = name;
        image.widthPx = widthPx;
        image.heightPx = heightPx;
        m_set.images.push_back(std::move(image));
    }
    return it->second;
}

std::optional<int> SetBuilder::findImage(const std::string& name) const {
    const auto it = m_imageIds.find(name);
    if (it == m_imageIds.end())
        return std::nullopt;
    return it->second;
}

EvalSet SetBuilder::finish() {
    // Labels met in the files are sorted so that the class order does not depend on file order.
    const auto& names = m_set.classNames;
    std::vector<int> order(names.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = static_cast<int>(i);
    std::stable_sort(order.begin() + static_cast<long>(m_knownCount), order.end(), [&](int a, int b) {
        const auto na = parseDouble(names[static_cast<size_t>(a)]);
        const auto nb = parseDouble(names[static_cast<size_t>(b)]);
        if (na && nb)
            return *na < *nb;
        if (na.has_value() != nb.has_value())
            return na.has_value();
        return names[static_cast<size_t>(a)] < names[static_cast<size_t>(b)];
    });
    std::vector<int> remap(order.size());
    std::vector<std::string> sorted;
    for (size_t i = 0; i < order.size(); ++i) {
        remap[static_cast<size_t>(order[i])] = static_cast<int>(i);
        sorted.push_back(names[static_cast<size_t>(order[i])]);
    }
    m_set.classNames = std::move(sorted);
    for (auto& image : m_set.images) {
        for (auto& truth : image.truths)
            truth.classId = remap[static_cast<size_t>(truth.classId)];
        for (auto& detection : image.detections)
            detection.classId = remap[static_cast<size_t>(detection.classId)];
    }
    return std::move(m_set);
}

std::string lineError(const std::filesystem::path& path, size_t line, const std::string& message) {
    return path.string() + ": line " + std::to_string(line) + ": " + message;
}

Expected<std::vector<std::filesystem::path>> listFiles(const std::filesystem::path& folder,
                                                       const std::string& extension) {
    std::error_code error;
    std::vector<std::filesystem::path> files;
    for (std::filesystem::directory_iterator it(folder, error), end; !error && it != end;
         it.increment(error)) {
        if (it->is_regular_file() && toLower(it->path().extension().string()) == extension)
            files.push_back(it->path());
    }
    if (error)
        return fail(folder.string() + ": cannot list the folder: " + error.message());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace eval_detail

namespace {

bool isJsonFile(const std::filesystem::path& path) {
    return std::filesystem::is_regular_file(path) && toLower(path.extension().string()) == ".json";
}

// Ultralytics keeps labels in .../labels/<split> beside .../images/<split>; mAP tools keep an images/ folder
// beside the annotation folders.
std::filesystem::path guessImagesDir(const std::filesystem::path& truthPath) {
    std::filesystem::path swapped;
    bool found = false;
    for (const auto& part : truthPath) {
        if (!found && part == "labels") {
            swapped /= "images";
            found = true;
        } else {
            swapped /= part;
        }
    }
    if (found && std::filesystem::is_directory(swapped))
        return swapped;
    const auto sibling = truthPath.parent_path() / "images";
    if (std::filesystem::is_directory(sibling))
        return sibling;
    return {};
}

std::uint32_t bigEndian(const unsigned char* p, int bytes) {
    std::uint32_t value = 0;
    for (int i = 0; i < bytes; ++i)
        value = (value << 8) | p[i];
    return value;
}

} // namespace

Expected<EvalSet> readEvalSet(const std::filesystem::path& truthPath,
                              const std::filesystem::path& detectionPath, const EvalReadOptions& options) {
    if (!std::filesystem::exists(truthPath))
        return fail(truthPath.string() + ": the ground truth path does not exist");
    if (!std::filesystem::exists(detectionPath))
        return fail(detectionPath.string() + ": the detection path does not exist");
    EvalReadOptions effective = options;
    if (effective.imagesDir.empty())
        effective.imagesDir = guessImagesDir(truthPath);

    eval_detail::SetBuilder builder(options.classNames);
    std::map<std::string, int> cocoImages, cocoCategories;
    const bool truthIsCoco = isJsonFile(truthPath);
    Status status;
    if (truthIsCoco) {
        status = eval_detail::readCocoTruth(truthPath, builder, cocoImages, cocoCategories);
    } else if (std::filesystem::is_directory(truthPath)) {
        auto xml = eval_detail::listFiles(truthPath, ".xml");
        if (!xml)
            return fail(xml.error());
        status = xml->empty() ? eval_detail::readTextTruthFolder(truthPath, effective, builder)
                              : eval_detail::readVocFolder(truthPath, builder);
    } else {
        return fail(
            truthPath.string() +
            ": not a COCO JSON file or a folder of VOC XML or text files; give gt=FILE.json or gt=FOLDER");
    }
    if (!status)
        return fail(status.error());

    if (isJsonFile(detectionPath))
        status =
            eval_detail::readCocoDetections(detectionPath, builder, truthIsCoco, cocoImages, cocoCategories);
    else if (std::filesystem::is_directory(detectionPath))
        status = eval_detail::readTextDetectionFolder(detectionPath, effective, builder);
    else
        return fail(detectionPath.string() + ": not a COCO results JSON file or a folder of text files");
    if (!status)
        return fail(status.error());
    return builder.finish();
}

Expected<std::vector<std::string>> readClassNames(const std::filesystem::path& path) {
    auto text = readFile(path);
    if (!text)
        return fail(text.error());
    std::vector<std::string> names;
    for (const auto& line : split(*text, '\n')) {
        const auto name = trim(line);
        if (!name.empty())
            names.emplace_back(name);
    }
    if (names.empty())
        return fail(path.string() + ": no class names (expected one name per line)");
    return names;
}

Expected<std::pair<int, int>> readImageSizePx(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return fail(path.string() + ": cannot open the image");
    std::vector<unsigned char> head(512 * 1024);
    in.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    const auto* p = head.data();
    const size_t n = head.size();
    if (n >= 24 && p[0] == 0x89 && p[1] == 'P' && p[2] == 'N' && p[3] == 'G')
        return std::pair<int, int>(static_cast<int>(bigEndian(p + 16, 4)),
                                   static_cast<int>(bigEndian(p + 20, 4)));
    if (n >= 26 && p[0] == 'B' && p[1] == 'M') {
        const auto little = [&](size_t at) {
            return static_cast<std::int32_t>(p[at] | (p[at + 1] << 8) | (p[at + 2] << 16) |
                                             (static_cast<std::uint32_t>(p[at + 3]) << 24));
        };
        return std::pair<int, int>(little(18), std::abs(little(22)));
    }
    if (n >= 4 && p[0] == 0xFF && p[1] == 0xD8) {
        size_t at = 2;
        while (at + 9 < n) {
            if (p[at] != 0xFF) {
                ++at;
                continue;
            }
            const unsigned marker = p[at + 1];
            if (marker == 0xFF) {
                ++at;
                continue;
            }
            const size_t length = bigEndian(p + at + 2, 2);
            // SOF0..SOF15 carry the size, except DHT (C4), JPG (C8) and DAC (CC).
            if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC)
                return std::pair<int, int>(static_cast<int>(bigEndian(p + at + 7, 2)),
                                           static_cast<int>(bigEndian(p + at + 5, 2)));
            at += 2 + length;
        }
    }
    return fail(path.string() +
                ": cannot read the image size (only JPEG, PNG and BMP headers are understood)");
}

} // namespace osprey::formats
