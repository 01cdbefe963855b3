#include "formats/format_util.h"
#include "formats/image_locator.h"
#include "formats/yolo_format.h"

#include "common/strings.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <set>
#include <system_error>

namespace fs = std::filesystem;

namespace osprey::formats {

namespace {

constexpr const char* kFieldNames[] = {"class id", "bbox center x", "bbox center y", "bbox width",
                                       "bbox height"};

/// One image the source lists, with where it was listed (for messages).
struct Entry {
    fs::path listed;    ///< image path as the source gives it, resolved against the dataset root
    fs::path label;     ///< known label file (labels-only folders); empty to derive it from `listed`
    std::string origin; ///< the list file or folder that named the image
    std::string where;  ///< "line 3" in a list file, else empty
    project::Split split = project::Split::None;
};

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

class YoloReader {
public:
    explicit YoloReader(const ReadOptions& options) : m_options(options), m_locator(options.imagesDir) {}

    Expected<ReadResult> run() {
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
        result.notes = m_locator.notes();
        return result;
    }

private:
    std::string show(const fs::path& path) const { return displayPath(path, m_root); }

    Status readNames(const fs::path& file) {
        auto lines = util::readLines(file);
        if (!lines)
            return fail(lines.error());
        m_names.clear();
        for (const auto& line : *lines)
            if (!trim(line).empty())
                m_names.emplace_back(trim(line));
        m_namesKnown = true;
        m_namesFile = show(file);
        return {};
    }

    // ---- Ultralytics data.yaml ----------------------------------------------------------------------
    Status readUltralytics(const fs::path& yamlPath, std::vector<Entry>& entries) {
        const std::string yamlName = show(yamlPath);
        YAML::Node doc;
        try {
            doc = YAML::LoadFile(yamlPath.string());
        } catch (const YAML::Exception& e) {
            return fail(yamlName + ": line " + std::to_string(e.mark.line + 1) + ": " + e.msg);
        }
        if (!doc.IsMap())
            return fail(yamlName + ": expected a mapping with names, train and val");
        try {
            const fs::path yamlDir = yamlPath.parent_path();
            m_root = yamlDir;
            if (doc["path"] && doc["path"].IsScalar()) {
                const fs::path path = doc["path"].as<std::string>();
                const fs::path root = path.is_absolute() ? path : yamlDir / path;
                if (pathExists(root))
                    m_root = root;
                else
                    m_problems.warning(ProblemKind::Other, yamlName, "path",
                                       "folder " + path.string() + " not found; using the folder of " +
                                           yamlName);
            }
            const YAML::Node names = doc["names"];
            if (names && names.IsSequence()) {
                for (const auto& n : names)
                    m_names.push_back(n.as<std::string>());
            } else if (names && names.IsMap()) {
                std::map<long long, std::string> byId;
                for (const auto& kv : names) {
                    const auto id = parseInt(kv.first.as<std::string>());
                    if (!id || *id < 0 || *id > 100000)
                        return fail(yamlName + ": names: key '" + kv.first.as<std::string>() +
                                    "' is not a class index");
                    byId[*id] = kv.second.as<std::string>();
                }
                const long long count = byId.empty() ? 0 : byId.rbegin()->first + 1;
                for (long long i = 0; i < count; ++i) {
                    const auto it = byId.find(i);
                    m_names.push_back(it != byId.end() ? it->second : "class_" + std::to_string(i));
                }
            } else if (doc["nc"]) {
                const int nc = doc["nc"].as<int>();
                for (int i = 0; i < nc; ++i)
                    m_names.push_back("class_" + std::to_string(i));
                m_problems.warning(ProblemKind::MissingField, yamlName, "names",
                                   "no class names; using class_0..class_" + std::to_string(nc - 1));
            } else {
                return fail(yamlName + ": names: missing (a list or a dict of class names is required)");
            }
            m_namesKnown = true;
            m_namesFile = yamlName;
            if (doc["nc"] && doc["nc"].IsScalar() && doc["nc"].as<int>() != static_cast<int>(m_names.size()))
                m_problems.warning(ProblemKind::Other, yamlName, "nc",
                                   "nc is " + doc["nc"].as<std::string>() + " but names has " +
                                       std::to_string(m_names.size()) + " entries; using names");
            for (const auto& [key, split] :
                 {std::pair{"train", project::Split::Train}, std::pair{"val", project::Split::Val},
                  std::pair{"test", project::Split::Test}}) {
                const YAML::Node node = doc[key];
                if (!node || node.IsNull())
                    continue;
                std::vector<std::string> items;
                if (node.IsSequence())
                    for (const auto& item : node)
                        items.push_back(item.as<std::string>());
                else
                    items.push_back(node.as<std::string>());
                for (const auto& item : items)
                    addSplitSource(yamlName, key, item, split, entries);
            }
        } catch (const YAML::Exception& e) {
            return fail(yamlName + ": line " + std::to_string(e.mark.line + 1) + ": " + e.msg);
        }
        return {};
    }

