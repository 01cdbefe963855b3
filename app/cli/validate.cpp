// osprey-cli validate project=P | source=PATH [imgsz=640] [json=false]
#include "cli/progress.h"
#include "cli/verb.h"
#include "formats/project_import.h"
#include "quality/health_check.h"
#include "quality/quality_options.h"

#include <iostream>

namespace osprey::cli {
namespace {

int runValidate(const Args& args) {
    quality::HealthOptions options;
    options.imgsz = static_cast<int>(args.integer("imgsz"));
    options.decode = args.flag("decode");
    if (options.imgsz <= 0) {
        std::cerr << "error: imgsz must be positive\n";
        return 2;
    }
    if (args.has("project") == args.has("source")) {
        std::cerr << "error: give project=DIR or source=PATH (a dataset folder), not both\n";
        return 2;
    }
    ProgressBar bar("validate");
    options.progress.callback = [&](std::int64_t done, std::int64_t total, std::string_view stage) {
        bar.update(done, total, std::string(stage));
    };
    Expected<quality::HealthReport> report = fail("");
    if (args.has("project")) {
        auto project = project::Project::open(args.str("project"));
        if (!project) {
            std::cerr << "error: " << project.message() << "\n";
            return 1;
        }
        report = quality::checkProject(**project, options);
    } else {
        formats::ReadOptions read;
        read.source = args.str("source");
        read.imagesDir = args.str("images");
        read.probe = formats::ImageProbe::None;
        auto dataset = formats::readSource(read, args.str("format"));
        if (!dataset) {
            std::cerr << "error: " << dataset.message() << "\n";
            return 1;
        }
        report = quality::checkDataset(dataset->dataset, options, dataset->problems);
    }
    bar.finish();
    if (!report) {
        std::cerr << "error: " << report.message() << "\n";
        return 1;
    }
    std::cout << (args.flag("json") ? quality::toJson(*report) + "\n" : quality::toTable(*report));
    return report->healthy() ? 0 : 4;
}

OSPREY_REGISTER_VERB(Verb{"validate",
                          "Health check of a project or a dataset folder (exit 4 when errors are found)",
                          [] { return quality::validateOptions(); }, runValidate});

} // namespace
} // namespace osprey::cli
