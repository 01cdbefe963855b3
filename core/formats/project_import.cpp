#include "formats/project_import.h"

#include "formats/format_registry.h"

#include <algorithm>
#include <chrono>
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

Expected<ReadResult> readSource(const ReadOptions& options, const std::string& format, std::string* chosen) {
    const auto& registry = FormatRegistry::instance();
    const Format* reader = nullptr;
    if (format.empty() || format == "auto") {
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
    return reader->read(options);
}

Status writeDataset(project::Project& project, const Dataset& dataset, const Progress& progress,
                    ImportSummary& summary) {
    return project.transaction([&]() -> Status {
        auto existing = project.classes();
        if (!existing)
            return fail(existing.error());
        std::unordered_map<std::string, std::int64_t> classIdByName;
        for (const auto& cls : *existing)
            classIdByName.emplace(cls.name, cls.id);
        std::vector<std::int64_t> classIds;
        for (const auto& cls : dataset.classes) {
            auto it = classIdByName.find(cls.name);
            if (it == classIdByName.end()) {
                auto id = project.addClass(cls.name, cls.color);
                if (!id)
                    return fail(id.error());
                it = classIdByName.emplace(cls.name, *id).first;
                ++summary.classesAdded;
            }
            classIds.push_back(it->second);
        }

        std::unordered_set<std::string> knownPaths;
        if (auto count = project.countImages(); count && *count > 0) {
            project::ImageQuery all;
            all.limit = 0;
            auto images = project.listImages(all);
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
        auto imageIds = project.addImages(newImages);
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
            auto ids = project.addBoxes(chunk);
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
