#include "formats/yolo_reader_impl.h"

#include "common/strings.h"
#include "formats/format_util.h"

#include <yaml-cpp/yaml.h>

#include <map>

#include <algorithm>
#include <system_error>

#include <unistd.h>

namespace osprey::formats::yolo {

Status YoloReader::readNames(const fs::path& file) {
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

namespace {

/// The operating system's own trees, where no dataset lives: a data.yaml's path: that leads there is refused.
bool isSystemFolder(const fs::path& canonical) {
    if (canonical == canonical.root_path())
        return true;
    static constexpr const char* kSystem[] = {"/bin",    "/boot", "/dev", "/etc",  "/lib", "/lib32", "/lib64",
                                              "/libx32", "/proc", "/run", "/sbin", "/sys", "/usr",   "/var"};
    const std::string text = canonical.string();
    return std::any_of(std::begin(kSystem), std::end(kSystem), [&](const std::string& folder) {
        return text == folder || startsWith(text, folder + "/");
    });
}

/// Ultralytics' dataset layout: images/ and labels/ side by side.
bool isDatasetLayout(const fs::path& root) {
    std::error_code ec;
    return fs::is_directory(root / "images", ec) && fs::is_directory(root / "labels", ec);
}

bool canRead(const fs::path& folder) {
    return ::access(folder.c_str(), R_OK | X_OK) == 0;
}

} // namespace

void YoloReader::followRootPath(const std::string& yamlName, const fs::path& yamlDir,
                                const std::string& value) {
    const fs::path path = value;
    const fs::path root = (path.is_absolute() ? path : yamlDir / path).lexically_normal();
    if (!pathExists(root)) {
        m_problems.warning(ProblemKind::Other, yamlName, "path",
                           "folder " + value + " not found; using the folder of " + yamlName);
        return;
    }
    const fs::path rel =
        fs::absolute(root).lexically_normal().lexically_relative(fs::absolute(yamlDir).lexically_normal());
    const bool outside = rel.empty() || *rel.begin() == "..";
    if (!outside || m_options.allowOutsideRoots) {
        m_root = root;
        return;
    }
    // A relative path: beside or above the config folder, as Ultralytics' docs lay out
    // "path: ../datasets/coco8". It is followed when it leads to a dataset the user can read.
    std::error_code ec;
    const fs::path real = fs::canonical(root, ec);
    const std::string shown = value + (ec ? std::string() : " (" + real.string() + ")");
    std::string why;
    if (path.is_absolute())
        why = "is outside the folder of " + yamlName;
    else if (ec)
        why = "cannot be resolved (" + ec.message() + ")";
    else if (isSystemFolder(real))
        why = "is a system folder";
    else if (!canRead(real))
        why = "cannot be read with your permissions";
    else if (!isDatasetLayout(real))
        why = "is outside the folder of " + yamlName + " and holds no images/ and labels/ folders";
    if (why.empty()) {
        m_root = root;
        m_notes.push_back(yamlName + ": path: followed " + shown +
                          ", a dataset folder (images/ and labels/) outside the yaml's folder");
        return;
    }
    m_problems.warning(ProblemKind::RootNotFollowed, yamlName, "path",
                       "folder " + shown + " " + why +
                           "; not followed (pass outside=true to follow it); using " + "the folder of " +
                           yamlName);
}

// ---- Ultralytics data.yaml ----------------------------------------------------------------------
Status YoloReader::readUltralytics(const fs::path& yamlPath, std::vector<Entry>& entries) {
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
        if (doc["path"] && doc["path"].IsScalar())
            followRootPath(yamlName, yamlDir, doc["path"].as<std::string>());
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
            if (nc < 0 || nc > 100000)
                return fail(yamlName + ": nc: " + std::to_string(nc) + " is not a class count (0 to 100000)");
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

void YoloReader::addSplitSource(const std::string& yamlName, const std::string& key, const std::string& item,
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
        const auto it =
            std::find_if(fallbacks.begin(), fallbacks.end(), [](const fs::path& p) { return pathExists(p); });
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

Status YoloReader::addListFile(const fs::path& listFile, const fs::path& base, project::Split split,
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
Status YoloReader::readDarknet(const fs::path& objData, std::vector<Entry>& entries) {
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
Status YoloReader::readLoose(std::vector<Entry>& entries) {
    if (pathExists(m_root / "obj.names") && pathExists(m_root / "train.txt"))
        return fail(show(m_root / "obj.data") +
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
                entries.push_back(
                    {it->path(), it->path(), show(it->path()), {}, util::splitFromPath(it->path(), m_root)});
        }
        std::sort(entries.begin(), entries.end(),
                  [](const Entry& a, const Entry& b) { return a.label < b.label; });
    }
    if (!m_namesKnown)
        m_problems.warning(ProblemKind::MissingField, show(m_root), {},
                           "no classes.txt, obj.names or data.yaml; classes are named class_<id>");
    return {};
}

} // namespace osprey::formats::yolo