    void addSplitSource(const std::string& yamlName, const std::string& key, const std::string& item,
                        project::Split split, std::vector<Entry>& entries) {
        fs::path path = fs::path(item).is_absolute() ? fs::path(item) : m_root / item;
        if (!pathExists(path)) {
            // Roboflow writes "../train/images" relative to the dataset root; Ultralytics forgives it too.
            std::string stripped = item;
            while (startsWith(stripped, "../"))
                stripped = stripped.substr(3);
            std::vector<fs::path> fallbacks = {m_root / stripped};
            for (const char* dir : {"train", "val", "valid", "test"})
                if (util::splitFromName(dir) == split) {
                    fallbacks.push_back(m_root / dir / "images");
                    fallbacks.push_back(m_root / "images" / dir);
                }
            const auto it = std::find_if(fallbacks.begin(), fallbacks.end(),
                                         [](const fs::path& p) { return pathExists(p); });
            if (it == fallbacks.end()) {
                m_problems.warning(ProblemKind::MissingImage, yamlName, key,
                                   item + " not found; no " + key + " images");
                return;
            }
            m_problems.warning(ProblemKind::Other, yamlName, key, item + " not found; using " + show(*it));
            path = *it;
        }
        std::error_code ec;
        if (fs::is_directory(path, ec)) {
            for (auto& file : listImageFiles(path, true))
                entries.push_back({std::move(file), {}, show(path), {}, split});
            return;
        }
        if (auto status = addListFile(path, path.parent_path(), split, entries, false); !status)
            m_problems.warning(ProblemKind::Other, yamlName, key, status.message());
    }

    Status addListFile(const fs::path& listFile, const fs::path& base, project::Split split,
                       std::vector<Entry>& entries, bool darknet) {
        auto lines = util::readLines(listFile);
        if (!lines)
            return fail(lines.error());
        for (std::size_t i = 0; i < lines->size(); ++i) {
            const std::string line(trim((*lines)[i]));
            if (line.empty() || line[0] == '#')
                continue;
            fs::path listed = darknet ? resolveDarknetPath(m_root, line)
                                      : (fs::path(line).is_absolute() ? fs::path(line) : base / line);
            entries.push_back(
                {listed.lexically_normal(), {}, show(listFile), "line " + std::to_string(i + 1), split});
        }
        return {};
    }

    // ---- Darknet obj.data ---------------------------------------------------------------------------
    Status readDarknet(const fs::path& objData, std::vector<Entry>& entries) {
        const std::string dataName = show(objData);
        auto lines = util::readLines(objData);
        if (!lines)
            return fail(dataName + ": cannot read the dataset descriptor file: " + lines.message());
        std::map<std::string, std::pair<std::string, int>> values;
        for (std::size_t i = 0; i < lines->size(); ++i) {
            const std::string_view line = trim((*lines)[i]);
            if (line.empty() || line[0] == '#')
                continue;
            const auto eq = line.find('=');
            if (eq == std::string_view::npos)
                return fail(dataName + ": line " + std::to_string(i + 1) + ": expected key = value");
            values[std::string(trim(line.substr(0, eq)))] = {std::string(trim(line.substr(eq + 1))),
                                                             static_cast<int>(i + 1)};
        }
        const auto at = [&](const std::string& key) {
            return dataName + ": line " + std::to_string(values[key].second) + ": " + key;
        };
        if (!values.count("names"))
            return fail(dataName + ": names: missing (the path of the class names file)");
        const fs::path namesFile = resolveDarknetPath(m_root, values["names"].first);
        if (!pathExists(namesFile))
            return fail(at("names") + ": class names file " + values["names"].first + " not found");
        if (auto status = readNames(namesFile); !status)
            return status;
        if (values.count("classes")) {
            const auto classes = parseInt(values["classes"].first);
            if (!classes)
                return fail(at("classes") + ": expected a number, found '" + values["classes"].first + "'");
            if (*classes != static_cast<long long>(m_names.size()))
                m_problems.warning(ProblemKind::Other, dataName,
                                   "line " + std::to_string(values["classes"].second),
                                   "classes = " + values["classes"].first + " but " + m_namesFile + " has " +
                                       std::to_string(m_names.size()) + " names; using the names");
        }
        if (!values.count("train") && !values.count("valid") && !values.count("test"))
            return fail(dataName + ": train: missing (the path of the subset list file)");
        for (const auto& [key, split] :
             {std::pair{"train", project::Split::Train}, std::pair{"valid", project::Split::Val},
              std::pair{"test", project::Split::Test}}) {
            if (!values.count(key))
                continue;
            const fs::path list = resolveDarknetPath(m_root, values[key].first);
            if (!pathExists(list))
                return fail(at(key) + ": subset list file " + values[key].first + " not found");
            if (auto status = addListFile(list, m_root, split, entries, true); !status)
                return status;
        }
        return {};
    }

