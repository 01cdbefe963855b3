#include "formats/voc_format.h"

#include "formats/format_util.h"
#include "formats/image_locator.h"
#include "formats/layout_scan.h"

#include "common/atomic_file.h"
#include "common/strings.h"

#include <pugixml.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <system_error>

namespace fs = std::filesystem;

namespace osprey::formats {

std::string VocFormat::description() const {
    return "Pascal VOC XML: Annotations/ + JPEGImages/ + ImageSets/Main, or a folder of XML files";
}

namespace {

bool isVocXml(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::string head(4096, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    return head.find("<annotation") != std::string::npos;
}

std::vector<fs::path> xmlFiles(const fs::path& dir) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.is_regular_file(ec) && toLower(entry.path().extension().string()) == ".xml")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

/// 1-based line of a byte offset in a file (for messages about XML nodes).
class LineIndex {
public:
    explicit LineIndex(const fs::path& path) {
        const auto text = readFile(path); // unreadable: every offset is line 1
        if (!text)
            return;
        for (std::size_t i = 0; i < text->size(); ++i)
            if ((*text)[i] == '\n')
                m_breaks.push_back(static_cast<std::ptrdiff_t>(i));
    }
    std::string at(std::ptrdiff_t offset) const {
        const auto line = std::lower_bound(m_breaks.begin(), m_breaks.end(), offset) - m_breaks.begin() + 1;
        return "line " + std::to_string(line);
    }

private:
    std::vector<std::ptrdiff_t> m_breaks;
};

class VocReader {
public:
    explicit VocReader(const ReadOptions& options) : m_options(options), m_locator(options.imagesDir) {}

    Expected<ReadResult> run() {
        std::error_code ec;
        const fs::path source = m_options.source;
        std::vector<fs::path> files;
        if (fs::is_regular_file(source, ec)) {
            m_root = source.parent_path();
            files = {source};
        } else if (fs::is_directory(source, ec)) {
            m_root = source;
            m_xmlDir = source;
            for (const char* dir : {"Annotations", "annotations"})
                if (fs::is_directory(source / dir, ec)) {
                    m_xmlDir = source / dir;
                    break;
                }
            if (m_xmlDir != source) {
                files = xmlFiles(m_xmlDir);
            } else {
                // No Annotations/: the XML files may be anywhere (annots/, xml/, beside the images).
                m_scan =
                    m_options.scan ? m_options.scan : std::make_shared<const LayoutScan>(scanLayout(source));
                files = m_scan->vocXml;
            }
        } else {
            return fail(source.string() + ": no such file or folder");
        }
        if (m_xmlDir.empty())
            m_xmlDir = m_root;
        m_locator.enablePairing(m_root, m_scan);
        readLabelmap();
        readImageSets();
        std::map<std::string, bool> haveXml;
        const std::int64_t total = static_cast<std::int64_t>(files.size());
        for (std::int64_t i = 0; i < total; ++i) {
            if (m_options.progress.cancelled())
                return fail("import cancelled", "cancelled");
            if (i % 64 == 0)
                m_options.progress.report(i, total, "reading VOC XML");
            const auto& file = files[static_cast<std::size_t>(i)];
            haveXml[file.stem().string()] = true;
            readXml(file);
        }
        // Images named by a subset list or present in JPEGImages but without XML: unlabeled.
        std::map<std::string, std::string> unlabeled;
        for (const auto& [stem, where] : m_listedIn)
            if (!haveXml.count(stem))
                unlabeled.emplace(stem, where);
        for (const auto& file : listImageFiles(m_root / "JPEGImages", false))
            if (!haveXml.count(file.stem().string()) && !m_usedImages.count(file.lexically_normal()))
                unlabeled.emplace(file.stem().string(), "JPEGImages");
        for (const auto& [stem, where] : unlabeled)
            addUnlabeled(stem, where);
        // A tree with the XML in any folder: its images that no XML named import as unlabeled.
        if (m_scan && !files.empty())
            for (const auto& file : m_scan->images)
                if (!m_usedImages.count(file.lexically_normal()))
                    addUnlabeledFile(file);
        ReadResult result;
        result.dataset = std::move(m_dataset);
        result.problems = m_problems.take();
        result.notes = m_locator.notes();
        if (m_clamped > 0)
            result.notes.push_back(std::to_string(m_clamped) +
                                   " boxes reaching outside their image clamped to it");
        return result;
    }

private:
    std::string show(const fs::path& path) const { return displayPath(path, m_root); }

