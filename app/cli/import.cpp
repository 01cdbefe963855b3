// osprey-cli import project=P source=PATH [format=auto] [images=DIR] [strict=false] [crowd=keep]
// osprey-cli import project=P videos=FILE_OR_DIR [fps=1 | every=N] [start=T] [end=T] [dedup=2]
// osprey-cli import project=P source=DIR|videos=DIR watch=true [interval=2]: until Ctrl+C or SIGTERM
// Exit 0: imported; 3: imported, items skipped (listed); 1: nothing imported (the project is unchanged),
// including an import that would bring 0 images, or 0 boxes from the label files it found. Videos: 1 when
// no video could be read; Ctrl+C stops after the current frame, every frame so far kept.
#include "cli/progress.h"
#include "cli/verb.h"
#include "formats/folder_watch.h"
#include "formats/format_options.h"
#include "formats/format_registry.h"
#include "formats/project_import.h"
#include "formats/video_import.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>

namespace osprey::cli {
namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void onInterrupt(int) {
    g_interrupted.store(true);
}

/// The video keys (fps=, every=, start=, end=, dedup=) into `options`; false after saying why.
bool readVideoKeys(const Args& args, formats::VideoImportOptions& options) {
    if (args.given("fps") && args.given("every")) {
        std::cerr << "error: give fps= or every=, not both\n";
        return false;
    }
    options.fps = args.number("fps");
    options.every = args.integer("every");
    options.dedupBits = static_cast<int>(args.integer("dedup"));
    for (const char* key : {"start", "end"}) {
        if (args.str(key).empty())
            continue;
        auto seconds = formats::parseVideoTime(args.str(key), key);
        if (!seconds) {
            std::cerr << "error: " << seconds.message() << "\n";
            return false;
        }
        (std::string(key) == "start" ? options.startSeconds : options.endSeconds.emplace()) = *seconds;
    }
    return true;
}

int runWatch(const Args& args) {
    formats::WatchOptions options;
    options.folder = args.given("videos") ? args.str("videos") : args.str("source");
    if (!readVideoKeys(args, options.video))
        return 2;
    options.interval = std::chrono::milliseconds(static_cast<long long>(args.number("interval") * 1000));
    auto project = project::Project::openOrCreate(args.str("project"));
    if (!project) {
        std::cerr << "error: " << project.message() << "\n";
        return 1;
    }
    sayWhenWaitingForAnotherWriter(**project);
    options.video.progress.cancel = &g_interrupted;
    options.onTaken = [](const project::TakenFile& file, const std::string& problem) {
        std::cout << file.path << ": " << file.kind << ", " << file.images << " image(s) added\n"
                  << std::flush;
        if (!problem.empty())
            std::cerr << problem << "\n" << std::flush;
    };
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    std::cout << "Watching " << options.folder.string() << " for images and videos (Ctrl+C stops)\n"
              << std::flush;
    auto summary = formats::watchFolder(**project, options);
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    if (!summary) {
        std::cerr << "error: " << summary.message() << "\n";
        return 1;
    }
    std::cout << "Stopped watching: " << summary->files << " file(s) taken, " << summary->images
              << " image(s) added.\n";
    return 0;
}

int runVideoImport(const Args& args) {
    formats::VideoImportOptions options;
    options.source = args.str("videos");
    if (!readVideoKeys(args, options))
        return 2;
    auto project = project::Project::openOrCreate(args.str("project"));
    if (!project) {
        std::cerr << "error: " << project.message() << "\n";
        return 1;
    }
    sayWhenWaitingForAnotherWriter(**project);
    ProgressBar bar("import");
    options.progress.callback = [&](std::int64_t done, std::int64_t total, std::string_view stage) {
        bar.update(done, total, std::string(stage));
    };
    options.progress.cancel = &g_interrupted;
    std::signal(SIGINT, onInterrupt);
    auto summary = formats::importVideos(**project, options);
    std::signal(SIGINT, SIG_DFL);
    bar.finish(summary && summary->cancelled ? "interrupted" : "done");
    if (!summary) {
        std::cerr << "error: " << summary.message() << "\n";
        return 1;
    }
    for (const auto& video : summary->videos) {
        char rate[64];
        std::snprintf(rate, sizeof rate, "%.1f frames/s",
                      video.seconds > 0 ? video.framesDecoded / video.seconds : 0.0);
        std::cout << video.video << ": " << video.framesDecoded << " frames decoded (" << rate << "), "
                  << video.framesSampled << " sampled, " << video.imported << " imported, "
                  << video.nearDuplicates << " near-duplicates skipped, " << video.alreadyPresent
                  << " already in the project\n";
    }
    for (const auto& problem : summary->problems)
        std::cerr << problem.text() << "\n";
    const auto read = static_cast<std::int64_t>(summary->videos.size());
    std::cout << "Imported " << summary->imported << " frames from "
              << (read == summary->videosFound
                      ? std::to_string(read)
                      : std::to_string(read) + " of " + std::to_string(summary->videosFound))
              << " video(s) into " << (*project)->folder().string() << ": " << summary->nearDuplicates
              << " near-duplicates skipped (" << summary->nearDuplicatesOfProject
              << " of frames imported before), " << summary->alreadyPresent << " already in the project";
    std::cout << (summary->cancelled ? "; interrupted, the frames so far are kept.\n" : ".\n");
    if (summary->videos.empty())
        return 1;
    return summary->problems.empty() ? 0 : 3;
}

int runImport(const Args& args) {
    if (args.flag("watch")) {
        if (args.given("source") == args.given("videos")) {
            std::cerr << "error: watch=true watches one folder: give it as source=DIR or videos=DIR\n";
            return 2;
        }
        return runWatch(args);
    }
    if (args.given("videos")) {
        if (args.given("source")) {
            std::cerr << "error: give source= (a dataset) or videos= (videos to cut into frames), not both\n";
            return 2;
        }
        return runVideoImport(args);
    }
    if (args.str("source").empty()) {
        std::cerr << "error: missing key 'source' (a dataset folder or annotation file) or 'videos' (a video "
                     "file or folder); see: osprey-cli help import\n";
        return 2;
    }
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

OSPREY_REGISTER_VERB(Verb{
    "import",
    "Import a YOLO, COCO, Pascal VOC dataset, a folder of images, or videos as frames into a project",
    [] { return formats::datasetImportOptions(); }, runImport});

} // namespace
} // namespace osprey::cli
