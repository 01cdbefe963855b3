#include "formats/yolo_format.h"

#include "formats/format_util.h"
#include "formats/image_locator.h"
#include "formats/layout_scan.h"

#include "common/atomic_file.h"
#include "common/strings.h"

#include <yaml-cpp/yaml.h>

#include <map>
#include <set>
#include <system_error>

namespace fs = std::filesystem;

namespace osprey::formats {

std::string YoloFormat::description() const {
    return "YOLO text labels: Ultralytics data.yaml, Darknet obj.data/obj.names, or labels beside the images";
}

namespace {

/// True when the first non-empty line of a .txt file looks like a YOLO box line.
bool looksLikeLabelFile(const fs::path& path) {
    auto lines = util::readLines(path);
    if (!lines)
        return false;
    for (const auto& line : *lines) {
        const auto fields = splitWhitespace(line);
        if (fields.empty())
            continue;
        return fields.size() >= 5 && util::parseClassId(fields[0]).has_value() &&
               parseDouble(fields[1]).has_value();
    }
    return true; // an empty label file is a valid negative
}

} // namespace

int YoloFormat::detect(const fs::path& source) const {
    std::error_code ec;
    if (fs::is_regular_file(source, ec)) {
        const std::string ext = toLower(source.extension().string());
        if (ext == ".yaml" || ext == ".yml" || ext == ".data")
            return 95;
        return 0;
    }
    if (!fs::is_directory(source, ec))
        return 0;
    if (fs::exists(source / "data.yaml", ec) || fs::exists(source / "obj.data", ec))
        return 90;
    if (fs::exists(source / "obj.names", ec))
        return 80;
    // Look for a label file that pairs with an image, within a bounded walk.
    int seen = 0;
    for (auto it = fs::recursive_directory_iterator(source, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (++seen > 2000) // past the quick look: the bounded scan of the whole tree decides
            return scanLayout(source).yoloTxt.empty() ? 0 : 60;
        const auto& path = it->path();
        if (!it->is_regular_file(ec) || toLower(path.extension().string()) != ".txt")
            continue;
        const std::string name = toLower(path.filename().string());
        if (name == "classes.txt")
            return 70;
        if (name == "readme.txt" || path.parent_path().filename() == "ImageSets" ||
            path.parent_path().parent_path().filename() == "ImageSets")
            continue;
        if (looksLikeLabelFile(path))
            return 60;
    }
    return 0;
}

Expected<WriteReport> YoloFormat::write(const Dataset& dataset, const WriteOptions& options) const {
    WriteReport report;
    const fs::path dest = fs::absolute(options.dest);
    std::error_code ec;
    fs::create_directories(dest, ec);
    if (ec)
        return fail(dest.string() + ": cannot create the folder: " + ec.message());
    std::map<std::string, std::set<std::string>> usedNames;
    std::set<std::string> splits;
    std::int64_t crowdSkipped = 0, noSplit = 0;
    const std::int64_t total = static_cast<std::int64_t>(dataset.images.size());
    for (std::int64_t i = 0; i < total; ++i) {
        const auto& image = dataset.images[static_cast<std::size_t>(i)];
        if (options.progress.cancelled())
            return fail("export cancelled", "cancelled");
        if (i % 64 == 0)
            options.progress.report(i, total, "writing YOLO labels");
        if (!util::exported(image, options.unlabeled)) {
            ++report.skippedUnlabeled;
            continue;
        }
        if (image.split == project::Split::None)
            ++noSplit;
        const std::string split = util::exportSplitName(image.split);
        splits.insert(split);
        const std::string fileName =
            util::uniqueFileName(fs::path(image.name).filename().string(), usedNames[split]);
        const fs::path imageTarget = dest / "images" / split / fileName;
        if (options.images != ImageExport::None) {
            if (!image.found)
                report.notes.push_back("image file missing, label written without it: " +
                                       image.path.string());
            else if (auto placed = util::placeImage(image.path, imageTarget, options.images); !placed)
                return fail(placed.error());
        }
        fs::path labelTarget = dest / "labels" / split / fileName;
        labelTarget.replace_extension(".txt");
        if (image.status == project::ImageStatus::New && image.boxes.empty())
            continue; // kept unlabeled: an image without a label file, not a negative
        std::string text;
        const double w = image.width > 0 ? image.width : 1, h = image.height > 0 ? image.height : 1;
        for (const auto& box : image.boxes) {
            if (box.flags.crowd) {
                ++crowdSkipped;
                continue;
            }
            text += std::to_string(box.classIndex) + ' ' + util::formatFixed((box.x1 + box.x2) / 2 / w, 8) +
                    ' ' + util::formatFixed((box.y1 + box.y2) / 2 / h, 8) + ' ' +
                    util::formatFixed((box.x2 - box.x1) / w, 8) + ' ' +
                    util::formatFixed((box.y2 - box.y1) / h, 8) + '\n';
            ++report.boxes;
        }
        if (auto written = writeFileAtomic(labelTarget, text); !written)
            return fail(written.error());
        ++report.images;
    }
    YAML::Emitter yaml;
    yaml << YAML::BeginMap << YAML::Key << "path" << YAML::Value << dest.string();
    for (const char* split : {"train", "val", "test"})
        if (splits.count(split))
            yaml << YAML::Key << split << YAML::Value << (std::string("images/") + split);
    yaml << YAML::Key << "nc" << YAML::Value << dataset.classes.size();
    yaml << YAML::Key << "names" << YAML::Value << YAML::BeginSeq;
    for (const auto& cls : dataset.classes)
        yaml << YAML::DoubleQuoted << cls.name;
    yaml << YAML::EndSeq << YAML::EndMap;
    if (auto written = writeFileAtomic(dest / "data.yaml", std::string(yaml.c_str()) + "\n"); !written)
        return fail(written.error());
    if (crowdSkipped > 0)
        report.notes.push_back(std::to_string(crowdSkipped) +
                               " crowd boxes left out (YOLO has no crowd flag)");
    if (noSplit > 0)
        report.notes.push_back(std::to_string(noSplit) + " images without a split written to train");
    if (!splits.count("val"))
        report.notes.push_back("no val images: set val in data.yaml before training with Ultralytics");
    options.progress.report(total, total, "writing YOLO labels");
    return report;
}

} // namespace osprey::formats
