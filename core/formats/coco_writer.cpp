#include "formats/coco_format.h"

#include "formats/format_util.h"

#include "common/atomic_file.h"

#include <nlohmann/json.hpp>

#include <map>
#include <set>

namespace fs = std::filesystem;

namespace osprey::formats {

Expected<WriteReport> CocoFormat::write(const Dataset& dataset, const WriteOptions& options) const {
    WriteReport report;
    const fs::path dest = fs::absolute(options.dest);
    std::map<std::string, nlohmann::json> files;
    std::map<std::string, std::set<std::string>> usedNames;
    std::map<std::string, std::int64_t> nextImageId, nextAnnotationId;
    nlohmann::json categories = nlohmann::json::array();
    for (std::size_t i = 0; i < dataset.classes.size(); ++i)
        categories.push_back({{"id", i + 1}, {"name", dataset.classes[i].name}, {"supercategory", ""}});
    const std::int64_t total = static_cast<std::int64_t>(dataset.images.size());
    for (std::int64_t i = 0; i < total; ++i) {
        const auto& image = dataset.images[static_cast<std::size_t>(i)];
        if (options.progress.cancelled())
            return fail("export cancelled", "cancelled");
        if (i % 256 == 0)
            options.progress.report(i, total, "writing COCO");
        if (!util::exported(image, options.unlabeled)) {
            ++report.skippedUnlabeled;
            continue;
        }
        const std::string split = util::exportSplitName(image.split);
        auto& doc = files[split];
        if (doc.is_null())
            doc = {{"info", {{"description", "exported by Osprey"}}},
                   {"licenses", nlohmann::json::array()},
                   {"categories", categories},
                   {"images", nlohmann::json::array()},
                   {"annotations", nlohmann::json::array()}};
        const std::string fileName =
            util::uniqueFileName(fs::path(image.name).filename().string(), usedNames[split]);
        if (options.images != ImageExport::None && image.found)
            if (auto placed =
                    util::placeImage(image.path, dest / "images" / split / fileName, options.images);
                !placed)
                return fail(placed.error());
        const std::int64_t imageId = ++nextImageId[split];
        doc["images"].push_back(
            {{"id", imageId}, {"file_name", fileName}, {"width", image.width}, {"height", image.height}});
        for (const auto& box : image.boxes) {
            const double w = box.x2 - box.x1, h = box.y2 - box.y1;
            nlohmann::json ann = {{"id", ++nextAnnotationId[split]},
                                  {"image_id", imageId},
                                  {"category_id", box.classIndex + 1},
                                  {"bbox", {box.x1, box.y1, w, h}},
                                  {"area", w * h},
                                  {"segmentation", nlohmann::json::array()},
                                  {"iscrowd", box.flags.crowd ? 1 : 0}};
            if (box.score)
                ann["score"] = *box.score;
            doc["annotations"].push_back(std::move(ann));
            ++report.boxes;
        }
        ++report.images;
    }
    for (const auto& [split, doc] : files)
        if (auto written =
                writeFileAtomic(dest / "annotations" / ("instances_" + split + ".json"), doc.dump());
            !written)
            return fail(written.error());
    options.progress.report(total, total, "writing COCO");
    return report;
}

} // namespace osprey::formats
