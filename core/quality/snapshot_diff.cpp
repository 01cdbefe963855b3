#include "quality/snapshot_diff.h"

#include "common/strings.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace osprey::quality {

namespace {

std::array<double, 4> xyxyOf(const SnapshotBox& box) {
    return {box.x1, box.y1, box.x2, box.y2};
}

/// Compares the boxes of one image present on both sides.
class BoxComparer {
public:
    BoxComparer(const DatasetSnapshot& a, const DatasetSnapshot& b, double moveIou, SnapshotDiff& out)
        : m_a(a), m_b(b), m_moveIou(moveIou), m_out(out) {}

    void compare(const SnapshotImage& imageA, const SnapshotImage& imageB) {
        const SnapshotBox* boxesA = m_a.boxesOf(imageA);
        const SnapshotBox* boxesB = m_b.boxesOf(imageB);
        std::vector<const SnapshotBox*> leftA;
        std::vector<const SnapshotBox*> leftB;
        std::unordered_map<std::int64_t, const SnapshotBox*> byId;
        for (std::uint32_t i = 0; i < imageA.boxCount; ++i)
            byId.emplace(boxesA[i].id, &boxesA[i]);
        for (std::uint32_t j = 0; j < imageB.boxCount; ++j) {
            const SnapshotBox& boxB = boxesB[j];
            const auto found = byId.find(boxB.id);
            if (found == byId.end()) {
                leftB.push_back(&boxB);
                continue;
            }
            same(imageB.path, *found->second, boxB);
            byId.erase(found);
        }
        for (std::uint32_t i = 0; i < imageA.boxCount; ++i)
            if (byId.count(boxesA[i].id) != 0)
                leftA.push_back(&boxesA[i]);
        // Boxes drawn again or re-imported get new ids: pair them by class and place before calling them
        // added and removed.
        for (const SnapshotBox* boxB : leftB) {
            auto best = leftA.end();
            double bestIou = m_moveIou;
            for (auto it = leftA.begin(); it != leftA.end(); ++it) {
                if (*it == nullptr || classIdA(**it) != classIdB(*boxB))
                    continue;
                const double iou = boxIou(xyxyOf(**it), xyxyOf(*boxB));
                if (iou >= bestIou) {
                    best = it;
                    bestIou = iou;
                }
            }
            if (best != leftA.end()) {
                if (xyxyOf(**best) != xyxyOf(*boxB))
                    ++m_out.boxesAdjusted;
                *best = nullptr;
                continue;
            }
            m_out.boxesAdded.push_back({imageB.path, boxB->id, nameB(*boxB), xyxyOf(*boxB)});
        }
        for (const SnapshotBox* boxA : leftA)
            if (boxA != nullptr)
                m_out.boxesRemoved.push_back({imageA.path, boxA->id, nameA(*boxA), xyxyOf(*boxA)});
    }

private:
    void same(const std::string& path, const SnapshotBox& boxA, const SnapshotBox& boxB) {
        if (classIdA(boxA) != classIdB(boxB))
            m_out.boxesRelabelled.push_back({path, boxB.id, nameA(boxA), nameB(boxB)});
        const auto before = xyxyOf(boxA);
        const auto after = xyxyOf(boxB);
        if (before == after)
            return;
        const double iou = boxIou(before, after);
        if (iou < m_moveIou)
            m_out.boxesMoved.push_back({path, boxB.id, nameB(boxB), before, after, iou});
        else
            ++m_out.boxesAdjusted;
    }
    std::int64_t classIdA(const SnapshotBox& box) const { return m_a.classes[size_t(box.classIndex)].id; }
    std::int64_t classIdB(const SnapshotBox& box) const { return m_b.classes[size_t(box.classIndex)].id; }
    const std::string& nameA(const SnapshotBox& box) const {
        return m_a.classes[size_t(box.classIndex)].name;
    }
    const std::string& nameB(const SnapshotBox& box) const {
        return m_b.classes[size_t(box.classIndex)].name;
    }

    const DatasetSnapshot& m_a;
    const DatasetSnapshot& m_b;
    double m_moveIou;
    SnapshotDiff& m_out;
};

void diffClasses(const DatasetSnapshot& a, const DatasetSnapshot& b, SnapshotDiff& out) {
    std::unordered_map<std::int64_t, const SnapshotClass*> inA;
    for (const auto& info : a.classes)
        inA.emplace(info.id, &info);
    std::unordered_map<std::int64_t, const SnapshotClass*> inB;
    for (const auto& info : b.classes)
        inB.emplace(info.id, &info);
    std::vector<std::int64_t> commonOrderA;
    for (const auto& info : a.classes) {
        const auto found = inB.find(info.id);
        if (found == inB.end()) {
            out.classesRemoved.push_back(info.name);
            continue;
        }
        commonOrderA.push_back(info.id);
        if (found->second->name != info.name)
            out.classesRenamed.push_back({info.id, info.name, found->second->name});
    }
    std::vector<std::int64_t> commonOrderB;
    for (const auto& info : b.classes) {
        if (inA.count(info.id) == 0)
            out.classesAdded.push_back(info.name);
        else
            commonOrderB.push_back(info.id);
    }
    // Indices shift when a class is added or removed before others too; "order changed" means the classes
    // present on both sides are listed in another order.
    out.classOrderChanged = commonOrderA != commonOrderB;
}

template <typename T> void sortByPath(std::vector<T>& items) {
    std::stable_sort(items.begin(), items.end(), [](const T& x, const T& y) { return x.path < y.path; });
}

} // namespace

