#include "formats/project_export.h"

#include "formats/format_registry.h"

#include <system_error>
#include <unordered_map>

namespace fs = std::filesystem;

namespace osprey::formats {

Expected<Dataset> readProject(const project::Project& project, const Progress& progress) {
    Dataset dataset;
    auto classes = project.classes().list();
    if (!classes)
        return fail(classes.error());
    std::unordered_map<std::int64_t, int> indexOf;
    for (const auto& cls : *classes) {
        indexOf.emplace(cls.id, static_cast<int>(dataset.classes.size()));
        dataset.classes.push_back({cls.name, cls.color});
    }
    project::ImageQuery all;
    all.limit = 0;
    auto images = project.images().list(all);
    if (!images)
        return fail(images.error());
    const std::int64_t total = static_cast<std::int64_t>(images->size());
    dataset.images.reserve(images->size());
    std::unordered_map<std::int64_t, std::size_t> rowOf;
    std::error_code ec;
    // Only a project with video frames pays for looking up each image's provenance.
    auto frameHashes = project.frames().hashes();
    if (!frameHashes)
        return fail(frameHashes.error());
    const bool hasFrames = !frameHashes->empty();
    for (std::int64_t i = 0; i < total; ++i) {
        const auto& record = (*images)[static_cast<std::size_t>(i)];
        if (i % 256 == 0) {
            if (progress.cancelled())
                return fail("cancelled", "cancelled");
            progress.report(i, total, "reading the project");
        }
        DatasetImage image;
        image.id = record.id;
        image.path = project.resolve(record.path);
        image.found = fs::is_regular_file(image.path, ec);
        image.name = image.path.filename().string();
        image.width = record.width;
        image.height = record.height;
        image.hash = record.hash;
        if (hasFrames) {
            auto frame = project.frames().source(record.id);
            if (!frame)
                return fail(frame.error());
            if (*frame)
                image.video = (*frame)->video;
        }
        image.status = record.status;
        image.split = record.split;
        image.splitLocked = record.splitLocked;
        rowOf.emplace(record.id, dataset.images.size());
        dataset.images.push_back(std::move(image));
    }
    // One streaming query for every box instead of one query per image.
    auto read = project.boxes().forEach([&](const project::BoxRecord& b) -> Status {
        const auto row = rowOf.find(b.imageId);
        if (row == rowOf.end())
            return {};
        DatasetBox box;
        const auto it = indexOf.find(b.classId);
        box.classIndex = it == indexOf.end() ? -1 : it->second;
        box.x1 = b.x1;
        box.y1 = b.y1;
        box.x2 = b.x2;
        box.y2 = b.y2;
        box.flags = b.flags;
        box.source = b.source;
        box.score = b.score;
        box.id = b.id;
        dataset.images[row->second].boxes.push_back(box);
        return {};
    });
    if (!read)
        return fail(read.error());
    for (auto& image : dataset.images)
        image.labels = !image.boxes.empty()                                  ? LabelState::Present
                       : image.status == project::ImageStatus::VerifiedEmpty ? LabelState::Empty
                                                                             : LabelState::Missing;
    return dataset;
}

Expected<WriteReport> exportProject(const project::Project& project, const std::string& format,
                                    const WriteOptions& options) {
    const Format* writer = FormatRegistry::instance().find(format);
    if (!writer || !writer->canWrite())
        return fail("cannot export to '" + format + "'; use yolo, coco or voc");
    auto dataset = readProject(project, options.progress);
    if (!dataset)
        return fail(dataset.error());
    for (const auto& image : dataset->images)
        for (const auto& box : image.boxes)
            if (box.classIndex < 0)
                return fail("box " + std::to_string(box.id) + " of " + image.path.string() +
                            " refers to a class that no longer exists; run osprey-cli validate");
    return writer->write(*dataset, options);
}

} // namespace osprey::formats
