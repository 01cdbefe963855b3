#include "formats/coco_format.h"

#include "formats/coco_json_reader.h"
#include "formats/format_util.h"
#include "formats/image_locator.h"
#include "formats/layout_scan.h"

#include "common/strings.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <system_error>
#include <unordered_map>
#include <unordered_set>

namespace fs = std::filesystem;

namespace osprey::formats {

std::string CocoFormat::description() const {
    return "COCO instances JSON: one file per split or one file, images beside it or in images=DIR";
}

namespace {

/// A JSON file whose opening bytes mention a COCO top-level key.
bool looksLikeCoco(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    std::string head(64 * 1024, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    return head.find("\"images\"") != std::string::npos || head.find("\"categories\"") != std::string::npos;
}

/// The split a COCO file stands for: from a name token (instances_val2017) or its folder (Roboflow).
project::Split splitOfFile(const fs::path& file) {
    for (const auto& token : split(file.stem().string(), '_'))
        if (const auto split = util::splitFromName(token))
            return *split;
    if (const auto split = util::splitFromName(file.parent_path().filename().string()))
        return *split;
    return project::Split::None;
}

std::string stateText(coco::FieldState state, const std::string& expected) {
    return state == coco::FieldState::Absent ? "missing field" : "invalid field type: expected " + expected;
}

} // namespace

std::vector<fs::path> CocoFormat::annotationFiles(const fs::path& source, const LayoutScan* layout) {
    std::error_code ec;
    if (fs::is_regular_file(source, ec))
        return {source};
    std::vector<fs::path> files;
    const auto scan = [&](const fs::path& dir) {
        for (const auto& entry : fs::directory_iterator(dir, ec))
            if (entry.is_regular_file(ec) && toLower(entry.path().extension().string()) == ".json" &&
                looksLikeCoco(entry.path()))
                files.push_back(entry.path());
    };
    if (!fs::is_directory(source, ec))
        return files;
    scan(source);
    if (fs::is_directory(source / "annotations", ec))
        scan(source / "annotations");
    for (const auto& entry : fs::directory_iterator(source, ec))
        if (entry.is_directory(ec) && entry.path().filename() != "annotations" &&
            fs::is_regular_file(entry.path() / "_annotations.coco.json", ec))
            files.push_back(entry.path() / "_annotations.coco.json");
    if (files.empty()) {
        // Not in a conventional place: COCO JSON anywhere in the tree.
        if (layout)
            return layout->cocoJson;
        return scanLayout(source).cocoJson;
    }
    std::sort(files.begin(), files.end());
    return files;
}

int CocoFormat::detect(const fs::path& source) const {
    std::error_code ec;
    if (fs::is_regular_file(source, ec))
        return toLower(source.extension().string()) == ".json" && looksLikeCoco(source) ? 95 : 0;
    return annotationFiles(source).empty() ? 0 : 85;
}

namespace {

class CocoReader {
public:
    explicit CocoReader(const ReadOptions& options) : m_options(options), m_locator(options.imagesDir) {}

    Expected<ReadResult> run() {
        const auto files = CocoFormat::annotationFiles(m_options.source, m_options.scan.get());
        if (files.empty())
            return fail(m_options.source.string() + ": no COCO JSON file found (looked for *.json and "
                                                    "annotations/*.json with images and categories)");
        m_base = fs::is_directory(m_options.source) ? m_options.source : m_options.source.parent_path();
        m_locator.enablePairing(m_base, m_options.scan);
        for (const auto& file : files)
            if (auto status = readOne(file); !status)
                return fail(status.error());
        m_result.problems = m_problems.take();
        for (auto& note : m_locator.notes())
            m_result.notes.push_back(std::move(note));
        if (m_result.skippedCrowd > 0)
            m_result.notes.push_back(std::to_string(m_result.skippedCrowd) + " crowd annotations skipped");
        return std::move(m_result);
    }

private:
    /// What one COCO file's parts share while it is read.
    struct FileContext {
        fs::path file;
        std::string name; ///< as messages name the file
        coco::RawFile* raw = nullptr;
        project::Split split = project::Split::None;
        std::unordered_map<std::int64_t, int> classOf;            ///< category id -> class index
        std::unordered_map<std::int64_t, std::size_t> imageIndex; ///< image id -> dataset index
        std::size_t firstImage = 0;                               ///< this file's first dataset image
        std::vector<char> hadError;                               ///< per image of this file
        std::unordered_set<std::int64_t> skippedImages;           ///< ids of images left out (unreadable)
    };

