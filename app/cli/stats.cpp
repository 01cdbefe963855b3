// osprey-cli stats project=P [json=false] [bins=10]
#include "cli/verb.h"
#include "quality/dataset_stats.h"
#include "quality/quality_options.h"

#include <iostream>

namespace osprey::cli {
namespace {

int runStats(const Args& args) {
    auto project = project::Project::open(args.str("project"));
    if (!project) {
        std::cerr << "error: " << project.message() << "\n";
        return 1;
    }
    auto stats = quality::projectStats(**project, static_cast<int>(args.integer("bins")));
    if (!stats) {
        std::cerr << "error: " << stats.message() << "\n";
        return 1;
    }
    std::cout << (args.flag("json") ? quality::toJson(*stats) + "\n" : quality::toText(*stats));
    return 0;
}

OSPREY_REGISTER_VERB(Verb{"stats", "Counts per class and split, box-size histograms and boxes per image",
                          [] { return quality::statsOptions(); }, runStats});

} // namespace
} // namespace osprey::cli
