#include "formats/project_import.h"

#include "formats/format_registry.h"
#include "formats/layout_scan.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <system_error>
#include <unordered_map>
#include <unordered_set>

namespace fs = std::filesystem;

namespace osprey::formats {

namespace {

double msSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

/// The path stored in the project: relative when the image lies inside the project folder (given
/// absolute and normal).
std::string storedPath(const fs::path& image, const fs::path& folder) {
    const fs::path absolute =
        image.is_absolute() ? image.lexically_normal() : fs::absolute(image).lexically_normal();
    const fs::path rel = absolute.lexically_relative(folder);
    if (!rel.empty() && *rel.begin() != "..")
        return rel.generic_string();
    return absolute.generic_string();
}

} // namespace

namespace {

std::string wordsFor(const std::string& format) {
    if (format == "voc")
        return "VOC annotations";
    if (format == "yolo")
        return "YOLO label files";
    if (format == "coco")
        return "COCO JSON files";
    return format + " label files";
}

/// "164 VOC annotations in annots/, 164 images in images/, all paired".
std::string layoutLine(const ReadResult& read, const std::string& format, const fs::path& root) {
    std::set<fs::path> labelSet;
    std::vector<fs::path> found;
    std::int64_t paired = 0, unlabeled = 0, notFound = 0, orphans = 0;
    for (const auto& image : read.dataset.images) {
        if (!image.labelPath.empty())
            labelSet.insert(image.labelPath);
        if (image.found)
            found.push_back(image.path);
        else
            ++notFound;
        paired += image.found && !image.labelPath.empty() ? 1 : 0;
        unlabeled += image.found && image.labelPath.empty() ? 1 : 0;
    }
    for (const auto& problem : read.problems) {
        orphans += problem.kind == ProblemKind::LabelWithoutImage ? 1 : 0;
        notFound += problem.kind == ProblemKind::MissingImage && problem.severity == Severity::Error ? 1 : 0;
    }
    const std::vector<fs::path> labels(labelSet.begin(), labelSet.end());
    if (format == "images" || (labels.empty() && orphans == 0))
        return describeFiles(found, root, "images") + ", no label files";
    std::string text = describeFiles(labels, root, wordsFor(format));
    if (orphans > 0)
        text += " (+" + std::to_string(orphans) + " without an image)";
    text += ", " + describeFiles(found, root, "images");
    if (unlabeled == 0 && notFound == 0 && orphans == 0)
        return text + ", all paired";
    text += ": " + std::to_string(paired) + " paired";
    if (unlabeled > 0)
        text += ", " + std::to_string(unlabeled) + " images without labels";
    if (orphans > 0)
        text += ", " + std::to_string(orphans) + " label files without an image";
    if (notFound > 0)
        text += ", " + std::to_string(notFound) + " images not found";
    return text;
}

} // namespace

Expected<ReadResult> readSource(const ReadOptions& given, const std::string& format, std::string* chosen) {
    const auto& registry = FormatRegistry::instance();
    ReadOptions options = given;
    std::error_code ec;
    const bool folder = fs::is_directory(options.source, ec);
    if (folder && !options.scan)
        options.scan = std::make_shared<const LayoutScan>(scanLayout(options.source));
    const Format* reader = nullptr;
    const bool detect = format.empty() || format == "auto";
    if (detect) {
        auto detected = registry.detect(options.source);
        if (!detected)
            return fail(detected.error());
        reader = *detected;
    } else {
        reader = registry.find(format);
        if (!reader)
            return fail("unknown format '" + format + "'; use one of: auto|" + registry.names());
    }
    if (chosen)
        *chosen = reader->name();
    auto result = reader->read(options);
    if (!result)
        return result;
    std::set<fs::path> labelSet;
    for (const auto& image : result->dataset.images)
        if (!image.labelPath.empty())
            labelSet.insert(image.labelPath);
    result->labelFiles = static_cast<std::int64_t>(labelSet.size());
    for (const auto& problem : result->problems)
        result->labelFiles += problem.kind == ProblemKind::LabelWithoutImage ? 1 : 0;
    result->layout =
        layoutLine(*result, reader->name(), folder ? options.source : options.source.parent_path());
    result->scan = options.scan;
    result->formatDetected = detect;
    return result;
}

std::string emptyImportProblem(const ReadResult& read, const std::string& format,
                               const ReadOptions& options) {
    const std::string source = options.source.string();
    const std::string found = read.scan ? describeScan(*read.scan) : "found " + read.layout;
    std::vector<std::string> pass;
    const LayoutScan* scan = read.scan.get();
    if (scan && !scan->vocXml.empty() && format != "voc")
        pass.push_back("format=voc");
    if (scan && !scan->cocoJson.empty() && format != "coco")
        pass.push_back("format=coco");
    if (scan && (!scan->yoloTxt.empty() || !scan->descriptors.empty()) && format != "yolo")
        pass.push_back("format=yolo");
    bool notFound = false;
    for (const auto& image : read.dataset.images)
        notFound = notFound || !image.found;
    for (const auto& problem : read.problems)
        notFound = notFound || problem.kind == ProblemKind::MissingImage;
    // A data.yaml whose path: was not followed: say so first, with the flag that follows it.
    const auto notFollowed = std::find_if(read.problems.begin(), read.problems.end(), [](const Problem& p) {
        return p.kind == ProblemKind::RootNotFollowed;
    });
    if (notFollowed != read.problems.end())
        pass.push_back("outside=true (to follow the path: of " + notFollowed->file + ")");
    if (scan && scan->labelFiles() == 0 && scan->descriptors.empty() && !scan->images.empty() &&
        format != "images")
        pass.push_back("format=images (the folder has no label files)");
    else if (notFound || (scan && scan->images.empty()))
        pass.push_back("images=DIR (the folder that holds the images)");
    if (pass.empty())
        pass.push_back("source= the annotation file or folder itself, and images=DIR when the images are "
                       "elsewhere");
    std::string hint = "; pass ";
    for (std::size_t i = 0; i < pass.size(); ++i)
        hint += (i ? " or " : "") + pass[i];
    const auto firstError = std::find_if(read.problems.begin(), read.problems.end(),
                                         [](const Problem& p) { return p.severity == Severity::Error; });
    std::string first = firstError != read.problems.end() ? "; first problem: " + firstError->text() : "";
    if (notFollowed != read.problems.end())
        first = "; " + notFollowed->text() + first;
    if (read.dataset.images.empty())
        return source + ": 0 images to import with format=" + format + " (" + found + ")" + first + hint;
    const std::size_t boxes = read.dataset.boxCount();
    if (boxes > 0)
        return {};
    if (format == "images") {
        if (read.formatDetected && scan && scan->labelFiles() > 0)
            return source +
                   ": label files were found but none could be read as a dataset, so only images "
                   "would be imported (" +
                   found + ")" + hint +
                   " (or format=images to import the "
                   "images without their labels)";
        return {};
    }
    if (read.labelFiles == 0)
        return {};
    const bool errors = firstError != read.problems.end();
    const bool negatives = std::any_of(read.dataset.images.begin(), read.dataset.images.end(),
                                       [](const DatasetImage& i) { return i.labels == LabelState::Empty; });
    if (negatives && !errors)
        return {}; // every label file is empty: a dataset of negatives
    return source + ": " + std::to_string(read.labelFiles) +
           " label files found but 0 boxes read from them (" + found + ")" + first + hint;
}

Status writeDataset(project::Project& project, const Dataset& dataset, const Progress& progress,
                    ImportSummary& summary) {
    return project.transaction([&]() -> Status {
        auto existing = project.classes().list();
        if (!existing)
            return fail(existing.error());
        std::unordered_map<std::string, std::int64_t> classIdByName;
        for (const auto& cls : *existing)
            classIdByName.emplace(cls.name, cls.id);
        std::vector<std::int64_t> classIds;
        for (const auto& cls : dataset.classes) {
            auto it = classIdByName.find(cls.name);
            if (it == classIdByName.end()) {
                auto id = project.classes().add(cls.name, cls.color);
                if (!id)
                    return fail(id.error());
                it = classIdByName.emplace(cls.name, *id).first;
                ++summary.classesAdded;
            }
            classIds.push_back(it->second);
        }

        std::unordered_set<std::string> knownPaths;
        if (auto count = project.images().count(); count && *count > 0) {
            project::ImageQuery all;
            all.limit = 0;
            auto images = project.images().list(all);
            if (!images)
                return fail(images.error());
            for (const auto& image : *images)
                knownPaths.insert(image.path);
        }

        const fs::path folder = fs::absolute(project.folder()).lexically_normal();
        std::vector<project::NewImage> newImages;
        std::vector<std::size_t> sourceIndex;
        newImages.reserve(dataset.images.size());
        std::size_t boxTotal = 0;
        for (std::size_t i = 0; i < dataset.images.size(); ++i) {
            const auto& image = dataset.images[i];
            project::NewImage row;
            row.path = storedPath(image.path, folder);
            if (!knownPaths.insert(row.path).second) {
                ++summary.alreadyPresent;
                continue;
            }
            row.width = image.width;
            row.height = image.height;
            row.hash = image.hash;
            row.status = image.boxes.empty() && image.status == project::ImageStatus::Labeled
                             ? project::ImageStatus::New
                             : image.status;
            row.split = image.split;
            row.splitLocked = image.splitLocked;
            summary.unlabeled += row.status == project::ImageStatus::New ? 1 : 0;
            summary.verifiedEmpty += row.status == project::ImageStatus::VerifiedEmpty ? 1 : 0;
            boxTotal += image.boxes.size();
            newImages.push_back(std::move(row));
            sourceIndex.push_back(i);
        }
        if (progress.cancelled())
            return fail("import cancelled", "cancelled");
        progress.report(0, static_cast<std::int64_t>(boxTotal), "writing images");
        auto imageIds = project.images().addAll(newImages);
        if (!imageIds)
            return fail(imageIds.error());
        summary.images = static_cast<std::int64_t>(imageIds->size());

        // Boxes go in chunks so that progress and cancel stay responsive on a million-box import.
        constexpr std::size_t kChunk = 65536;
        std::vector<project::NewBox> chunk;
        chunk.reserve(std::min(kChunk, boxTotal));
        std::int64_t written = 0;
        const auto flush = [&]() -> Status {
            if (chunk.empty())
                return {};
            if (progress.cancelled())
                return fail("import cancelled", "cancelled");
            auto ids = project.boxes().addAll(chunk);
            if (!ids)
                return fail(ids.error());
            written += static_cast<std::int64_t>(chunk.size());
            chunk.clear();
            progress.report(written, static_cast<std::int64_t>(boxTotal), "writing boxes");
            return {};
        };
        for (std::size_t k = 0; k < sourceIndex.size(); ++k) {
            const auto& image = dataset.images[sourceIndex[k]];
            for (const auto& box : image.boxes) {
                project::NewBox row;
                row.imageId = (*imageIds)[k];
                row.classId = classIds.at(static_cast<std::size_t>(box.classIndex));
                row.x1 = box.x1;
                row.y1 = box.y1;
                row.x2 = box.x2;
                row.y2 = box.y2;
                row.source = box.source;
                row.score = box.score;
                row.flags = box.flags;
                chunk.push_back(row);
                if (chunk.size() == kChunk)
                    if (auto status = flush(); !status)
                        return status;
            }
        }
        if (auto status = flush(); !status)
            return status;
        summary.boxes = written;
        return {};
    });
}

Expected<ImportSummary> importDataset(project::Project& project, const ImportOptions& options) {
    ImportSummary summary;
    const auto readStart = std::chrono::steady_clock::now();
    auto read = readSource(options.read, options.format, &summary.format);
    if (!read)
        return fail(read.error());
    summary.readMs = msSince(readStart);
    summary.layout = read->layout;
    if (options.afterRead)
        options.afterRead(*read);
    if (const std::string problem = emptyImportProblem(*read, summary.format, options.read); !problem.empty())
        return fail(problem, "empty");
    summary.problems = read->problems;
    summary.notes = read->notes;
    summary.skippedCrowd = read->skippedCrowd;
    if (options.mode == ImportMode::Strict && !read->problems.empty()) {
        const auto& problems = read->problems;
        const auto firstError = std::find_if(problems.begin(), problems.end(),
                                             [](const Problem& p) { return p.severity == Severity::Error; });
        const Problem& first = firstError != problems.end() ? *firstError : problems.front();
        return fail("strict=true: " + std::to_string(problems.size()) +
                        " problem(s), nothing was imported; " + first.text(),
                    "strict");
    }
    if (options.read.progress.cancelled())
        return fail("import cancelled", "cancelled");
    const auto writeStart = std::chrono::steady_clock::now();
    ImportSummary counts = summary;
    if (auto status = writeDataset(project, read->dataset, options.read.progress, counts); !status)
        return fail(status.error());
    counts.writeMs = msSince(writeStart);
    return counts;
}

} // namespace osprey::formats
