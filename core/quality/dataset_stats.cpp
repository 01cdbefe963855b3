#include "quality/dataset_stats.h"

#include "formats/project_export.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace osprey::quality {

namespace {

const char* const kSplitNames[kSplitCount] = {"train", "val", "test", "none"};

void addToHistogram(Histogram& histogram, double value) {
    const int bins = static_cast<int>(histogram.counts.size());
    int bin = static_cast<int>((value - histogram.lower) / histogram.binWidth());
    bin = std::clamp(bin, 0, bins - 1);
    ++histogram.counts[static_cast<std::size_t>(bin)];
}

std::string bar(std::int64_t count, std::int64_t max, int width = 40) {
    const int n = max > 0 ? static_cast<int>((count * width + max - 1) / max) : 0;
    return std::string(static_cast<std::size_t>(n), '#');
}

/// A box relative to its image, which has a known size.
LabelBox labelBoxOf(const formats::DatasetImage& image, const formats::DatasetBox& box) {
    const double width = image.width, height = image.height;
    return {box.classIndex, (box.x1 + box.x2) / 2 / width, (box.y1 + box.y2) / 2 / height,
            (box.x2 - box.x1) / width, (box.y2 - box.y1) / height};
}

} // namespace

int splitIndex(project::Split split) {
    switch (split) {
    case project::Split::Train:
        return 0;
    case project::Split::Val:
        return 1;
    case project::Split::Test:
        return 2;
    default:
        return 3;
    }
}

DatasetStats computeStats(const formats::Dataset& dataset, int bins, int maxBoxesPerImage) {
    DatasetStats stats;
    bins = std::max(1, bins);
    stats.relativeWidth.counts.assign(static_cast<std::size_t>(bins), 0);
    stats.relativeHeight.counts.assign(static_cast<std::size_t>(bins), 0);
    stats.boxesPerImage.assign(static_cast<std::size_t>(std::max(1, maxBoxesPerImage) + 1), 0);
    for (Histogram2D* grid : {&stats.centres, &stats.sizes}) {
        grid->bins = bins;
        grid->counts.assign(static_cast<std::size_t>(bins * bins), 0);
    }
    const auto add = [bins](Histogram2D& grid, double x, double y) {
        const int bx = std::clamp(static_cast<int>(x * bins), 0, bins - 1);
        const int by = std::clamp(static_cast<int>(y * bins), 0, bins - 1);
        ++grid.counts[static_cast<std::size_t>(by * bins + bx)];
    };
    for (const auto& cls : dataset.classes)
        stats.classes.push_back({cls.name, 0, 0, {}, {}});
    std::vector<int> seen(dataset.classes.size(), -1);
    std::vector<LabelBox> sized; // every box of an image with a known size, for the layout sample
    for (std::size_t i = 0; i < dataset.images.size(); ++i) {
        const auto& image = dataset.images[i];
        const int s = splitIndex(image.split);
        ++stats.images;
        ++stats.imagesBySplit[static_cast<std::size_t>(s)];
        if (!image.boxes.empty())
            ++stats.labeled;
        else if (image.status == project::ImageStatus::VerifiedEmpty)
            ++stats.verifiedEmpty;
        else
            ++stats.unlabeled;
        const std::size_t perImage = std::min(image.boxes.size(), stats.boxesPerImage.size() - 1);
        ++stats.boxesPerImage[perImage];
        for (const auto& box : image.boxes) {
            ++stats.boxes;
            ++stats.boxesBySplit[static_cast<std::size_t>(s)];
            if (box.classIndex >= 0 && box.classIndex < static_cast<int>(stats.classes.size())) {
                auto& cls = stats.classes[static_cast<std::size_t>(box.classIndex)];
                ++cls.boxes;
                ++cls.boxesBySplit[static_cast<std::size_t>(s)];
                if (seen[static_cast<std::size_t>(box.classIndex)] != static_cast<int>(i)) {
                    seen[static_cast<std::size_t>(box.classIndex)] = static_cast<int>(i);
                    ++cls.images;
                    ++cls.imagesBySplit[static_cast<std::size_t>(s)];
                }
            }
            if (image.width > 0 && image.height > 0) {
                const LabelBox relative = labelBoxOf(image, box);
                addToHistogram(stats.relativeWidth, relative.w);
                addToHistogram(stats.relativeHeight, relative.h);
                add(stats.centres, relative.cx, relative.cy);
                add(stats.sizes, relative.w, relative.h);
                sized.push_back(relative);
            }
        }
    }
    if (sized.size() <= kLayoutBoxes) {
        stats.layout = std::move(sized);
    } else {
        for (std::size_t k = 0; k < kLayoutBoxes; ++k)
            stats.layout.push_back(sized[k * sized.size() / kLayoutBoxes]);
    }
    return stats;
}

std::vector<LabelBox> labelBoxes(const formats::Dataset& dataset, project::Split split) {
    std::vector<LabelBox> out;
    for (const auto& image : dataset.images) {
        if (image.split != split || image.width <= 0 || image.height <= 0)
            continue;
        for (const auto& box : image.boxes)
            out.push_back(labelBoxOf(image, box));
    }
    return out;
}