    void readLabelmap() {
        const fs::path labelmap = m_root / "labelmap.txt";
        auto lines = util::readLines(labelmap);
        if (!lines)
            return;
        for (const auto& line : *lines) {
            const std::string_view text = trim(line);
            if (text.empty() || text[0] == '#')
                continue;
            m_dataset.ensureClass(std::string(trim(text.substr(0, text.find(':')))));
        }
    }

    void readImageSets() {
        const fs::path main = m_root / "ImageSets" / "Main";
        std::error_code ec;
        if (!fs::is_directory(main, ec))
            return;
        for (const auto& [name, split] :
             {std::pair{"train", project::Split::Train}, std::pair{"val", project::Split::Val},
              std::pair{"trainval", project::Split::Train}, std::pair{"test", project::Split::Test}}) {
            auto lines = util::readLines(main / (std::string(name) + ".txt"));
            if (!lines)
                continue;
            for (const auto& line : *lines) {
                const auto fields = splitWhitespace(line);
                if (fields.empty() || fields[0][0] == '#')
                    continue;
                const std::string stem(fields[0]);
                m_splitOf.emplace(stem, split); // train/val win over trainval: they come first
                m_listedIn.emplace(stem, "ImageSets/Main/" + std::string(name) + ".txt");
            }
        }
    }

    /// The image an XML names: where VOC puts it, beside the XML, in images=DIR by name, else the image
    /// of the tree whose path ends like the XML's folder + <filename> (then like the XML's own path).
    /// <path> is never used: it names the annotator's machine.
    std::optional<fs::path> locateImage(const std::string& fileName, const std::string& stem,
                                        const fs::path& xmlFile = {}) {
        std::vector<fs::path> candidates = {m_root / "JPEGImages" / fileName, m_xmlDir / fileName,
                                            m_root / "images" / fileName};
        if (!xmlFile.empty() && xmlFile.parent_path() != m_xmlDir)
            candidates.push_back(xmlFile.parent_path() / fileName);
        const fs::path key = xmlFile.empty() ? fs::path(fileName) : xmlFile.parent_path() / fileName;
        if (auto found = m_locator.locate(candidates, fileName, key, xmlFile.parent_path()))
            return found;
        for (const char* ext : {".jpg", ".jpeg", ".png"})
            for (const auto& dir : {m_root / "JPEGImages", m_xmlDir}) {
                std::error_code ec;
                if (fs::is_regular_file(dir / (stem + ext), ec))
                    return dir / (stem + ext);
            }
        return std::nullopt;
    }

    void addUnlabeledFile(const fs::path& file) {
        DatasetImage image;
        image.path = file;
        image.found = true;
        image.name = file.filename().string();
        m_usedImages.insert(file.lexically_normal());
        if (!probeImage(image, probeMode(), show(image.path), m_problems))
            return;
        m_problems.warning(ProblemKind::ImageWithoutLabel, show(file), {},
                           "no XML annotation names this image; imported as unlabeled");
        m_dataset.images.push_back(std::move(image));
    }

    void addUnlabeled(const std::string& stem, const std::string& where) {
        DatasetImage image;
        const auto found = locateImage(stem + ".jpg", stem);
        if (!found) {
            m_problems.error(ProblemKind::MissingImage, where, {},
                             "image " + stem + " has no XML and no image file", "image " + stem);
            return;
        }
        image.path = *found;
        image.found = true;
        image.name = found->filename().string();
        m_usedImages.insert(found->lexically_normal());
        if (!probeImage(image, probeMode(), show(image.path), m_problems))
            return;
        image.split = splitOf(stem);
        m_problems.warning(ProblemKind::ImageWithoutLabel, where, {},
                           "image " + image.name + " has no XML annotation; imported as unlabeled");
        m_dataset.images.push_back(std::move(image));
    }