double boxIou(const std::array<double, 4>& a, const std::array<double, 4>& b) {
    const double areaA = std::max(0.0, a[2] - a[0]) * std::max(0.0, a[3] - a[1]);
    const double areaB = std::max(0.0, b[2] - b[0]) * std::max(0.0, b[3] - b[1]);
    const double width = std::min(a[2], b[2]) - std::max(a[0], b[0]);
    const double height = std::min(a[3], b[3]) - std::max(a[1], b[1]);
    const double inter = width > 0 && height > 0 ? width * height : 0.0;
    const double unionArea = areaA + areaB - inter;
    return unionArea > 0 ? inter / unionArea : 0.0;
}

std::string changeSummary(const SnapshotDiff& d) {
    const std::pair<size_t, std::string> counts[] = {
        {d.imagesAdded.size(), plural(d.imagesAdded.size(), "image", "images") + " added"},
        {d.imagesRemoved.size(), plural(d.imagesRemoved.size(), "image", "images") + " removed"},
        {d.imagesMoved.size(), plural(d.imagesMoved.size(), "image", "images") + " moved between splits"},
        {d.statusChanged.size(), plural(d.statusChanged.size(), "status", "statuses") + " changed"},
        {d.contentChanged.size(), plural(d.contentChanged.size(), "image file", "image files") + " changed"},
        {d.boxesAdded.size(), plural(d.boxesAdded.size(), "box", "boxes") + " added"},
        {d.boxesRemoved.size(), plural(d.boxesRemoved.size(), "box", "boxes") + " removed"},
        {d.boxesMoved.size(), plural(d.boxesMoved.size(), "box", "boxes") + " moved"},
        {d.boxesRelabelled.size(), plural(d.boxesRelabelled.size(), "box", "boxes") + " relabelled"},
        {static_cast<size_t>(d.boxesAdjusted),
         plural(static_cast<size_t>(d.boxesAdjusted), "box", "boxes") + " adjusted slightly"},
        {d.classesRenamed.size(), plural(d.classesRenamed.size(), "class", "classes") + " renamed"},
        {d.classesAdded.size(), plural(d.classesAdded.size(), "class", "classes") + " added"},
        {d.classesRemoved.size(), plural(d.classesRemoved.size(), "class", "classes") + " removed"},
        {d.classOrderChanged ? 1U : 0U, "class order changed"}};
    std::string text;
    for (const auto& [count, words] : counts)
        if (count > 0)
            text += (text.empty() ? "" : ", ") + words;
    return text;
}

SnapshotDiff diffSnapshots(const DatasetSnapshot& a, const DatasetSnapshot& b, double moveIou) {
    SnapshotDiff out;
    out.hashA = a.hash;
    out.hashB = b.hash;
    diffClasses(a, b, out);
    std::unordered_map<std::string_view, const SnapshotImage*> inA;
    inA.reserve(a.images.size());
    for (const auto& image : a.images)
        inA.emplace(image.path, &image);
    BoxComparer boxes(a, b, moveIou, out);
    for (const auto& imageB : b.images) {
        const auto found = inA.find(imageB.path);
        if (found == inA.end()) {
            out.imagesAdded.push_back({imageB.path, imageB.split, static_cast<int>(imageB.boxCount)});
            continue;
        }
        const SnapshotImage& imageA = *found->second;
        inA.erase(found);
        if (imageA.split != imageB.split)
            out.imagesMoved.push_back({imageB.path, imageA.split, imageB.split});
        if (imageA.status != imageB.status)
            out.statusChanged.push_back({imageB.path, imageA.status, imageB.status});
        if (imageA.contentHash != imageB.contentHash || imageA.width != imageB.width ||
            imageA.height != imageB.height)
            out.contentChanged.push_back(imageB.path);
        boxes.compare(imageA, imageB);
    }
    for (const auto& [path, image] : inA)
        out.imagesRemoved.push_back({image->path, image->split, static_cast<int>(image->boxCount)});
    sortByPath(out.imagesAdded);
    sortByPath(out.imagesRemoved);
    sortByPath(out.imagesMoved);
    sortByPath(out.statusChanged);
    std::sort(out.contentChanged.begin(), out.contentChanged.end());
    sortByPath(out.boxesAdded);
    sortByPath(out.boxesRemoved);
    sortByPath(out.boxesMoved);
    sortByPath(out.boxesRelabelled);
    return out;
}

std::vector<ArgChange> diffArgs(const std::map<std::string, std::string>& a,
                                const std::map<std::string, std::string>& b) {
    std::vector<ArgChange> changes;
    auto itA = a.begin();
    auto itB = b.begin();
    while (itA != a.end() || itB != b.end()) {
        if (itB == b.end() || (itA != a.end() && itA->first < itB->first)) {
            changes.push_back({itA->first, itA->second, {}});
            ++itA;
        } else if (itA == a.end() || itB->first < itA->first) {
            changes.push_back({itB->first, {}, itB->second});
            ++itB;
        } else {
            if (itA->second != itB->second)
                changes.push_back({itA->first, itA->second, itB->second});
            ++itA;
            ++itB;
        }
    }
    return changes;
}

} // namespace osprey::quality