    Status readOne(const fs::path& file) {
        const std::string name = displayPath(file, m_base);
        if (m_options.progress.cancelled())
            return fail("import cancelled", "cancelled");
        m_options.progress.report(0, 0, "parsing " + name);
        auto parsed = coco::readCocoJson(file, name);
        if (!parsed)
            return fail(parsed.error());
        coco::RawFile& raw = *parsed;
        if (!raw.hasImages)
            return fail(name + ": images: missing field (the list of images is required)");
        if (!raw.hasCategories)
            return fail(name + ": categories: missing field (the list of categories is required)");
        if (!raw.hasAnnotations)
            m_problems.warning(ProblemKind::MissingField, name, "annotations",
                               "missing field: read as an image-info file; its images import as unlabeled");
        if (raw.notObjects > 0)
            m_problems.error(ProblemKind::Syntax, name, "images/annotations/categories",
                             std::to_string(raw.notObjects) + " items are not JSON objects",
                             std::to_string(raw.notObjects) + " items");
        FileContext context{file, name, &raw, splitOfFile(file)};
        readCategories(context);
        if (auto status = readImages(context); !status)
            return status;
        if (auto status = readAnnotations(context); !status)
            return status;
        Dataset& dataset = m_result.dataset;
        const std::size_t firstImage = context.firstImage;
        const std::vector<char>& hadError = context.hadError;
        for (std::size_t i = firstImage; i < dataset.images.size(); ++i) {
            auto& image = dataset.images[i];
            if (image.labels == LabelState::Missing && raw.hasAnnotations && !hadError[i - firstImage])
                image.labels = LabelState::Empty;
            image.status = statusFor(image.labels);
        }
        return {};
    }

    void readCategories(FileContext& context) {
        const std::string& name = context.name;
        const coco::RawFile& raw = *context.raw;
        Dataset& dataset = m_result.dataset;
        std::unordered_map<std::int64_t, int>& classOf = context.classOf;
        std::unordered_map<std::string, std::string> namesSeen;
        for (std::size_t i = 0; i < raw.categories.size(); ++i) {
            const auto& cat = raw.categories[i];
            const std::string where = "categories[" + std::to_string(i) + "]";
            if (cat.idState != coco::FieldState::Ok) {
                m_problems.error(ProblemKind::MissingField, name, where + ".id",
                                 stateText(cat.idState, "an integer"), "category " + cat.name);
                continue;
            }
            if (cat.nameState != coco::FieldState::Ok) {
                m_problems.error(ProblemKind::MissingField, name, where + ".name",
                                 stateText(cat.nameState, "a string"),
                                 "category id " + std::to_string(cat.id));
                continue;
            }
            bool invalidUtf8 = false;
            const std::string className = util::sanitizeUtf8(cat.name, &invalidUtf8);
            if (invalidUtf8)
                m_problems.warning(ProblemKind::Syntax, name, where + ".name",
                                   "not valid UTF-8; invalid bytes replaced by U+FFFD: '" + className + "'");
            if (classOf.count(cat.id)) {
                m_problems.error(ProblemKind::Syntax, name, where + ".id",
                                 "duplicate category id " + std::to_string(cat.id), "category " + className);
                continue;
            }
            const auto seen = namesSeen.find(className);
            if (seen != namesSeen.end())
                m_problems.warning(ProblemKind::Other, name, where + ".name",
                                   "category name '" + className + "' (id " + std::to_string(cat.id) +
                                       ") repeats " + seen->second +
                                       "; both ids are imported as one class '" + className + "'");
            else
                namesSeen.emplace(className, where + " (id " + std::to_string(cat.id) + ")");
            classOf.emplace(cat.id, dataset.ensureClass(className));
        }
    }

    /// A file_name that is absolute or climbs above its folder ("../x.jpg").
    static bool escapesFolder(const std::string& fileName) {
        const fs::path path = fs::path(fileName).lexically_normal();
        return path.is_absolute() || path.has_root_name() || (!path.empty() && *path.begin() == "..");
    }

    /// Whether `path` lies in the source folder (for a file source: its folder and the one above, the
    /// COCO layout of annotations/ beside the image folders) or in images=DIR.
    bool insideRoots(const fs::path& path) const {
        const fs::path target = fs::absolute(path).lexically_normal();
        std::vector<fs::path> roots = {m_base};
        if (!fs::is_directory(m_options.source))
            roots.push_back(m_base.parent_path());
        if (!m_options.imagesDir.empty())
            roots.push_back(m_options.imagesDir);
        for (const auto& root : roots) {
            const auto rel = target.lexically_relative(fs::absolute(root).lexically_normal());
            if (!rel.empty() && *rel.begin() != "..")
                return true;
        }
        return false;
    }

