// osprey-cli review project=P [order=confidence|disagreement] [limit=20] [iou=0.5]
// Lists the images that need review (labeled, with source=model boxes) in review order.
#include "assist/assist_options.h"
#include "assist/review_queue.h"
#include "cli/verb.h"

#include <cstdio>
#include <iostream>

namespace osprey::cli {
namespace {

int runReview(const Args& args) {
    assist::ReviewOptions options;
    const auto order = assist::reviewOrderFromString(args.str("order"));
    if (!order) {
        std::cerr << "error: order=" << args.str("order") << ": use confidence or disagreement\n";
        return 2;
    }
    options.order = *order;
    options.limit = static_cast<int>(args.integer("limit"));
    options.iouThreshold = args.number("iou");
    if (options.iouThreshold <= 0 || options.iouThreshold > 1) {
        std::cerr << "error: iou=" << args.str("iou") << ": must be in (0, 1]\n";
        return 2;
    }
    auto project = project::Project::open(args.str("project"));
    if (!project) {
        std::cerr << "error: " << project.message() << "\n";
        return 1;
    }
    auto queue = assist::reviewQueue(**project, options);
    if (!queue) {
        std::cerr << "error: " << queue.message() << "\n";
        return 1;
    }
    std::printf("%d images need review (labeled, with source=model boxes)", queue->needingReview);
    if (options.order == assist::ReviewOrder::Disagreement && queue->withoutLabels > 0)
        std::printf("; %d of them have no manual or imported labels to compare with and are left out of this "
                    "order (order=confidence lists them)",
                    queue->withoutLabels);
    std::printf("\n");
    if (queue->items.empty())
        return 0;
    std::printf("%5s %9s %6s %6s %9s %4s %6s  %s\n", "rank", "image_id", "model", "labels", "mean_conf", "fp",
                "missed", "path");
    int rank = 0;
    for (const auto& item : queue->items) {
        char score[16] = "-";
        if (item.meanScore)
            std::snprintf(score, sizeof(score), "%.3f", *item.meanScore);
        std::printf("%5d %9lld %6d %6d %9s %4d %6d  %s\n", ++rank, static_cast<long long>(item.imageId),
                    item.modelBoxes, item.referenceBoxes, score, item.agreement.falsePositives,
                    item.agreement.missed, item.path.c_str());
    }
    return 0;
}

OSPREY_REGISTER_VERB(Verb{
    "review", "List the images whose model boxes need review, least confident or most disputed first",
    [] { return assist::reviewOptions(); }, runReview});

} // namespace
} // namespace osprey::cli
