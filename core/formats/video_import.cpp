#include "formats/video_import.h"

#include "common/hash.h"
#include "imaging/perceptual_hash.h"
#include "imaging/video.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <system_error>
#include <unordered_set>

namespace fs = std::filesystem;

namespace osprey::formats {

namespace {

/// A slot boundary that falls exactly on a frame's time must count: times are sums of rounded fractions.
constexpr double kTimeSlack = 1e-6;

/// The path stored in the project: relative when inside the project folder, else absolute and normal.
std::string storedPath(const fs::path& file, const fs::path& folder) {
    const fs::path absolute = fs::absolute(file).lexically_normal();
    const fs::path rel = absolute.lexically_relative(folder);
    if (!rel.empty() && *rel.begin() != "..")
        return rel.generic_string();
    return absolute.generic_string();
}

std::string shownName(const fs::path& video, const fs::path& source) {
    std::error_code error;
    if (!fs::is_directory(source, error))
        return video.filename().string();
    const fs::path rel = video.lexically_relative(source);
    return rel.empty() ? video.string() : rel.generic_string();
}

/// "00:27.10" for a frame index, from the timestamp when known.
std::string atText(std::int64_t frame, double timeSeconds, double fps) {
    if (timeSeconds <= 0 && fps > 0)
        timeSeconds = static_cast<double>(frame) / fps;
    return project::videoTimeText(timeSeconds);
}

struct Dedup {
    std::vector<std::uint64_t> hashes;
    std::size_t fromProject = 0;