Expected<DatasetStats> projectStats(const project::Project& project, int bins) {
    auto dataset = formats::readProject(project);
    if (!dataset)
        return fail(dataset.error());
    return computeStats(*dataset, bins);
}

std::string toText(const DatasetStats& stats) {
    std::ostringstream out;
    out << stats.images << " images (" << stats.labeled << " labeled, " << stats.verifiedEmpty
        << " verified empty, " << stats.unlabeled << " unlabeled), " << stats.boxes << " boxes\n\n";
    out << "split    images   boxes\n";
    for (int s = 0; s < kSplitCount; ++s) {
        char line[96];
        std::snprintf(line, sizeof line, "%-7s %7lld %7lld\n", kSplitNames[s],
                      static_cast<long long>(stats.imagesBySplit[static_cast<std::size_t>(s)]),
                      static_cast<long long>(stats.boxesBySplit[static_cast<std::size_t>(s)]));
        out << line;
    }
    std::size_t nameWidth = 5;
    for (const auto& cls : stats.classes)
        nameWidth = std::max(nameWidth, cls.name.size());
    out << "\n"
        << std::string("class") + std::string(nameWidth - 5, ' ')
        << "  images   boxes   train(img/box)   val(img/box)   test(img/box)\n";
    for (const auto& cls : stats.classes) {
        char line[160];
        std::snprintf(
            line, sizeof line, "  %7lld %7lld   %6lld/%-7lld   %5lld/%-6lld   %5lld/%-6lld\n",
            static_cast<long long>(cls.images), static_cast<long long>(cls.boxes),
            static_cast<long long>(cls.imagesBySplit[0]), static_cast<long long>(cls.boxesBySplit[0]),
            static_cast<long long>(cls.imagesBySplit[1]), static_cast<long long>(cls.boxesBySplit[1]),
            static_cast<long long>(cls.imagesBySplit[2]), static_cast<long long>(cls.boxesBySplit[2]));
        out << cls.name << std::string(nameWidth - cls.name.size(), ' ') << line;
    }
    for (const auto* histogram : {&stats.relativeWidth, &stats.relativeHeight}) {
        out << "\nrelative box " << (histogram == &stats.relativeWidth ? "width" : "height") << "\n";
        const auto max = *std::max_element(histogram->counts.begin(), histogram->counts.end());
        for (std::size_t b = 0; b < histogram->counts.size(); ++b) {
            char line[64];
            std::snprintf(line, sizeof line, "  %.2f-%.2f %8lld ",
                          histogram->lower + b * histogram->binWidth(),
                          histogram->lower + (b + 1) * histogram->binWidth(),
                          static_cast<long long>(histogram->counts[b]));
            out << line << bar(histogram->counts[b], max) << "\n";
        }
    }
    out << "\nboxes per image\n";
    const auto max = *std::max_element(stats.boxesPerImage.begin(), stats.boxesPerImage.end());
    std::size_t last = 0;
    for (std::size_t k = 0; k < stats.boxesPerImage.size(); ++k)
        if (stats.boxesPerImage[k] > 0)
            last = k;
    for (std::size_t k = 0; k <= last; ++k) {
        char line[64];
        std::snprintf(line, sizeof line, "  %3zu%s %8lld ", k,
                      k + 1 == stats.boxesPerImage.size() ? "+" : " ",
                      static_cast<long long>(stats.boxesPerImage[k]));
        out << line << bar(stats.boxesPerImage[k], max) << "\n";
    }
    return out.str();
}

std::string toJson(const DatasetStats& stats) {
    const auto splits = [](const std::array<std::int64_t, kSplitCount>& values) {
        nlohmann::json out = nlohmann::json::object();
        for (int s = 0; s < kSplitCount; ++s)
            out[kSplitNames[s]] = values[static_cast<std::size_t>(s)];
        return out;
    };
    nlohmann::json classes = nlohmann::json::array();
    for (const auto& cls : stats.classes)
        classes.push_back({{"name", cls.name},
                           {"images", cls.images},
                           {"boxes", cls.boxes},
                           {"images_by_split", splits(cls.imagesBySplit)},
                           {"boxes_by_split", splits(cls.boxesBySplit)}});
    const auto histogram = [](const Histogram& h) {
        return nlohmann::json{{"lower", h.lower}, {"upper", h.upper}, {"counts", h.counts}};
    };
    return nlohmann::json{{"images", stats.images},
                          {"boxes", stats.boxes},
                          {"labeled", stats.labeled},
                          {"unlabeled", stats.unlabeled},
                          {"verified_empty", stats.verifiedEmpty},
                          {"images_by_split", splits(stats.imagesBySplit)},
                          {"boxes_by_split", splits(stats.boxesBySplit)},
                          {"classes", classes},
                          {"relative_width", histogram(stats.relativeWidth)},
                          {"relative_height", histogram(stats.relativeHeight)},
                          {"boxes_per_image", stats.boxesPerImage}}
        .dump(2);
}

} // namespace osprey::quality
