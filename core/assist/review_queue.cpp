#include "assist/review_queue.h"

#include "common/xyxy_iou.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace osprey::assist {
namespace {

double iou(const project::BoxRecord& a, const project::BoxRecord& b) {
    return xyxyIou<double>(a, b);
}

// Lower mean score first; an unknown score counts as the lowest.
bool lessConfident(const ReviewItem& a, const ReviewItem& b) {
    const double sa = a.meanScore.value_or(-1), sb = b.meanScore.value_or(-1);
    if (sa != sb)
        return sa < sb;
    return a.imageId < b.imageId;
}

} // namespace

BoxAgreement compareBoxes(const std::vector<project::BoxRecord>& model,
                          const std::vector<project::BoxRecord>& reference, double iouThreshold) {
    std::vector<size_t> order(model.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return model[a].score.value_or(0) > model[b].score.value_or(0);
    });
    std::vector<bool> taken(reference.size(), false);
    BoxAgreement agreement;
    for (const size_t m : order) {
        double best = iouThreshold;
        std::optional<size_t> match;
        for (size_t r = 0; r < reference.size(); ++r) {
            if (taken[r] || reference[r].classId != model[m].classId)
                continue;
            if (const double overlap = iou(model[m], reference[r]); overlap >= best) {
                best = overlap;
                match = r;
            }
        }
        if (match) {
            taken[*match] = true;
            ++agreement.matched;
        } else {
            ++agreement.falsePositives;
        }
    }
    agreement.missed = static_cast<int>(std::count(taken.begin(), taken.end(), false));
    return agreement;
}

Expected<ReviewQueue> reviewQueue(const project::Project& project, const ReviewOptions& options) {
    project::ImageQuery query;
    query.status = project::ImageStatus::Labeled;
    query.limit = 0;
    auto labeled = project.images().list(query);
    if (!labeled)
        return fail(labeled.error());
    std::unordered_map<std::int64_t, const project::ImageRecord*> candidates;
    for (const auto& record : *labeled)
        candidates.emplace(record.id, &record);

    ReviewQueue queue;
    std::vector<ReviewItem> items;
    // boxes().forEach streams boxes grouped by image, so one image's boxes are held at a time.
    std::int64_t current = -1;
    std::vector<project::BoxRecord> model, reference;
    auto finishImage = [&] {
        if (current >= 0 && !model.empty()) {
            ReviewItem item;
            item.imageId = current;
            item.path = candidates.at(current)->path;
            item.modelBoxes = static_cast<int>(model.size());
            item.referenceBoxes = static_cast<int>(reference.size());
            double sum = 0;
            int scored = 0;
            for (const auto& box : model)
                if (box.score) {
                    sum += *box.score;
                    ++scored;
                }
            if (scored > 0)
                item.meanScore = sum / scored;
            item.agreement = compareBoxes(model, reference, options.iouThreshold);
            items.push_back(std::move(item));
        }
        model.clear();
        reference.clear();
    };
    auto streamed = project.boxes().forEach([&](const project::BoxRecord& box) -> Status {
        if (box.imageId != current) {
            finishImage();
            current = candidates.count(box.imageId) ? box.imageId : -1;
        }
        if (current >= 0)
            (box.source == project::BoxSource::Model ? model : reference).push_back(box);
        return {};
    });
    if (!streamed)
        return fail(streamed.error());
    finishImage();

    queue.needingReview = static_cast<int>(items.size());
    if (options.order == ReviewOrder::Disagreement) {
        const auto unlabeled = std::stable_partition(
            items.begin(), items.end(), [](const ReviewItem& i) { return i.referenceBoxes > 0; });
        queue.withoutLabels = static_cast<int>(items.end() - unlabeled);
        items.erase(unlabeled, items.end());
        std::sort(items.begin(), items.end(), [](const ReviewItem& a, const ReviewItem& b) {
            if (a.disagreement() != b.disagreement())
                return a.disagreement() > b.disagreement();
            return lessConfident(a, b);
        });
    } else {
        std::sort(items.begin(), items.end(), lessConfident);
    }
    if (options.limit > 0 && items.size() > static_cast<size_t>(options.limit))
        items.resize(static_cast<size_t>(options.limit));
    queue.items = std::move(items);
    return queue;
}

std::optional<ReviewOrder> reviewOrderFromString(const std::string& text) {
    if (text == "confidence")
        return ReviewOrder::Confidence;
    if (text == "disagreement")
        return ReviewOrder::Disagreement;
    return std::nullopt;
}

} // namespace osprey::assist