    ImageProbe probeMode() const {
        return m_options.probe == ImageProbe::None ? ImageProbe::SizeOnly : m_options.probe;
    }

    project::Split splitOf(const std::string& stem) const {
        const auto it = m_splitOf.find(stem);
        return it == m_splitOf.end() ? project::Split::None : it->second;
    }

    void readXml(const fs::path& file) {
        const std::string name = show(file);
        pugi::xml_document doc;
        const pugi::xml_parse_result parsed = doc.load_file(file.c_str());
        if (!parsed) {
            m_problems.error(ProblemKind::Syntax, name, LineIndex(file).at(parsed.offset),
                             std::string("not valid XML: ") + parsed.description(), "annotation file");
            return;
        }
        const pugi::xml_node root = doc.child("annotation");
        if (!root) {
            m_problems.error(ProblemKind::Syntax, name, {}, "no <annotation> root element",
                             "annotation file");
            return;
        }
        const LineIndex lines(file);
        const std::string stem = file.stem().string();
        std::string fileName(trim(root.child_value("filename")));
        if (fileName.empty())
            fileName = stem + ".jpg";
        DatasetImage image;
        image.name = fileName;
        image.labelPath = file;
        image.split = splitOf(stem);
        auto width = parseInt(root.child("size").child_value("width"));
        auto height = parseInt(root.child("size").child_value("height"));
        if (!width || !height || *width <= 0 || *height <= 0 || *width > 1000000 || *height > 1000000)
            width = height = std::nullopt; // missing or meaningless <size>: measured from the image

        if (const auto found = locateImage(fileName, stem, file)) {
            image.path = *found;
            image.found = true;
            m_usedImages.insert(found->lexically_normal());
            DatasetImage probed = image;
            if (!probeImage(probed, probeMode(), show(image.path), m_problems))
                return; // the image cannot be read: skipped with its boxes (the error says so)
            {
                image.hash = probed.hash;
                image.width = probed.width;
                image.height = probed.height;
                if (width && height && (*width != probed.width || *height != probed.height))
                    m_problems.warning(ProblemKind::SizeMismatch, name, "size",
                                       std::to_string(*width) + "x" + std::to_string(*height) +
                                           " in the XML, but " + image.name + " is " +
                                           std::to_string(probed.width) + "x" +
                                           std::to_string(probed.height) + "; using the XML's size");
            }
            if (width && height) {
                image.width = static_cast<int>(*width);
                image.height = static_cast<int>(*height);
            }
        } else if (width && height) {
            image.path =
                (m_options.imagesDir.empty() ? m_root / "JPEGImages" : m_options.imagesDir) / fileName;
            image.width = static_cast<int>(*width);
            image.height = static_cast<int>(*height);
            m_problems.warning(ProblemKind::MissingImage, name, "filename",
                               "image " + fileName + " not found; imported with the XML's size");
        } else {
            // The boxes are in pixels, so they stay usable; the health check reports the missing file.
            image.path =
                (m_options.imagesDir.empty() ? m_root / "JPEGImages" : m_options.imagesDir) / fileName;
            m_problems.warning(ProblemKind::MissingImage, name, "size",
                               "no <size> and image " + fileName +
                                   " not found; imported with an unknown size");
        }
        bool hadError = false;
        int index = 0;
        for (const pugi::xml_node object : root.children("object")) {
            ++index;
            const std::string where = lines.at(object.offset_debug());
            const std::string className(trim(object.child_value("name")));
            const std::string label =
                "object " + std::to_string(index) + (className.empty() ? "" : " '" + className + "'");
            if (className.empty()) {
                m_problems.error(ProblemKind::MissingField, name, where, label + ": <name> missing", label);
                hadError = true;
                continue;
            }
            // pugixml expands only the five predefined entities and never reads a DTD: "&xxe;" stays as
            // text. A class name holding an entity reference is refused, never resolved.
            if (const auto amp = className.find('&');
                amp != std::string::npos && className.find(';', amp) != std::string::npos) {
                m_problems.error(ProblemKind::Syntax, name, where,
                                 label + ": <name> holds an XML entity reference; entities are never "
                                         "resolved (write the class name itself)",
                                 label);
                hadError = true;
                continue;
            }
            const pugi::xml_node bndbox = object.child("bndbox");
            if (!bndbox) {
                m_problems.error(ProblemKind::MissingField, name, where, label + " has no <bndbox>", label);
                hadError = true;
                continue;
            }
            double coords[4];
            bool ok = true;
            const char* keys[] = {"xmin", "ymin", "xmax", "ymax"};
            for (int k = 0; k < 4 && ok; ++k) {
                const auto value = parseDouble(bndbox.child_value(keys[k]));
                if (!value) {
                    m_problems.error(ProblemKind::Syntax, name, lines.at(bndbox.offset_debug()),
                                     label + ": bndbox." + keys[k] + " is not a number: '" +
                                         bndbox.child_value(keys[k]) + "'",
                                     label);
                    ok = false;
                }
                coords[k] = value.value_or(0);
            }
            if (!ok) {
                hadError = true;
                continue;
            }
            DatasetBox box;
            box.x1 = coords[0];
            box.y1 = coords[1];
            box.x2 = coords[2];
            box.y2 = coords[3];
            const auto checked = util::checkBox(box, image.width, image.height);
            if (!checked) {
                m_problems.error(ProblemKind::Syntax, name, lines.at(bndbox.offset_debug()),
                                 label + ": " + checked.message(), label);
                hadError = true;
                continue;
            }
            m_clamped += *checked ? 1 : 0;
            bool invalidUtf8 = false;
            const std::string clean = util::sanitizeUtf8(className, &invalidUtf8);
            if (invalidUtf8)
                m_problems.warning(ProblemKind::Syntax, name, where,
                                   label + ": <name> is not valid UTF-8; invalid bytes replaced by U+FFFD");
            box.classIndex = m_dataset.ensureClass(clean);
            box.flags.difficult = parseBool(trim(object.child_value("difficult"))).value_or(false);
            box.flags.truncated = parseBool(trim(object.child_value("truncated"))).value_or(false);
            box.flags.crowd = parseBool(trim(object.child_value("iscrowd"))).value_or(false);
            image.boxes.push_back(box);
        }
        image.labels = !image.boxes.empty() ? LabelState::Present
                       : hadError           ? LabelState::Missing
                                            : LabelState::Empty;
        image.status = statusFor(image.labels);
        m_dataset.images.push_back(std::move(image));
    }

