// osprey-cli split project=P train=0.8 val=0.2 test=0 seed=0
#include "cli/verb.h"
#include "formats/project_export.h"
#include "quality/dataset_splitter.h"
#include "quality/quality_options.h"

#include <iostream>

namespace osprey::cli {
namespace {

int runSplit(const Args& args) {
    auto project = project::Project::open(args.str("project"));
    if (!project) {
        std::cerr << "error: " << project.message() << "\n";
        return 1;
    }
    auto dataset = formats::readProject(**project);
    if (!dataset) {
        std::cerr << "error: " << dataset.message() << "\n";
        return 1;
    }
    quality::SplitOptions options;
    options.train = args.number("train");
    options.val = args.number("val");
    options.test = args.number("test");
    options.seed = static_cast<std::uint64_t>(args.integer("seed"));
    auto plan = quality::planSplit(*dataset, options);
    if (!plan) {
        std::cerr << "error: " << plan.message() << "\n";
        return 2;
    }
    if (!args.flag("dry")) {
        if (auto status = quality::applySplit(**project, *dataset, *plan); !status) {
            std::cerr << "error: " << status.message() << "\n";
            return 1;
        }
    }
    std::int64_t counts[3] = {0, 0, 0};
    for (const auto split : plan->splits)
        if (split != project::Split::None)
            ++counts[static_cast<int>(split)];
    std::cout << (args.flag("dry") ? "Would split " : "Split ") << dataset->images.size() << " images: train "
              << counts[0] << ", val " << counts[1] << ", test " << counts[2] << " (" << plan->changed
              << " changed, " << plan->locked << " locked left in place, " << plan->groupedDuplicates
              << " identical images kept with their twin";
    if (plan->groupedFrames > 0)
        std::cout << ", " << plan->groupedFrames << " video frames kept with the other frames of their video";
    std::cout << ").\n";
    return 0;
}

OSPREY_REGISTER_VERB(Verb{
    "split", "Assign train/val/test splits: seeded, stratified by class, duplicates kept together",
    [] { return quality::splitOptions(); }, runSplit});

} // namespace
} // namespace osprey::cli