    /// The folders a COCO file's images may be in, nearest first (Ultralytics and COCO 2017 layouts).
    static std::vector<fs::path> imageDirs(const fs::path& file, project::Split split) {
        const std::string subset = util::exportSplitName(split);
        std::vector<fs::path> dirs;
        std::error_code ec;
        const fs::path jsonDir = file.parent_path();
        for (const fs::path& dir : {jsonDir, jsonDir / "images", jsonDir.parent_path() / "images" / subset,
                                    jsonDir.parent_path() / "images", jsonDir.parent_path() / subset,
                                    jsonDir.parent_path() / (subset + "2017")})
            if (fs::is_directory(dir, ec) && std::find(dirs.begin(), dirs.end(), dir) == dirs.end())
                dirs.push_back(dir);
        return dirs;
    }

    Status readImages(FileContext& context) {
        const std::string& name = context.name;
        const fs::path& file = context.file;
        const coco::RawFile& raw = *context.raw;
        const project::Split split = context.split;
        Dataset& dataset = m_result.dataset;
        const std::vector<fs::path> dirs = imageDirs(file, split);
        const fs::path jsonDir = file.parent_path();
        context.firstImage = dataset.images.size();
        std::unordered_map<std::int64_t, std::size_t>& imageIndex = context.imageIndex;
        imageIndex.reserve(raw.images.size());
        std::int64_t missingFiles = 0;
        std::string firstMissing;
        std::vector<fs::path> candidates;
        for (std::size_t i = 0; i < raw.images.size(); ++i) {
            if (i % 1024 == 0 && m_options.progress.cancelled())
                return fail("import cancelled", "cancelled");
            const auto& img = raw.images[i];
            const std::string where = "images[" + std::to_string(i) + "]";
            const std::string skipped =
                "image " +
                (img.fileNameState == coco::FieldState::Ok ? img.fileName : std::to_string(img.id));
            if (img.idState != coco::FieldState::Ok) {
                m_problems.error(ProblemKind::MissingField, name, where + ".id",
                                 stateText(img.idState, "an integer"), skipped);
                continue;
            }
            if (img.fileNameState != coco::FieldState::Ok) {
                m_problems.error(ProblemKind::MissingField, name, where + ".file_name",
                                 stateText(img.fileNameState, "a string"), skipped);
                continue;
            }
            if (img.widthState == coco::FieldState::BadType || img.heightState == coco::FieldState::BadType) {
                const bool w = img.widthState == coco::FieldState::BadType;
                m_problems.error(ProblemKind::Syntax, name, where + (w ? ".width" : ".height"),
                                 "invalid field type: expected an integer", skipped);
                continue;
            }
            DatasetImage image;
            image.name = fs::path(img.fileName).filename().string();
            image.split = split;
            image.width = img.width;
            image.height = img.height;
            image.labelPath = file;
            candidates.clear();
            const bool escapes = escapesFolder(img.fileName);
            for (const auto& dir : dirs)
                if (!escapes || m_options.allowOutsideRoots || insideRoots(dir / img.fileName))
                    candidates.push_back((dir / img.fileName).lexically_normal());
            if (escapes && candidates.empty() && !m_options.allowOutsideRoots) {
                m_problems.error(ProblemKind::MissingImage, name, where + ".file_name",
                                 "'" + img.fileName +
                                     "' points outside the dataset folder and images=DIR; never read "
                                     "(pass outside=true to allow it)",
                                 skipped);
                context.skippedImages.insert(img.id);
                continue;
            }
            if (auto found = m_locator.locate(candidates, fs::path(img.fileName).filename().string(),
                                              fs::path(img.fileName).relative_path(), jsonDir)) {
                image.path = std::move(*found);
                image.found = true;
            } else {
                image.path = (m_options.imagesDir.empty() ? (dirs.empty() ? jsonDir : dirs.back())
                                                          : m_options.imagesDir) /
                             img.fileName;
                if (missingFiles++ == 0)
                    firstMissing = img.fileName;
            }
            const bool sizeGiven =
                img.widthState == coco::FieldState::Ok && img.heightState == coco::FieldState::Ok;
            if (image.found && m_options.probe != ImageProbe::None) {
                DatasetImage probed = image;
                if (!probeImage(probed, m_options.probe, displayPath(image.path, m_base), m_problems)) {
                    // The file is there but cannot be read: the image is left out with its boxes.
                    context.skippedImages.insert(img.id);
                    continue;
                }
                {
                    image.hash = probed.hash;
                    if (!sizeGiven) {
                        image.width = probed.width;
                        image.height = probed.height;
                        m_problems.warning(ProblemKind::MissingField, name, where + ".width",
                                           "size missing; taken from the file");
                    } else if (probed.width != image.width || probed.height != image.height) {
                        m_problems.warning(ProblemKind::SizeMismatch, name, where,
                                           "size " + std::to_string(image.width) + "x" +
                                               std::to_string(image.height) + " in the JSON, but " +
                                               image.name + " is " + std::to_string(probed.width) + "x" +
                                               std::to_string(probed.height) +
                                               "; boxes are kept in the JSON's coordinates");
                    }
                }
            } else if (!sizeGiven) {
                m_problems.error(ProblemKind::MissingField, name,
                                 where + (img.widthState != coco::FieldState::Ok ? ".width" : ".height"),
                                 "missing field, and the image file is not there to measure", skipped);
                continue;
            }
            if (!imageIndex.emplace(img.id, dataset.images.size()).second) {
                m_problems.error(ProblemKind::Syntax, name, where + ".id",
                                 "duplicate image id " + std::to_string(img.id), skipped);
                continue;
            }
            dataset.images.push_back(std::move(image));
        }
        if (missingFiles > 0)
            m_problems.warning(ProblemKind::MissingImage, name, "images",
                               std::to_string(missingFiles) + " of " + std::to_string(raw.images.size()) +
                                   " image files not found (first: " + firstMissing +
                                   "); imported with the JSON's sizes; give images=DIR to point at them");

        context.hadError.assign(dataset.images.size() - context.firstImage, 0);
        return {};
    }

