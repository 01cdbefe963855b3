#include "formats/yolo_reader_impl.h"

#include "common/strings.h"
#include "formats/format_util.h"
#include "formats/yolo_format.h"

#include <algorithm>
#include <cmath>
#include <system_error>

namespace osprey::formats::yolo {

namespace {

constexpr const char* kFieldNames[] = {"class id", "bbox center x", "bbox center y", "bbox width",
                                       "bbox height"};

} // namespace

bool pathExists(const fs::path& path) {
    std::error_code ec;
    return fs::exists(path, ec);
}

/// Darknet files name paths as "data/x" relative to the dataset root; accept both spellings.
fs::path resolveDarknetPath(const fs::path& root, const std::string& value) {
    const fs::path direct = fs::path(value).is_absolute() ? fs::path(value) : root / value;
    if (pathExists(direct) || !startsWith(value, "data/"))
        return direct;
    return root / value.substr(5);
}

bool isNamesFile(const fs::path& path) {
    const std::string name = toLower(path.filename().string());
    return name == "classes.txt" || name == "obj.names" || name == "names.txt" || name == "readme.txt" ||
           name == "train.txt" || name == "valid.txt" || name == "val.txt" || name == "test.txt";
}

/// Replaces the last path component equal to `from` (case-insensitive) by `to`.
std::optional<fs::path> swapComponent(const fs::path& path, const std::string& from, const std::string& to) {
    std::vector<fs::path> parts(path.begin(), path.end());
    for (std::size_t i = parts.size(); i-- > 1;) {
        if (toLower(parts[i - 1].string()) == from) {
            fs::path out;
            for (std::size_t j = 0; j < parts.size(); ++j)
                out /= (j == i - 1) ? fs::path(to) : parts[j];
            return out;
        }
    }
    return std::nullopt;
}

Expected<ReadResult> YoloReader::run() {
    std::vector<Entry> entries;
    fs::path source = m_options.source;
    std::error_code ec;
    fs::path yaml, objData;
    if (fs::is_regular_file(source, ec)) {
        const std::string ext = toLower(source.extension().string());
        if (ext == ".yaml" || ext == ".yml")
            yaml = source;
        else if (ext == ".data")
            objData = source;
        else
            return fail(source.string() +
                        ": not a YOLO descriptor (expected data.yaml, obj.data or a folder)");
        m_root = source.parent_path();
    } else if (fs::is_directory(source, ec)) {
        m_root = source;
        if (pathExists(source / "data.yaml"))
            yaml = source / "data.yaml";
        else if (pathExists(source / "obj.data"))
            objData = source / "obj.data";
    } else {
        return fail(source.string() + ": no such file or folder");
    }
    Status status;
    if (!yaml.empty())
        status = readUltralytics(yaml, entries);
    else if (!objData.empty())
        status = readDarknet(objData, entries);
    else
        status = readLoose(entries);
    if (!status)
        return fail(status.error());

    const std::int64_t total = static_cast<std::int64_t>(entries.size());
    for (std::int64_t i = 0; i < total; ++i) {
        if (m_options.progress.cancelled())
            return fail("import cancelled", "cancelled");
        if (i % 64 == 0)
            m_options.progress.report(i, total, "reading YOLO labels");
        readEntry(entries[static_cast<std::size_t>(i)]);
    }
    m_options.progress.report(total, total, "reading YOLO labels");
    reportOrphanLabels();

    ReadResult result;
    for (const auto& name : m_names)
        result.dataset.classes.push_back({name, {}});
    result.dataset.images = std::move(m_images);
    result.problems = m_problems.take();
    result.notes = std::move(m_notes);
    for (auto& note : m_locator.notes())
        result.notes.push_back(std::move(note));
    if (m_clamped > 0)
        result.notes.push_back(std::to_string(m_clamped) +
                               " boxes reaching outside their image clamped to it");
    return result;
}

// ---- one image ----------------------------------------------------------------------------------
void YoloReader::readEntry(const Entry& entry) {
    DatasetImage image;
    const bool labelsOnly = !entry.label.empty();
    std::optional<fs::path> found = labelsOnly
                                        ? m_locator.locateStem(entry.listed.stem().string())
                                        : m_locator.locate({entry.listed}, entry.listed.filename().string());
    const std::string origin = entry.where.empty() ? show(entry.listed) : entry.origin;
    if (!found) {
        std::string message = "image " + show(entry.listed) + " not found";
        if (labelsOnly)
            message =
                "no image named " + entry.listed.stem().string() + ".* in " + m_options.imagesDir.string();
        else if (!m_options.imagesDir.empty())
            message +=
                " (nor " + entry.listed.filename().string() + " in " + m_options.imagesDir.string() + ")";
        const auto label = labelsOnly ? std::optional<fs::path>(entry.label) : findLabel(entry.listed);
        if (label)
            m_usedLabels.insert(label->lexically_normal());
        m_problems.error(ProblemKind::MissingImage, origin, entry.where, message,
                         "image" + (label ? " and its labels in " + show(*label) : std::string()));
        return;
    }
    image.path = *found;
    image.found = true;
    image.name = found->filename().string();
    image.split = entry.split;
    const ImageProbe probe = m_options.probe == ImageProbe::None ? ImageProbe::SizeOnly : m_options.probe;
    const auto label = labelsOnly ? std::optional<fs::path>(entry.label) : findLabel(entry.listed);
    if (!probeImage(image, probe, show(image.path), m_problems)) {
        if (label) // skipped with its image (the error says so), not an orphan
            m_usedLabels.insert(label->lexically_normal());
        return;
    }
    if (!label) {
        m_problems.warning(ProblemKind::ImageWithoutLabel, origin, entry.where,
                           "image " + show(entry.listed) + " has no label file (looked for " +
                               show(labelCandidates(entry.listed).front()) + "); imported as unlabeled");
    } else {
        m_usedLabels.insert(label->lexically_normal());
        m_labelDirs.insert(label->parent_path().lexically_normal());
        image.labelPath = *label;
        parseLabels(image, *label);
    }
    image.status = statusFor(image.labels);
    m_images.push_back(std::move(image));
}

std::vector<fs::path> YoloReader::labelCandidates(const fs::path& listed) {
    std::vector<fs::path> candidates;
    fs::path txt = listed;
    txt.replace_extension(".txt");
    if (auto swapped = swapComponent(txt, "images", "labels"))
        candidates.push_back(*swapped);
    candidates.push_back(txt);
    for (const char* dir : {"Annotations", "annotations", "Labels"})
        if (auto swapped = swapComponent(txt, "images", dir))
            candidates.push_back(*swapped);
    return candidates;
}

std::optional<fs::path> YoloReader::findLabel(const fs::path& listed) const {
    std::error_code ec;
    for (const auto& candidate : labelCandidates(listed))
        if (fs::is_regular_file(candidate, ec))
            return candidate;
    return std::nullopt;
}

void YoloReader::parseLabels(DatasetImage& image, const fs::path& labelPath) {
    const std::string file = show(labelPath);
    auto lines = util::readLines(labelPath);
    if (!lines) {
        m_problems.error(ProblemKind::Syntax, file, {}, lines.message(), "labels of image " + image.name);
        return;
    }
    bool hadError = false;
    const double w = image.width, h = image.height;
    for (std::size_t i = 0; i < lines->size(); ++i) {
        const std::string where = "line " + std::to_string(i + 1);
        const auto fields = splitWhitespace((*lines)[i]);
        if (fields.empty())
            continue;
        const std::string skipped = "box on " + where;
        const bool polygon = fields.size() >= 7 && fields.size() % 2 == 1;
        if (fields.size() != 5 && !polygon) {
            m_problems.error(ProblemKind::Syntax, file, where,
                             "unexpected field count: expected 5 fields (class cx cy w h), found " +
                                 std::to_string(fields.size()),
                             skipped);
            hadError = true;
            continue;
        }
        const auto classId = util::parseClassId(fields[0]); // "1.0" reads as 1, as in Ultralytics
        if (!classId) {
            m_problems.error(ProblemKind::Syntax, file, where,
                             "field 1 (class id) is not a class index: '" + std::string(fields[0]) + "'",
                             skipped);
            hadError = true;
            continue;
        }
        std::vector<double> values;
        bool ok = true;
        for (std::size_t f = 1; f < fields.size() && ok; ++f) {
            const auto value = parseDouble(fields[f]);
            if (value && !std::isfinite(*value)) {
                const std::string fieldName = polygon ? "polygon coordinate" : kFieldNames[f];
                m_problems.error(ProblemKind::Syntax, file, where,
                                 "field " + std::to_string(f + 1) + " (" + fieldName +
                                     ") is not a finite number: '" + std::string(fields[f]) + "'",
                                 skipped);
                ok = false;
            } else if (!value) {
                const std::string fieldName = polygon ? "polygon coordinate" : kFieldNames[f];
                m_problems.error(ProblemKind::Syntax, file, where,
                                 "field " + std::to_string(f + 1) + " (" + fieldName +
                                     ") is not a number: '" + std::string(fields[f]) + "'",
                                 skipped);
                ok = false;
            } else {
                values.push_back(*value);
            }
        }
        if (!ok) {
            hadError = true;
            continue;
        }
        if (m_namesKnown && *classId >= static_cast<long long>(m_names.size())) {
            m_problems.error(ProblemKind::ClassOutOfRange, file, where,
                             "undeclared class id " + std::to_string(*classId) + ": " + m_namesFile +
                                 " has " + std::to_string(m_names.size()) + " classes (ids 0-" +
                                 std::to_string(static_cast<long long>(m_names.size()) - 1) + ")",
                             skipped);
            hadError = true;
            continue;
        }
        while (static_cast<long long>(m_names.size()) <= *classId)
            m_names.push_back("class_" + std::to_string(m_names.size()));
        DatasetBox box;
        box.classIndex = static_cast<int>(*classId);
        if (polygon) {
            box.x1 = box.y1 = 1e300;
            box.x2 = box.y2 = -1e300;
            for (std::size_t p = 0; p + 1 < values.size(); p += 2) {
                box.x1 = std::min(box.x1, values[p] * w);
                box.x2 = std::max(box.x2, values[p] * w);
                box.y1 = std::min(box.y1, values[p + 1] * h);
                box.y2 = std::max(box.y2, values[p + 1] * h);
            }
        } else {
            if (values[2] < 0 || values[3] < 0) {
                m_problems.error(ProblemKind::Syntax, file, where,
                                 std::string("field ") +
                                     (values[2] < 0 ? "4 (bbox width)" : "5 (bbox height)") +
                                     " is negative: '" + std::string(fields[values[2] < 0 ? 3 : 4]) + "'",
                                 skipped);
                hadError = true;
                continue;
            }
            box.x1 = (values[0] - values[2] / 2) * w;
            box.y1 = (values[1] - values[3] / 2) * h;
            box.x2 = (values[0] + values[2] / 2) * w;
            box.y2 = (values[1] + values[3] / 2) * h;
        }
        const auto checked = util::checkBox(box, image.width, image.height);
        if (!checked) {
            m_problems.error(ProblemKind::Syntax, file, where, checked.message(), skipped);
            hadError = true;
            continue;
        }
        m_clamped += *checked ? 1 : 0;
        image.boxes.push_back(box);
    }
    if (!image.boxes.empty())
        image.labels = LabelState::Present;
    else
        image.labels = hadError ? LabelState::Missing : LabelState::Empty;
}

void YoloReader::reportOrphanLabels() {
    std::set<fs::path> dirs = m_labelDirs;
    std::error_code ec;
    if (fs::is_directory(m_root / "labels", ec))
        for (auto it = fs::recursive_directory_iterator(m_root / "labels", ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
            if (it->is_directory(ec))
                dirs.insert(it->path().lexically_normal());
    for (const auto& dir : dirs) {
        std::vector<fs::path> orphans;
        for (const auto& entry : fs::directory_iterator(dir, ec)) {
            const auto& path = entry.path();
            if (entry.is_regular_file(ec) && toLower(path.extension().string()) == ".txt" &&
                !isNamesFile(path) && !m_usedLabels.count(path.lexically_normal()))
                orphans.push_back(path);
        }
        std::sort(orphans.begin(), orphans.end());
        for (const auto& path : orphans)
            m_problems.error(ProblemKind::LabelWithoutImage, show(path), {},
                             "label file has no image (no image with this name is listed or found)",
                             "label file");
    }
}

} // namespace osprey::formats::yolo

namespace osprey::formats {

Expected<ReadResult> YoloFormat::read(const ReadOptions& options) const {
    try {
        return yolo::YoloReader(options).run();
    } catch (const std::exception& e) {
        return fail(options.source.string() + ": " + e.what());
    }
}

} // namespace osprey::formats