    const ReadOptions& m_options;
    ImageLocator m_locator;
    fs::path m_root;
    fs::path m_xmlDir;
    ProblemList m_problems;
    Dataset m_dataset;
    std::map<std::string, project::Split> m_splitOf;
    std::map<std::string, std::string> m_listedIn;
    std::shared_ptr<const LayoutScan> m_scan;
    std::set<fs::path> m_usedImages;
    std::int64_t m_clamped = 0;
};

} // namespace

int VocFormat::detect(const fs::path& source) const {
    std::error_code ec;
    if (fs::is_regular_file(source, ec))
        return toLower(source.extension().string()) == ".xml" && isVocXml(source) ? 80 : 0;
    if (!fs::is_directory(source, ec))
        return 0;
    const bool layout =
        fs::is_directory(source / "Annotations", ec) || fs::is_directory(source / "annotations", ec);
    if (layout) {
        const auto files = xmlFiles(fs::is_directory(source / "Annotations", ec) ? source / "Annotations"
                                                                                 : source / "annotations");
        for (std::size_t i = 0; i < files.size() && i < 8; ++i)
            if (isVocXml(files[i]))
                return 90;
    }
    // XML in any folder of the tree (annots/, xml/, beside the images).
    return scanLayout(source).vocXml.empty() ? 0 : 80;
}

Expected<ReadResult> VocFormat::read(const ReadOptions& options) const {
    try {
        return VocReader(options).run();
    } catch (const std::exception& e) {
        return fail(options.source.string() + ": " + e.what());
    }
}

} // namespace osprey::formats
