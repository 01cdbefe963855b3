#include "formats/voc_format.h"

#include "formats/format_util.h"

#include "common/atomic_file.h"

#include <pugixml.hpp>

#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace osprey::formats {

Expected<WriteReport> VocFormat::write(const Dataset& dataset, const WriteOptions& options) const {
    WriteReport report;
    const fs::path dest = fs::absolute(options.dest);
    std::set<std::string> usedNames; // one namespace: Annotations/<stem>.xml must not collide across splits
    std::map<std::string, std::string> lists;
    const std::int64_t total = static_cast<std::int64_t>(dataset.images.size());
    for (std::int64_t i = 0; i < total; ++i) {
        const auto& image = dataset.images[static_cast<std::size_t>(i)];
        if (options.progress.cancelled())
            return fail("export cancelled", "cancelled");
        if (i % 64 == 0)
            options.progress.report(i, total, "writing VOC XML");
        if (!util::exported(image, options.unlabeled)) {
            ++report.skippedUnlabeled;
            continue;
        }
        const std::string fileName =
            util::uniqueFileName(fs::path(image.name).filename().string(), usedNames);
        const std::string stem = fs::path(fileName).stem().string();
        lists[util::exportSplitName(image.split)] += stem + "\n";
        if (options.images != ImageExport::None && image.found)
            if (auto placed = util::placeImage(image.path, dest / "JPEGImages" / fileName, options.images);
                !placed)
                return fail(placed.error());
        ++report.images;
        if (image.status == project::ImageStatus::New && image.boxes.empty())
            continue; // kept unlabeled: no XML, so it reads back as unlabeled
        pugi::xml_document doc;
        pugi::xml_node root = doc.append_child("annotation");
        root.append_child("folder").text().set("JPEGImages");
        root.append_child("filename").text().set(fileName.c_str());
        pugi::xml_node size = root.append_child("size");
        size.append_child("width").text().set(image.width);
        size.append_child("height").text().set(image.height);
        size.append_child("depth").text().set(3);
        root.append_child("segmented").text().set(0);
        for (const auto& box : image.boxes) {
            pugi::xml_node object = root.append_child("object");
            const std::string& className = dataset.classes.at(static_cast<std::size_t>(box.classIndex)).name;
            object.append_child("name").text().set(className.c_str());
            object.append_child("pose").text().set("Unspecified");
            object.append_child("truncated").text().set(box.flags.truncated ? 1 : 0);
            object.append_child("difficult").text().set(box.flags.difficult ? 1 : 0);
            if (box.flags.crowd)
                object.append_child("iscrowd").text().set(1);
            pugi::xml_node bndbox = object.append_child("bndbox");
            bndbox.append_child("xmin").text().set(util::formatNumber(box.x1).c_str());
            bndbox.append_child("ymin").text().set(util::formatNumber(box.y1).c_str());
            bndbox.append_child("xmax").text().set(util::formatNumber(box.x2).c_str());
            bndbox.append_child("ymax").text().set(util::formatNumber(box.y2).c_str());
            ++report.boxes;
        }
        std::ostringstream xml;
        doc.save(xml, "  ");
        if (auto written = writeFileAtomic(dest / "Annotations" / (stem + ".xml"), xml.str()); !written)
            return fail(written.error());
    }
    for (const auto& [split, text] : lists)
        if (auto written = writeFileAtomic(dest / "ImageSets" / "Main" / (split + ".txt"), text); !written)
            return fail(written.error());
    std::string labelmap = "# label:color_rgb:parts:actions\n";
    for (const auto& cls : dataset.classes)
        labelmap += cls.name + ":::\n";
    if (auto written = writeFileAtomic(dest / "labelmap.txt", labelmap); !written)
        return fail(written.error());
    options.progress.report(total, total, "writing VOC XML");
    return report;
}

} // namespace osprey::formats
