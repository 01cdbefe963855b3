#pragma once
// Video files, frame by frame, behind value types (no OpenCV in this header). Decoding and encoding go
// through OpenCV's videoio (FFmpeg on Debian). A reader or writer belongs to one thread at a time.

#include "common/expected.h"
#include "imaging/image.h"

#include <cstdint>
#include <filesystem>
#include <memory>

namespace osprey::imaging {

/// True for the extensions predict and autolabel treat as videos (.mp4, .avi, .mov, .mkv, .webm, ...).
bool isVideoPath(const std::filesystem::path& path);

struct VideoInfo {
    int width = 0;
    int height = 0;
    double fps = 0;          ///< 0 when the container does not say
    std::int64_t frames = 0; ///< the container's frame count; 0 when unknown (may be approximate)
};

class VideoReader {
public:
    /// Opens a video file; the error names the file (missing, not a video, no decoder).
    static Expected<std::unique_ptr<VideoReader>> open(const std::filesystem::path& path);
    ~VideoReader();
    VideoReader(const VideoReader&) = delete;
    VideoReader& operator=(const VideoReader&) = delete;

    const VideoInfo& info() const;
    /// Decodes the next frame to RGB. Returns false at the end of the stream (or where the file cannot be
    /// decoded further: a truncated or corrupt video).
    bool read(Image& frame);
    /// Moves to the next frame without converting its pixels (cheaper than read() for frames that are
    /// skipped). Returns false where read() would.
    bool grab();
    /// The RGB pixels of the frame grab() moved to. False when there is none or it cannot be converted.
    bool retrieve(Image& frame);
    /// Frames read or grabbed so far; the current frame's 0-based index is position() - 1.
    std::int64_t position() const;
    /// Presentation time of the current frame in seconds from the start of the video: the stream's
    /// timestamp, else (position() - 1) / fps, else 0.
    double timeSeconds() const;

private:
    struct Impl;
    explicit VideoReader(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

class VideoWriter {
public:
    /// Starts writing `path` (.mp4: MPEG-4 part 2; .avi: Motion JPEG). Frames go to a temporary file
    /// beside it that close() renames into place, so a crash never leaves a half-written video at `path`.
    static Expected<std::unique_ptr<VideoWriter>> open(const std::filesystem::path& path, int width,
                                                       int height, double fps);
    /// Removes the temporary file unless close() succeeded.
    ~VideoWriter();
    VideoWriter(const VideoWriter&) = delete;
    VideoWriter& operator=(const VideoWriter&) = delete;

    /// Appends one RGB frame of the size given to open().
    Status write(const Image& frame);
    /// Finishes the file and moves it to its final path.
    Status close();

private:
    struct Impl;
    explicit VideoWriter(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace osprey::imaging
