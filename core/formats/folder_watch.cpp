#include "formats/folder_watch.h"

#include "common/hash.h"
#include "formats/image_locator.h"
#include "imaging/image.h"

#include <algorithm>
#include <map>
#include <set>
#include <system_error>
#include <thread>
#include <tuple>

namespace fs = std::filesystem;

namespace osprey::formats {

namespace {

using Key = std::tuple<std::string, std::int64_t, std::int64_t>;

struct Candidate {
    fs::path path;
    std::int64_t size = 0;
    std::int64_t mtimeNs = 0;
    bool video = false;
};

bool insideFolder(const fs::path& path, const fs::path& folder) {
    const fs::path rel = path.lexically_relative(folder);
    return !rel.empty() && *rel.begin() != "..";
}

/// The images and videos under `folder`, minus the project's own folder (its frames land in images/) and
/// hidden or half-written names (".name", "clip.partial.mp4" of imaging::VideoWriter).
std::vector<Candidate> scan(const fs::path& folder, const fs::path& projectFolder) {
    std::vector<Candidate> found;
    std::error_code error;
    for (auto it =
             fs::recursive_directory_iterator(folder, fs::directory_options::skip_permission_denied, error);
         !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
        const fs::path path = it->path();
        const std::string name = path.filename().string();
        if (name.starts_with(".") || path == projectFolder) {
            if (it->is_directory(error))
                it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file(error) || name.find(".partial.") != std::string::npos)
            continue;
        const bool video = isVideoFile(path);
        if (!video && !isImageFile(path))
            continue;
        std::error_code statError;
        const auto size = fs::file_size(path, statError);
        const auto time = fs::last_write_time(path, statError);
        if (statError)
            continue;
        found.push_back(
            {path, static_cast<std::int64_t>(size),
             std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count(), video});
    }
    std::sort(found.begin(), found.end(),
              [](const Candidate& a, const Candidate& b) { return a.path < b.path; });
    return found;
}

std::string storedPath(const fs::path& file, const fs::path& projectFolder) {
    if (insideFolder(file, projectFolder))
        return file.lexically_relative(projectFolder).generic_string();
    return file.generic_string();
}

/// Takes one image: its row and its record in one transaction. Returns the record, or an error when the
/// project cannot be written.
Expected<project::TakenFile> takeImage(project::Project& project, const Candidate& file,
                                       const fs::path& projectFolder, std::string& problem) {
    project::TakenFile taken{file.path.generic_string(), file.size, file.mtimeNs, "image", 0};
    auto size = imaging::readImageSize(file.path);
    if (!size) {
        problem = size.message();
        taken.kind = "skipped";
        if (auto recorded = project.takenFiles().record(taken); !recorded)
            return fail(recorded.error());
        return taken;
    }
    project::NewImage row;
    row.path = storedPath(file.path, projectFolder);
    row.width = size->width;
    row.height = size->height;
    if (auto hash = hashFileHex(file.path))
        row.hash = *hash;
    auto status = project.transaction([&]() -> Status {
        auto added = project.images().add(row);
        if (!added)
            return fail(added.error());
        taken.images = 1;
        return project.takenFiles().record(taken);
    });
    if (!status) {
        // Its path is in the project already (imported before the watch, or the file was rewritten):
        // recorded, not added twice.
        if (status.message().find("already in the project") == std::string::npos)
            return fail(status.error());
        taken.images = 0;
        if (auto recorded = project.takenFiles().record(taken); !recorded)
            return fail(recorded.error());
    }
    return taken;
}

} // namespace

Expected<WatchSummary> watchFolder(project::Project& project, const WatchOptions& options) {
    std::error_code error;
    if (!fs::is_directory(options.folder, error))
        return fail(options.folder.string() + ": no such folder to watch", "missing");
    const fs::path folder = fs::absolute(options.folder).lexically_normal();
    const fs::path projectFolder = fs::absolute(project.folder()).lexically_normal();
    auto recorded = project.takenFiles().list();
    if (!recorded)
        return fail(recorded.error());
    std::set<Key> taken;
    for (const auto& file : *recorded)
        taken.insert({file.path, file.size, file.mtimeNs});
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> seen; // path -> size, time at the last scan
    WatchSummary summary;
    const Progress& progress = options.video.progress;
    while (!progress.cancelled()) {
        for (const auto& file : scan(folder, projectFolder)) {
            if (progress.cancelled())
                break;
            const std::string path = file.path.generic_string();
            if (taken.count({path, file.size, file.mtimeNs}))
                continue;
            const auto last = seen.find(path);
            const bool settled = last != seen.end() && last->second == std::pair(file.size, file.mtimeNs);
            seen[path] = {file.size, file.mtimeNs};
            if (!settled)
                continue;
            std::string problem;
            project::TakenFile record;
            if (file.video) {
                VideoImportOptions videoOptions = options.video;
                videoOptions.source = file.path;
                auto imported = importVideos(project, videoOptions);
                if (!imported)
                    return fail(imported.error());
                if (imported->cancelled)
                    break; // its frames so far are in; the rest when the watch starts again
                record = {path, file.size, file.mtimeNs, imported->videos.empty() ? "skipped" : "video",
                          imported->imported};
                for (const auto& videoProblem : imported->problems)
                    problem += (problem.empty() ? "" : "; ") + videoProblem.text();
                if (auto status = project.takenFiles().record(record); !status)
                    return fail(status.error());
            } else {
                auto image = takeImage(project, file, projectFolder, problem);
                if (!image)
                    return fail(image.error());
                record = *image;
            }
            taken.insert({path, file.size, file.mtimeNs});
            seen.erase(path);
            ++summary.files;
            summary.images += record.images;
            if (!problem.empty())
                summary.problems.push_back(problem);
            if (options.onTaken)
                options.onTaken(record, problem);
        }
        // Sleep in short steps so that a stop is answered quickly.
        const auto until = std::chrono::steady_clock::now() + options.interval;
        while (!progress.cancelled() && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(
                std::min<std::chrono::milliseconds>(options.interval, std::chrono::milliseconds(50)));
    }
    return summary;
}

} // namespace osprey::formats
