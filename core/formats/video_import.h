#pragma once
// Importing videos as frames: each video (a file, or every video in a folder) is decoded in order,
// sampled (fps= or every=, within start= and end=), near-duplicate frames are skipped by a perceptual
// hash, and each frame kept is written as a JPEG file into the project's images/ folder and added with
// its provenance (video, frame index, time) in ONE transaction of its own. An import stopped at any point
// (cancel, a broken file, kill -9) therefore leaves whole frames only, and importing the same video again
// takes only the frames it does not have yet.
//
// Runs on the calling thread; progress callbacks fire on that thread and the cancel flag may be set from
// any thread.

#include "common/expected.h"
#include "formats/format.h"
#include "formats/problem.h"
#include "project/project.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace osprey::formats {

/// The near-duplicate threshold `dedup=` defaults to: bits of the 64-bit difference hash.
inline constexpr int kDefaultDedupBits = 2;

// ---- sampling ---------------------------------------------------------------------------------------

/// Which decoded frames an import keeps. With `every` > 0 it keeps every Nth frame of the range, counted
/// from its first frame; otherwise the first frame of each 1/fps-second slot of the range (all frames
/// when fps is at least the video's rate). The range is start <= time < end.
class FrameSampler {
public:
    enum class Decision { Skip, Keep, Stop };

    FrameSampler(double fps, std::int64_t every, double startSeconds, std::optional<double> endSeconds);
    /// Decides for the next decoded frame, given in order with its presentation time.
    Decision next(double timeSeconds);

private:
    double m_fps;
    std::int64_t m_every;
    double m_start;
    std::optional<double> m_end;
    std::int64_t m_inRange = 0;
    std::int64_t m_lastSlot = -1;
};

/// Reads a time written as seconds ("12.5") or [h:]mm:ss[.ss] ("1:30", "1:02:03.5"). The error names
/// `key` and the text.
Expected<double> parseVideoTime(const std::string& text, const std::string& key);

// ---- import -----------------------------------------------------------------------------------------

struct VideoImportOptions {
    std::filesystem::path source; ///< a video file, or a folder whose videos (recursively) are imported
    double fps = 1;               ///< frames kept per second of video; ignored when every > 0
    std::int64_t every = 0;       ///< keep every Nth frame instead (0: use fps)
    double startSeconds = 0;
    std::optional<double> endSeconds;
    /// Hamming distance (of 64 bits) at or below which a frame counts as a near-duplicate of a frame kept
    /// in this import or already in the project, and is skipped. 0 turns the check off.
    int dedupBits = kDefaultDedupBits;
    int jpegQuality = 95;
    Progress progress;
};

/// What became of one video.
struct VideoReport {
    std::string video;               ///< as shown to the user (relative to the source folder)
    std::int64_t framesDecoded = 0;  ///< frames read from the file
    std::int64_t framesSampled = 0;  ///< frames the sampler picked
    std::int64_t imported = 0;       ///< frames added to the project
    std::int64_t nearDuplicates = 0; ///< sampled frames skipped as near-duplicates
    std::int64_t alreadyPresent = 0; ///< sampled frames the project already had (same video and index)
    double fps = 0;                  ///< the container's frame rate (0: unknown)
    double seconds = 0;              ///< wall time spent on this video
};

struct VideoImportSummary {
    std::int64_t videosFound = 0;    ///< videos listed in the source (read or not)
    std::vector<VideoReport> videos; ///< the videos that could be opened
    std::int64_t imported = 0;
    std::int64_t nearDuplicates = 0;
    std::int64_t nearDuplicatesOfProject = 0; ///< of those, near-duplicates of frames imported before
    std::int64_t alreadyPresent = 0;
    /// Videos that could not be opened, or stopped before their end ("stopped at frame 812 (00:27.10):
    /// cannot decode further; 41 frames imported"): one error each, naming the file.
    std::vector<Problem> problems;
    bool cancelled = false;
};

/// True for a file `importVideos` and the watched folder treat as a video (imaging::isVideoPath).
bool isVideoFile(const std::filesystem::path& path);

/// The videos of `source`: the file itself, or a folder's video files found recursively, sorted. Fails
/// when `source` does not exist, is a file that is not a video, or a folder without videos.
Expected<std::vector<std::filesystem::path>> listVideos(const std::filesystem::path& source);

/// Imports the videos of options.source into `project` (see the top of this file). Fails only when there
/// is nothing to import or the project cannot be written; a video that cannot be read, or stops early,
/// is a problem in the summary and the import goes on with the next one.
Expected<VideoImportSummary> importVideos(project::Project& project, const VideoImportOptions& options);

/// The folder (relative to the project) that receives the frames of `storedVideo`: images/<stem>-<hash>,
/// the hash telling apart videos of the same name in different folders.
std::filesystem::path frameFolderFor(const std::string& storedVideo);

} // namespace osprey::formats