    /// The index of a hash within `bits` of `hash`, or -1.
    std::ptrdiff_t nearest(std::uint64_t hash, int bits) const {
        if (bits <= 0)
            return -1;
        // Newest first: consecutive frames are the likeliest match.
        for (std::size_t i = hashes.size(); i-- > 0;)
            if (imaging::hammingDistance(hashes[i], hash) <= bits)
                return static_cast<std::ptrdiff_t>(i);
        return -1;
    }
};

/// Imports one video; returns an error only when the project cannot be written.
Status importOne(project::Project& project, const fs::path& video, const VideoImportOptions& options,
                 const std::string& shown, Dedup& dedup, VideoImportSummary& summary) {
    const auto start = std::chrono::steady_clock::now();
    VideoReport report;
    report.video = shown;
    auto opened = imaging::VideoReader::open(video);
    if (!opened) {
        // The reader's message starts with the full path; the problem names the file already.
        std::string message = opened.message();
        if (const std::string prefix = video.string() + ": "; message.starts_with(prefix))
            message.erase(0, prefix.size());
        summary.problems.push_back(
            {Severity::Error, ProblemKind::Syntax, shown, "", message, "the whole video"});
        return {};
    }
    imaging::VideoReader& reader = **opened;
    const imaging::VideoInfo info = reader.info();
    report.fps = info.fps;

    const fs::path projectFolder = fs::absolute(project.folder()).lexically_normal();
    const std::string storedVideo = storedPath(video, projectFolder);
    const fs::path frameFolder = frameFolderFor(storedVideo);
    auto known = project.frames().indices(storedVideo);
    if (!known)
        return fail(known.error());
    const std::unordered_set<std::int64_t> alreadyIn(known->begin(), known->end());

    FrameSampler sampler(options.fps, options.every, options.startSeconds, options.endSeconds);
    const std::string stem = video.stem().string();
    std::int64_t total = info.frames;
    if (info.fps > 0 && options.endSeconds)
        total = std::min<std::int64_t>(total > 0 ? total : INT64_MAX,
                                       static_cast<std::int64_t>(std::ceil(*options.endSeconds * info.fps)));
    imaging::Image frame;
    bool reachedEnd = false, stoppedByRange = false;
    double lastTime = 0;
    while (true) {
        if (options.progress.cancelled()) {
            summary.cancelled = true;
            break;
        }
        if (!reader.grab()) {
            reachedEnd = true;
            break;
        }
        const std::int64_t index = reader.position() - 1;
        const double time = reader.timeSeconds();
        lastTime = time;
        if ((index & 7) == 0)
            options.progress.report(index, total, shown);
        const auto decision = sampler.next(time);
        if (decision == FrameSampler::Decision::Stop) {
            stoppedByRange = true;
            break;
        }
        if (decision == FrameSampler::Decision::Skip)
            continue;
        ++report.framesSampled;
        if (alreadyIn.count(index)) {
            ++report.alreadyPresent;
            continue;
        }
        if (!reader.retrieve(frame)) {
            reachedEnd = true; // decoded but cannot be converted: treat as the end of what can be read
            break;
        }
        const std::uint64_t hash = imaging::differenceHash(frame);
        if (const auto match = dedup.nearest(hash, options.dedupBits); match >= 0) {
            ++report.nearDuplicates;
            summary.nearDuplicatesOfProject += static_cast<std::size_t>(match) < dedup.fromProject ? 1 : 0;
            continue;
        }
        char name[64];
        std::snprintf(name, sizeof name, "_%06lld.jpg", static_cast<long long>(index));
        const fs::path relative = frameFolder / (stem + name);
        const fs::path file = projectFolder / relative;
        std::error_code error;
        fs::create_directories(file.parent_path(), error);
        if (auto written = imaging::encodeImage(frame, file, options.jpegQuality); !written)
            return fail(written.message());
        project::NewImage row;
        row.path = relative.generic_string();
        row.width = frame.width;
        row.height = frame.height;
        if (auto contentHash = hashFileHex(file))
            row.hash = *contentHash;
        project::FrameSource source{storedVideo, index, time, hash};
        auto added = project.frames().add(row, source);
        if (!added) {
            if (added.error().code == "exists") {
                ++report.alreadyPresent;
                continue;
            }
            fs::remove(file, error);
            return fail(shown + ": frame " + std::to_string(index) + ": " + added.message());
        }
        dedup.hashes.push_back(hash);
        ++report.imported;
    }
    report.framesDecoded = reader.position();
    // The container said how many frames there are; decoding stopped well before: a truncated or corrupt
    // file. (Counts from durations may be one frame off, hence the slack.)
    if (reachedEnd && !stoppedByRange && info.frames > 0 && reader.position() + 1 < info.frames) {
        const std::int64_t at = reader.position();
        const double atTime = info.fps > 0 ? static_cast<double>(at) / info.fps : lastTime;
        summary.problems.push_back({Severity::Error, ProblemKind::Syntax, shown, "",
                                    "stopped at frame " + std::to_string(at) + " (" +
                                        atText(at, atTime, info.fps) + ") of " + std::to_string(info.frames) +
                                        ": cannot decode further; " + std::to_string(report.imported) +
                                        " frames imported",
                                    "the rest of the video"});
    }
    // A video that stopped early shows where; a count that was too low grows to what was decoded.
    options.progress.report(report.framesDecoded,
                            total > 0 ? std::max(total, report.framesDecoded) : report.framesDecoded, shown);
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    summary.imported += report.imported;
    summary.nearDuplicates += report.nearDuplicates;
    summary.alreadyPresent += report.alreadyPresent;
    summary.videos.push_back(std::move(report));
    return {};
}

} // namespace

FrameSampler::FrameSampler(double fps, std::int64_t every, double startSeconds,
                           std::optional<double> endSeconds)
    : m_fps(fps), m_every(every), m_start(startSeconds), m_end(endSeconds) {}

FrameSampler::Decision FrameSampler::next(double timeSeconds) {
    if (timeSeconds + kTimeSlack < m_start)
        return Decision::Skip;
    if (m_end && timeSeconds + kTimeSlack >= *m_end)
        return Decision::Stop;
    const std::int64_t position = m_inRange++;
    if (m_every > 0)
        return position % m_every == 0 ? Decision::Keep : Decision::Skip;
    if (!(m_fps > 0))
        return Decision::Keep;
    const auto slot = static_cast<std::int64_t>(std::floor((timeSeconds - m_start) * m_fps + kTimeSlack));
    if (slot <= m_lastSlot)
        return Decision::Skip;
    m_lastSlot = slot;
    return Decision::Keep;
}

Expected<double> parseVideoTime(const std::string& text, const std::string& key) {
    const auto bad = [&] {
        return fail(key + "=" + text + ": write a time as seconds (12.5) or [h:]mm:ss (1:30, 1:02:03.5)",
                    "invalid");
    };
    if (text.empty())
        return bad();
    double total = 0;
    int parts = 0;
    std::size_t begin = 0;
    while (true) {
        const std::size_t colon = text.find(':', begin);
        const std::string part =
            text.substr(begin, colon == std::string::npos ? std::string::npos : colon - begin);
        const bool last = colon == std::string::npos;
        double value = 0;
        const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
        if (part.empty() || error != std::errc() || end != part.data() + part.size() ||
            !std::isfinite(value) || value < 0 || (!last && part.find('.') != std::string::npos) ||
            (parts > 0 && value >= 60))
            return bad();
        total = total * 60 + value;
        if (++parts > 3)
            return bad();
        if (last)
            break;
        begin = colon + 1;
    }
    return total;
}

bool isVideoFile(const fs::path& path) {
    return imaging::isVideoPath(path);
}

Expected<std::vector<fs::path>> listVideos(const fs::path& source) {
    std::error_code error;
    if (fs::is_regular_file(source, error)) {
        if (!isVideoFile(source))
            return fail(source.string() + ": not a video file (.mp4, .avi, .mov, .mkv, .webm, .m4v, .mpg, "
                                          ".mpeg, .wmv)",
                        "invalid");
        return std::vector<fs::path>{source};
    }
    if (!fs::is_directory(source, error))
        return fail(source.string() + ": no such video file or folder", "missing");
    std::vector<fs::path> videos;
    for (auto it =
             fs::recursive_directory_iterator(source, fs::directory_options::skip_permission_denied, error);
         !error && it != fs::recursive_directory_iterator(); it.increment(error))
        if (it->is_regular_file(error) && isVideoFile(it->path()))
            videos.push_back(it->path());
    if (error)
        return fail(source.string() + ": cannot list the folder: " + error.message(), "io");
    std::sort(videos.begin(), videos.end());
    if (videos.empty())
        return fail(source.string() + ": no video files in this folder (.mp4, .avi, .mov, .mkv, .webm, .m4v, "
                                      ".mpg, .mpeg, .wmv)",
                    "empty");
    return videos;
}

fs::path frameFolderFor(const std::string& storedVideo) {
    const fs::path video(storedVideo);
    const std::string hex = toHex(hashBytes(storedVideo)).substr(0, 6);
    return fs::path("images") / (video.stem().string() + "-" + hex);
}

Expected<VideoImportSummary> importVideos(project::Project& project, const VideoImportOptions& options) {
    if (!(options.fps > 0) && options.every <= 0)
        return fail("fps must be above 0, or every= at least 1", "invalid");
    if (options.endSeconds && *options.endSeconds <= options.startSeconds)
        return fail("end=" + project::videoTimeText(*options.endSeconds) +
                        " must come after start=" + project::videoTimeText(options.startSeconds),
                    "invalid");
    auto videos = listVideos(options.source);
    if (!videos)
        return fail(videos.error());
    Dedup dedup;
    if (options.dedupBits > 0) {
        auto hashes = project.frames().hashes();
        if (!hashes)
            return fail(hashes.error());
        dedup.hashes = std::move(*hashes);
        dedup.fromProject = dedup.hashes.size();
    }
    VideoImportSummary summary;
    summary.videosFound = static_cast<std::int64_t>(videos->size());
    for (const auto& video : *videos) {
        if (options.progress.cancelled()) {
            summary.cancelled = true;
            break;
        }
        if (auto status =
                importOne(project, video, options, shownName(video, options.source), dedup, summary);
            !status)
            return fail(status.error());
        if (summary.cancelled)
            break;
    }
    return summary;
}

} // namespace osprey::formats
