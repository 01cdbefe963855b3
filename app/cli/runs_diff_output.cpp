#include "cli/runs_diff_output.h"

#include "common/strings.h"
#include "quality/dataset_snapshot.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <iostream>
#include <sstream>

namespace osprey::cli {
namespace {

using nlohmann::json;

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

std::string boxText(const std::array<double, 4>& xyxy) {
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on "(" + std::string.
    std::string text(1, '(');
    for (size_t i = 0; i < xyxy.size(); ++i) {
        if (i > 0)
            text += ", ";
        text += number(xyxy[i]);
    }
    text += ')';
    return text;
}

/// Prints a titled list of `items`, at most `limit` of them.
template <typename T>
void section(std::ostringstream& out, const std::string& title, const std::vector<T>& items, int limit,
             const std::function<std::string(const T&)>& line) {
    if (items.empty())
        return;
    out << "\n" << title << " (" << items.size() << "):\n";
    const size_t shown = limit > 0 ? std::min(items.size(), static_cast<size_t>(limit)) : items.size();
    for (size_t i = 0; i < shown; ++i)
        out << "  " << line(items[i]) << "\n";
    if (shown < items.size())
        out << "  ... and " << items.size() - shown << " more (limit=0 lists all, json=true gives all)\n";
}

std::string split(project::Split value) {
    return std::string(project::toString(value));
}

json boxJson(const quality::BoxChange& box) {
    return {{"image", box.path},
            {"box_id", box.boxId},
            {"class", box.className},
            {"xyxy", {box.xyxy[0], box.xyxy[1], box.xyxy[2], box.xyxy[3]}}};
}

} // namespace

std::string diffText(const RunsDiff& diff, int limit) {
    const auto& d = diff.data;
    std::ostringstream out;
    out << "runs diff: " << diff.a << " (snapshot " << quality::shortHash(d.hashA) << ") -> "
        << (diff.b == "current" ? std::string("the project now") : diff.b) << " (snapshot "
        << quality::shortHash(d.hashB) << ")\n";
    const std::string summary = quality::changeSummary(d);
    if (d.sameData())
        out << "data: identical (same snapshot hash)\n";
    else
        out << "data: " << (summary.empty() ? "the hashes differ in what is not compared here" : summary)
            << "\n";
    if (!diff.argsCompared) {
        out << "arguments: not compared (the project now has no run arguments)\n";
    } else if (diff.args.empty()) {
        out << "arguments: identical\n";
    } else {
        std::string keys;
        for (const auto& change : diff.args)
            keys += (keys.empty() ? "" : ", ") + change.key;
        out << "arguments: " << plural(diff.args.size(), "changed", "changed") << " (" << keys << ")\n";
    }
    using quality::BoxChange;
    section<quality::ImageChange>(out, "Images added", d.imagesAdded, limit, [](const auto& image) {
        return "+ " + image.path + "  [" + split(image.split) + ", " +
               plural(size_t(image.boxes), "box", "boxes") + "]";
    });
    section<quality::ImageChange>(out, "Images removed", d.imagesRemoved, limit, [](const auto& image) {
        return "- " + image.path + "  [was " + split(image.split) + ", " +
               plural(size_t(image.boxes), "box", "boxes") + "]";
    });
    section<quality::SplitMove>(
        out, "Images moved between splits", d.imagesMoved, limit,
        [](const auto& move) { return move.path + ": " + split(move.from) + " -> " + split(move.to); });
    section<quality::StatusChange>(out, "Status changed", d.statusChanged, limit, [](const auto& change) {
        return change.path + ": " + std::string(project::toString(change.from)) + " -> " +
               std::string(project::toString(change.to));
    });
    section<std::string>(out, "Image files changed (content or size)", d.contentChanged, limit,
                         [](const auto& path) { return path; });
    section<BoxChange>(out, "Boxes added", d.boxesAdded, limit, [](const auto& box) {
        return "+ " + box.path + " box " + std::to_string(box.boxId) + " " + box.className + " " +
               boxText(box.xyxy);
    });
    section<BoxChange>(out, "Boxes removed", d.boxesRemoved, limit, [](const auto& box) {
        return "- " + box.path + " box " + std::to_string(box.boxId) + " " + box.className + " " +
               boxText(box.xyxy);
    });
    section<quality::BoxMove>(
        out, "Boxes moved (IoU below the threshold)", d.boxesMoved, limit, [](const auto& m) {
            return m.path + " box " + std::to_string(m.boxId) + " " + m.className + ": " + boxText(m.before) +
                   " -> " + boxText(m.after) + ", IoU " + number(m.iou);
        });
    section<quality::BoxRelabel>(out, "Boxes relabelled", d.boxesRelabelled, limit, [](const auto& r) {
        return r.path + " box " + std::to_string(r.boxId) + ": " + r.from + " -> " + r.to;
    });
    section<quality::ClassRename>(out, "Classes renamed", d.classesRenamed, limit,
                                  [](const auto& r) { return r.from + " -> " + r.to; });
    section<std::string>(out, "Classes added", d.classesAdded, limit, [](const auto& name) { return name; });
    section<std::string>(out, "Classes removed", d.classesRemoved, limit,
                         [](const auto& name) { return name; });
    section<quality::ArgChange>(out, "Arguments changed", diff.args, limit, [](const auto& change) {
        return change.key + ": " + (change.before.empty() ? "(unset)" : change.before) + " -> " +
               (change.after.empty() ? "(unset)" : change.after);
    });
    return out.str();
}

json diffJson(const RunsDiff& diff) {
    const auto& d = diff.data;
    json images = {{"added", json::array()},
                   {"removed", json::array()},
                   {"moved", json::array()},
                   {"status_changed", json::array()},
                   {"content_changed", d.contentChanged}};
    for (const auto& image : d.imagesAdded)
        images["added"].push_back(
            {{"path", image.path}, {"split", split(image.split)}, {"boxes", image.boxes}});
    for (const auto& image : d.imagesRemoved)
        images["removed"].push_back(
            {{"path", image.path}, {"split", split(image.split)}, {"boxes", image.boxes}});
    for (const auto& move : d.imagesMoved)
        images["moved"].push_back({{"path", move.path}, {"from", split(move.from)}, {"to", split(move.to)}});
    for (const auto& change : d.statusChanged)
        images["status_changed"].push_back({{"path", change.path},
                                            {"from", project::toString(change.from)},
                                            {"to", project::toString(change.to)}});
    json boxes = {{"added", json::array()},
                  {"removed", json::array()},
                  {"moved", json::array()},
                  {"relabelled", json::array()},
                  {"adjusted", d.boxesAdjusted}};
    for (const auto& box : d.boxesAdded)
        boxes["added"].push_back(boxJson(box));
    for (const auto& box : d.boxesRemoved)
        boxes["removed"].push_back(boxJson(box));
    for (const auto& m : d.boxesMoved)
        boxes["moved"].push_back({{"image", m.path},
                                  {"box_id", m.boxId},
                                  {"class", m.className},
                                  {"before", {m.before[0], m.before[1], m.before[2], m.before[3]}},
                                  {"after", {m.after[0], m.after[1], m.after[2], m.after[3]}},
                                  {"iou", m.iou}});
    for (const auto& r : d.boxesRelabelled)
        boxes["relabelled"].push_back(
            {{"image", r.path}, {"box_id", r.boxId}, {"from", r.from}, {"to", r.to}});
    json classes = {{"renamed", json::array()},
                    {"added", d.classesAdded},
                    {"removed", d.classesRemoved},
                    {"order_changed", d.classOrderChanged}};
    for (const auto& r : d.classesRenamed)
        classes["renamed"].push_back({{"id", r.classId}, {"from", r.from}, {"to", r.to}});
    json args = {{"compared", diff.argsCompared}, {"changed", json::array()}};
    for (const auto& change : diff.args)
        args["changed"].push_back({{"key", change.key}, {"a", change.before}, {"b", change.after}});
    json summary = {{"images_added", d.imagesAdded.size()},
                    {"images_removed", d.imagesRemoved.size()},
                    {"images_moved", d.imagesMoved.size()},
                    {"status_changed", d.statusChanged.size()},
                    {"content_changed", d.contentChanged.size()},
                    {"boxes_added", d.boxesAdded.size()},
                    {"boxes_removed", d.boxesRemoved.size()},
                    {"boxes_moved", d.boxesMoved.size()},
                    {"boxes_relabelled", d.boxesRelabelled.size()},
                    {"boxes_adjusted", d.boxesAdjusted},
                    {"classes_renamed", d.classesRenamed.size()},
                    {"classes_added", d.classesAdded.size()},
                    {"classes_removed", d.classesRemoved.size()},
                    {"class_order_changed", d.classOrderChanged},
                    {"args_changed", diff.args.size()}};
    return {{"a", diff.a},
            {"b", diff.b},
            {"snapshot_a", d.hashA},
            {"snapshot_b", d.hashB},
            {"same_data", d.sameData()},
            {"summary", summary},
            {"images", images},
            {"boxes", boxes},
            {"classes", classes},
            {"args", args}};
}

void printTable(const std::vector<std::vector<std::string>>& rows) {
    std::vector<size_t> widths;
    for (const auto& row : rows)
        for (size_t c = 0; c < row.size(); ++c) {
            widths.resize(std::max(widths.size(), row.size()));
            widths[c] = std::max(widths[c], row[c].size());
        }
    for (const auto& row : rows) {
        std::string line;
        for (size_t c = 0; c < row.size(); ++c)
            line += row[c] + (c + 1 < row.size() ? std::string(widths[c] - row[c].size() + 2, ' ') : "");
        std::cout << line << "\n";
    }
}

} // namespace osprey::cli
