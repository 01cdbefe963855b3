// osprey-cli import project=P source=PATH [format=auto] [images=DIR] [strict=false] [crowd=keep]
// Exit 0: imported; 3: imported, items skipped (listed); 1: nothing imported (the project is unchanged),
// including an import that would bring 0 images, or 0 boxes from the label files it found.
#include "cli/progress.h"
#include "cli/verb.h"
#include "formats/format_options.h"
#include "formats/format_registry.h"
#include "formats/project_import.h"

#include <iostream>

namespace osprey::cli {
namespace {

int runImport(const Args& args) {
    const std::string crowd = args.str("crowd");
    if (crowd != "keep" && crowd != "skip") {
        std::cerr << "error: crowd must be keep or skip, got '" << crowd << "'\n";
        return 2;
    }
    auto project = project::Project::openOrCreate(args.str("project"));
    if (!project) {
        std::cerr << "error: " << project.message() << "\n";
        return 1;
    }
    sayWhenWaitingForAnotherWriter(**project);
    formats::ImportOptions options;
    options.read.source = args.str("source");
    options.read.imagesDir = args.str("images");
    options.read.crowd = crowd == "skip" ? formats::CrowdPolicy::Skip : formats::CrowdPolicy::Keep;
    options.read.probe = args.flag("hash") ? formats::ImageProbe::SizeAndHash : formats::ImageProbe::SizeOnly;
    options.format = args.str("format");
    options.mode = args.flag("strict") ? formats::ImportMode::Strict : formats::ImportMode::Lenient;
    options.read.allowOutsideRoots = args.flag("outside");
    ProgressBar bar("import");
    // What was found and how it paired, before anything is written.
    options.afterRead = [&](const formats::ReadResult& read) {
        if (!read.layout.empty())
            std::cout << read.layout << "\n" << std::flush;
    };
    options.read.progress.callback = [&](std::int64_t done, std::int64_t total, std::string_view stage) {
        bar.update(done, total, std::string(stage));
    };
    auto summary = formats::importDataset(**project, options);
    bar.finish();
    if (!summary) {
        std::cerr << "error: " << summary.message() << "\nThe project was not changed.\n";
        return 1;
    }
    std::int64_t errors = 0;
    for (const auto& problem : summary->problems) {
        std::cerr << problem.text() << "\n";
        errors += problem.severity == formats::Severity::Error ? 1 : 0;
    }
    for (const auto& note : summary->notes)
        std::cout << note << "\n";
    std::cout << "Imported " << summary->images << " images and " << summary->boxes << " boxes ("
              << summary->format << ") into " << (*project)->folder().string() << ": " << summary->unlabeled
              << " unlabeled, " << summary->verifiedEmpty << " verified empty, " << summary->classesAdded
              << " new classes";
    if (summary->alreadyPresent > 0)
        std::cout << ", " << summary->alreadyPresent << " already in the project (left as they were)";
    std::cout << ".\n";
    if (errors > 0) {
        std::cout << errors
                  << " item(s) skipped; see the errors above. Use strict=true to import nothing instead.\n";
        return 3;
    }
    return 0;
}

OSPREY_REGISTER_VERB(Verb{"import",
                          "Import a YOLO, COCO, Pascal VOC dataset or a folder of images into a project",
                          [] { return formats::datasetImportOptions(); }, runImport});

} // namespace
} // namespace osprey::cli
