// osprey-cli export project=P format=yolo|coco|voc dest=DIR [images=link] [unlabeled=skip]
#include "cli/progress.h"
#include "cli/verb.h"
#include "formats/format_options.h"
#include "formats/project_export.h"

#include <iostream>

namespace osprey::cli {
namespace {

int runExport(const Args& args) {
    formats::WriteOptions options;
    options.dest = args.str("dest");
    const std::string images = args.str("images");
    if (images == "link")
        options.images = formats::ImageExport::Symlink;
    else if (images == "copy")
        options.images = formats::ImageExport::Copy;
    else if (images == "none")
        options.images = formats::ImageExport::None;
    else {
        std::cerr << "error: images must be link, copy or none, got '" << images << "'\n";
        return 2;
    }
    const std::string unlabeled = args.str("unlabeled");
    if (unlabeled != "skip" && unlabeled != "keep") {
        std::cerr << "error: unlabeled must be skip or keep, got '" << unlabeled << "'\n";
        return 2;
    }
    options.unlabeled = unlabeled == "keep" ? formats::UnlabeledExport::Keep : formats::UnlabeledExport::Skip;
    auto project = project::Project::open(args.str("project"));
    if (!project) {
        std::cerr << "error: " << project.message() << "\n";
        return 1;
    }
    ProgressBar bar("export");
    options.progress.callback = [&](std::int64_t done, std::int64_t total, std::string_view stage) {
        bar.update(done, total, std::string(stage));
    };
    auto report = formats::exportProject(**project, args.str("format"), options);
    bar.finish();
    if (!report) {
        std::cerr << "error: " << report.message() << "\n";
        return 1;
    }
    for (const auto& note : report->notes)
        std::cout << note << "\n";
    std::cout << "Exported " << report->images << " images and " << report->boxes << " boxes as "
              << args.str("format") << " to " << args.str("dest");
    if (report->skippedUnlabeled > 0)
        std::cout << " (" << report->skippedUnlabeled
                  << " unlabeled images left out; unlabeled=keep keeps them)";
    std::cout << ".\n";
    return 0;
}

OSPREY_REGISTER_VERB(Verb{"export", "Export a project as a YOLO, COCO or Pascal VOC dataset",
                          [] { return formats::datasetExportOptions(); }, runExport});

} // namespace
} // namespace osprey::cli