    Status readAnnotations(FileContext& context) {
        const std::string& name = context.name;
        const coco::RawFile& raw = *context.raw;
        Dataset& dataset = m_result.dataset;
        const auto& classOf = context.classOf;
        const auto& imageIndex = context.imageIndex;
        const std::size_t firstImage = context.firstImage;
        std::vector<char>& hadError = context.hadError;
        std::int64_t missingIds = 0, missingCrowd = 0, fromPolygon = 0, skippedWithImage = 0, clamped = 0;
        std::size_t firstMissingId = 0, firstMissingCrowd = 0;
        const std::int64_t total = static_cast<std::int64_t>(raw.annotations.size());
        for (std::size_t i = 0; i < raw.annotations.size(); ++i) {
            if (i % 4096 == 0) {
                if (m_options.progress.cancelled())
                    return fail("import cancelled", "cancelled");
                m_options.progress.report(static_cast<std::int64_t>(i), total, "reading " + name);
            }
            const auto& ann = raw.annotations[i];
            const auto where = [&](const char* field) {
                return "annotations[" + std::to_string(i) + "]" + field;
            };
            const auto skipped = [&] {
                return ann.idState == coco::FieldState::Ok ? "annotation id " + std::to_string(ann.id)
                                                           : "annotation " + where("");
            };
            if (ann.imageIdState != coco::FieldState::Ok) {
                m_problems.error(ProblemKind::MissingField, name, where(".image_id"),
                                 stateText(ann.imageIdState, "an integer"), skipped());
                continue;
            }
            if (ann.categoryIdState != coco::FieldState::Ok) {
                m_problems.error(ProblemKind::MissingField, name, where(".category_id"),
                                 stateText(ann.categoryIdState, "an integer"), skipped());
                continue;
            }
            const auto imageIt = imageIndex.find(ann.imageId);
            if (imageIt == imageIndex.end() && context.skippedImages.count(ann.imageId)) {
                ++skippedWithImage; // the image's own error says it was left out with its boxes
                continue;
            }
            if (imageIt == imageIndex.end()) {
                m_problems.error(ProblemKind::Syntax, name, where(".image_id"),
                                 "unknown image id " + std::to_string(ann.imageId), skipped());
                continue;
            }
            char& imageError = hadError[imageIt->second - firstImage];
            const auto classIt = classOf.find(ann.categoryId);
            if (classIt == classOf.end()) {
                m_problems.error(ProblemKind::ClassOutOfRange, name, where(".category_id"),
                                 "undeclared category id " + std::to_string(ann.categoryId), skipped());
                imageError = 1;
                continue;
            }
            if (ann.idState == coco::FieldState::Absent && missingIds++ == 0)
                firstMissingId = i;
            if (ann.crowdState != coco::FieldState::Ok && missingCrowd++ == 0)
                firstMissingCrowd = i;
            const bool polygonOk = ann.segmentation == coco::Segmentation::Polygons &&
                                   ann.polygonProblem.empty() && ann.polyMax[0] >= ann.polyMin[0];
            DatasetBox box;
            box.classIndex = classIt->second;
            box.flags.crowd = ann.crowd;
            if (ann.bboxState == coco::FieldState::Ok && ann.bboxCount == 4 && !ann.bboxBadValue) {
                box.x1 = ann.bbox[0];
                box.y1 = ann.bbox[1];
                box.x2 = ann.bbox[0] + ann.bbox[2];
                box.y2 = ann.bbox[1] + ann.bbox[3];
                if (!ann.polygonProblem.empty())
                    m_problems.warning(ProblemKind::Syntax, name, where(".") + ann.polygonProblem,
                                       "invalid polygon ignored; the bbox is used");
            } else if (ann.bboxState == coco::FieldState::Ok && ann.bboxCount != 4) {
                m_problems.error(
                    ProblemKind::Syntax, name, where(".bbox"),
                    "bbox has wrong value count: expected 4 values [x, y, width, height], found " +
                        std::to_string(ann.bboxCount),
                    skipped());
                imageError = 1;
                continue;
            } else if (ann.bboxState != coco::FieldState::Absent) {
                m_problems.error(ProblemKind::Syntax, name, where(".bbox"),
                                 "invalid field type: expected 4 numbers [x, y, width, height]", skipped());
                imageError = 1;
                continue;
            } else if (polygonOk) {
                box.x1 = ann.polyMin[0];
                box.y1 = ann.polyMin[1];
                box.x2 = ann.polyMax[0];
                box.y2 = ann.polyMax[1];
                ++fromPolygon;
            } else {
                m_problems.error(
                    ProblemKind::MissingField, name,
                    ann.polygonProblem.empty() ? where(".bbox") : where(".") + ann.polygonProblem,
                    ann.polygonProblem.empty() ? "missing field (and no polygon to compute it from)"
                                               : "invalid polygon, and no bbox",
                    skipped());
                imageError = 1;
                continue;
            }
            auto& target = dataset.images[imageIt->second];
            if (ann.bboxState == coco::FieldState::Ok &&
                !(std::isfinite(ann.bbox[2]) && std::isfinite(ann.bbox[3]) && ann.bbox[2] >= 0 &&
                  ann.bbox[3] >= 0)) {
                m_problems.error(ProblemKind::Syntax, name, where(".bbox"),
                                 "negative or non-finite width/height [" + util::formatNumber(ann.bbox[2]) +
                                     ", " + util::formatNumber(ann.bbox[3]) + "]; boxes are never flipped",
                                 skipped());
                imageError = 1;
                continue;
            }
            const auto checked = util::checkBox(box, target.width, target.height);
            if (!checked) {
                m_problems.error(ProblemKind::Syntax, name, where(".bbox"), checked.message(), skipped());
                imageError = 1;
                continue;
            }
            clamped += *checked ? 1 : 0;
            if (box.flags.crowd && m_options.crowd == CrowdPolicy::Skip) {
                ++m_result.skippedCrowd;
                imageError = 1; // not a negative: it has objects, just none kept
                continue;
            }
            target.boxes.push_back(box);
            target.labels = LabelState::Present;
        }
        if (missingIds > 0)
            m_problems.warning(ProblemKind::MissingField, name,
                               "annotations[" + std::to_string(firstMissingId) + "].id",
                               "missing field in " + std::to_string(missingIds) +
                                   " annotations; not needed for boxes, imported anyway");
        if (missingCrowd > 0)
            m_problems.warning(ProblemKind::MissingField, name,
                               "annotations[" + std::to_string(firstMissingCrowd) + "].iscrowd",
                               "missing field in " + std::to_string(missingCrowd) +
                                   " annotations; read as 0");
        if (clamped > 0)
            m_result.notes.push_back(name + ": " + std::to_string(clamped) +
                                     " boxes reaching outside their image clamped to it");
        if (skippedWithImage > 0)
            m_result.notes.push_back(name + ": " + std::to_string(skippedWithImage) +
                                     " annotations left out with their unreadable images");
        if (fromPolygon > 0)
            m_result.notes.push_back(name + ": " + std::to_string(fromPolygon) +
                                     " boxes computed from polygons without a bbox");
        return {};
    }

    const ReadOptions& m_options;
    ImageLocator m_locator;
    fs::path m_base;
    ProblemList m_problems;
    ReadResult m_result;
};

} // namespace

Expected<ReadResult> CocoFormat::read(const ReadOptions& options) const {
    try {
        return CocoReader(options).run();
    } catch (const std::exception& e) {
        return fail(options.source.string() + ": " + e.what());
    }
}

} // namespace osprey::formats
