#pragma once
// A watched folder: new images and videos are taken into a project as they arrive, each exactly once,
// across restarts. Every file taken is recorded in the project (the taken_files table, keyed by path, size
// and modification time): an image's row and its record are written in one transaction; a video's frames
// are committed one by one (formats/video_import.h), each with its provenance, and its record after the
// last, so a watcher killed in the middle of a video takes only the frames the project lacks when it
// starts again. A file is taken once its size and time have not changed for one scan interval (a camera
// may still be writing it).
//
// Runs on the calling thread until the cancel flag of options.video.progress is set (from any thread).

#include "common/expected.h"
#include "formats/video_import.h"
#include "project/project.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace osprey::formats {

struct WatchOptions {
    std::filesystem::path folder;             ///< watched recursively; hidden files are left alone
    VideoImportOptions video;                 ///< sampling, dedup and the cancel flag; source unused
    std::chrono::milliseconds interval{2000}; ///< between two scans of the folder
    /// Called on the watching thread for each file taken (or refused), after it is recorded. Optional.
    std::function<void(const project::TakenFile& file, const std::string& problem)> onTaken;
};

struct WatchSummary {
    std::int64_t files = 0;  ///< files taken (refused ones included)
    std::int64_t images = 0; ///< images added: image files and video frames
    std::vector<std::string> problems;
};

/// Watches `options.folder` until cancelled (see the top of this file). Fails when the folder does not
/// exist or the project cannot be written; an unreadable file is recorded as "skipped" with a problem
/// naming it, and taken again only when it changes.
Expected<WatchSummary> watchFolder(project::Project& project, const WatchOptions& options);

} // namespace osprey::formats