    // ---- loose folders ------------------------------------------------------------------------------
    Status readLoose(std::vector<Entry>& entries) {
        if (pathExists(m_root / "obj.names") && pathExists(m_root / "train.txt"))
            return fail(
                show(m_root / "obj.data") +
                ": cannot read the dataset descriptor file: not found (a Darknet dataset needs obj.data "
                "beside obj.names and train.txt)");
        for (const fs::path& candidate : {m_root / "classes.txt", m_root / "obj.names", m_root / "names.txt",
                                          m_root / "labels" / "classes.txt"}) {
            if (pathExists(candidate)) {
                if (auto status = readNames(candidate); !status)
                    return status;
                break;
            }
        }
        for (auto& file : listImageFiles(m_root, true))
            entries.push_back({file, {}, show(file.parent_path()), {}, util::splitFromPath(file, m_root)});
        if (entries.empty() && !m_options.imagesDir.empty()) {
            // A folder of label files whose images are in images=DIR: match them by stem.
            std::error_code ec;
            for (auto it = fs::recursive_directory_iterator(m_root, ec);
                 !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
                if (it->is_regular_file(ec) && toLower(it->path().extension().string()) == ".txt" &&
                    !isNamesFile(it->path()))
                    entries.push_back({it->path(),
                                       it->path(),
                                       show(it->path()),
                                       {},
                                       util::splitFromPath(it->path(), m_root)});
            }
            std::sort(entries.begin(), entries.end(),
                      [](const Entry& a, const Entry& b) { return a.label < b.label; });
        }
        if (!m_namesKnown)
            m_problems.warning(ProblemKind::MissingField, show(m_root), {},
                               "no classes.txt, obj.names or data.yaml; classes are named class_<id>");
        return {};
    }

    // ---- one image ----------------------------------------------------------------------------------
    void readEntry(const Entry& entry) {
        DatasetImage image;
        const bool labelsOnly = !entry.label.empty();
        std::optional<fs::path> found =
            labelsOnly ? m_locator.locateStem(entry.listed.stem().string())
                       : m_locator.locate({entry.listed}, entry.listed.filename().string());
        const std::string origin = entry.where.empty() ? show(entry.listed) : entry.origin;
        if (!found) {
            std::string message = "image " + show(entry.listed) + " not found";
            if (labelsOnly)
                message = "no image named " + entry.listed.stem().string() + ".* in " +
                          m_options.imagesDir.string();
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
        if (!probeImage(image, probe, show(image.path), m_problems))
            return;
        const auto label = labelsOnly ? std::optional<fs::path>(entry.label) : findLabel(entry.listed);
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

    static std::vector<fs::path> labelCandidates(const fs::path& listed) {
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

    std::optional<fs::path> findLabel(const fs::path& listed) const {
        std::error_code ec;
        for (const auto& candidate : labelCandidates(listed))
            if (fs::is_regular_file(candidate, ec))
                return candidate;
        return std::nullopt;
    }

    void parseLabels(DatasetImage& image, const fs::path& labelPath) {
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
            const auto classId = parseInt(fields[0]);
            if (!classId || *classId < 0) {
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
                if (!value) {
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
                box.x1 = (values[0] - values[2] / 2) * w;
                box.y1 = (values[1] - values[3] / 2) * h;
                box.x2 = (values[0] + values[2] / 2) * w;
                box.y2 = (values[1] + values[3] / 2) * h;
            }
            image.boxes.push_back(box);
        }
        if (!image.boxes.empty())
            image.labels = LabelState::Present;
        else
            image.labels = hadError ? LabelState::Missing : LabelState::Empty;
    }

    void reportOrphanLabels() {
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
};

} // namespace

Expected<ReadResult> YoloFormat::read(const ReadOptions& options) const {
    try {
        return YoloReader(options).run();
    } catch (const std::exception& e) {
        return fail(options.source.string() + ": " + e.what());
    }
}

} // namespace osprey::formats
