#include "imaging/video.h"

#include "common/strings.h"

#include <opencv2/core/utils/logger.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include <cmath>
#include <system_error>

namespace fs = std::filesystem;

namespace osprey::imaging {

bool isVideoPath(const fs::path& path) {
    const std::string ext = toLower(path.extension().string());
    for (const char* known : {".mp4", ".avi", ".mov", ".mkv", ".webm", ".m4v", ".mpg", ".mpeg", ".wmv"})
        if (ext == known)
            return true;
    return false;
}

namespace {

/// The other backends report a file they cannot read as OpenCV warnings and errors on stderr (GStreamer's
/// pipeline assertions, the image-sequence reader's pattern error), several lines per bad file; the
/// caller's error names the file already. OpenCV's log level is process-wide, so other threads' OpenCV
/// logging is quiet for that moment too.
bool openWithOtherBackends(cv::VideoCapture& capture, const fs::path& path) {
    const auto previous = cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
    bool opened = false;
    try {
        opened = capture.open(path.string(), cv::CAP_ANY);
    } catch (const cv::Exception&) {
        opened = false;
    }
    cv::utils::logging::setLogLevel(previous);
    return opened;
}

} // namespace

struct VideoReader::Impl {
    cv::VideoCapture capture;
    VideoInfo info;
    std::int64_t position = 0;
    cv::Mat bgr;
};

VideoReader::VideoReader(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
VideoReader::~VideoReader() = default;

Expected<std::unique_ptr<VideoReader>> VideoReader::open(const fs::path& path) {
    std::error_code error;
    if (!fs::is_regular_file(path, error))
        return fail(path.string() + ": video not found", "missing");
    auto impl = std::make_unique<Impl>();
    try {
        // FFmpeg first: the other backends (GStreamer) print warnings on files they cannot read.
        if (!impl->capture.open(path.string(), cv::CAP_FFMPEG) && !openWithOtherBackends(impl->capture, path))
            return fail(path.string() +
                            ": cannot open as a video (not a video, a truncated file, or no decoder for it)",
                        "invalid");
        impl->info.width = static_cast<int>(impl->capture.get(cv::CAP_PROP_FRAME_WIDTH));
        impl->info.height = static_cast<int>(impl->capture.get(cv::CAP_PROP_FRAME_HEIGHT));
        const double fps = impl->capture.get(cv::CAP_PROP_FPS);
        impl->info.fps = std::isfinite(fps) && fps > 0 && fps < 1000 ? fps : 0;
        const double frames = impl->capture.get(cv::CAP_PROP_FRAME_COUNT);
        impl->info.frames = std::isfinite(frames) && frames > 0 ? static_cast<std::int64_t>(frames) : 0;
    } catch (const cv::Exception& e) {
        return fail(path.string() + ": cannot open as a video: " + e.what(), "invalid");
    }
    if (impl->info.width <= 0 || impl->info.height <= 0)
        return fail(path.string() + ": the video has no frame size (not a video, or corrupt)", "invalid");
    return std::unique_ptr<VideoReader>(new VideoReader(std::move(impl)));
}

const VideoInfo& VideoReader::info() const {
    return m_impl->info;
}

bool VideoReader::read(Image& frame) {
    return grab() && retrieve(frame);
}

bool VideoReader::grab() {
    try {
        if (!m_impl->capture.grab())
            return false;
    } catch (const cv::Exception&) {
        return false;
    }
    ++m_impl->position;
    return true;
}

bool VideoReader::retrieve(Image& frame) {
    try {
        if (m_impl->position == 0 || !m_impl->capture.retrieve(m_impl->bgr) || m_impl->bgr.empty())
            return false;
    } catch (const cv::Exception&) {
        return false;
    }
    const cv::Mat& bgr = m_impl->bgr;
    frame.width = bgr.cols;
    frame.height = bgr.rows;
    frame.channels = 3;
    frame.pixels.resize(static_cast<size_t>(bgr.cols) * bgr.rows * 3);
    cv::Mat rgb(bgr.rows, bgr.cols, CV_8UC3, frame.pixels.data());
    if (bgr.channels() == 1)
        cv::cvtColor(bgr, rgb, cv::COLOR_GRAY2RGB);
    else if (bgr.channels() == 4)
        cv::cvtColor(bgr, rgb, cv::COLOR_BGRA2RGB);
    else
        cv::cvtColor(bgr, rgb, cv::COLOR_BGR2RGB);
    return true;
}

std::int64_t VideoReader::position() const {
    return m_impl->position;
}

double VideoReader::timeSeconds() const {
    if (m_impl->position == 0)
        return 0;
    double ms = -1;
    try {
        ms = m_impl->capture.get(cv::CAP_PROP_POS_MSEC);
    } catch (const cv::Exception&) {
    }
    if (std::isfinite(ms) && ms >= 0 && (ms > 0 || m_impl->position == 1 || m_impl->info.fps <= 0))
        return ms / 1000.0;
    return m_impl->info.fps > 0 ? static_cast<double>(m_impl->position - 1) / m_impl->info.fps : 0;
}

struct VideoWriter::Impl {
    cv::VideoWriter writer;
    fs::path finalPath, tempPath;
    int width = 0, height = 0;
    bool closed = false;
    cv::Mat bgr;
};

VideoWriter::VideoWriter(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

VideoWriter::~VideoWriter() {
    if (!m_impl->closed) {
        m_impl->writer.release();
        std::error_code error;
        fs::remove(m_impl->tempPath, error);
    }
}

Expected<std::unique_ptr<VideoWriter>> VideoWriter::open(const fs::path& path, int width, int height,
                                                         double fps) {
    if (width <= 0 || height <= 0)
        return fail(path.string() + ": video frame size must be positive", "invalid");
    const std::string ext = toLower(path.extension().string());
    int fourcc = 0;
    if (ext == ".mp4" || ext == ".m4v")
        fourcc = cv::VideoWriter::fourcc('m', 'p', '4', 'v');
    else if (ext == ".avi")
        fourcc = cv::VideoWriter::fourcc('M', 'J', 'P', 'G');
    else
        return fail(path.string() + ": write videos as .mp4 or .avi", "invalid");
    auto impl = std::make_unique<Impl>();
    impl->finalPath = path;
    // The temporary name keeps the extension: the container is chosen from it.
    impl->tempPath = path.parent_path() / (path.stem().string() + ".partial" + path.extension().string());
    impl->width = width;
    impl->height = height;
    std::error_code error;
    if (!path.parent_path().empty())
        fs::create_directories(path.parent_path(), error);
    try {
        const cv::Size size(width, height);
        const double rate = fps > 0 ? fps : 30.0;
        if (!impl->writer.open(impl->tempPath.string(), cv::CAP_FFMPEG, fourcc, rate, size, true) &&
            !impl->writer.open(impl->tempPath.string(), cv::CAP_ANY, fourcc, rate, size, true))
            return fail(path.string() + ": cannot write this video (no encoder for " + ext + ")", "io");
    } catch (const cv::Exception& e) {
        return fail(path.string() + ": cannot write this video: " + e.what(), "io");
    }
    return std::unique_ptr<VideoWriter>(new VideoWriter(std::move(impl)));
}

Status VideoWriter::write(const Image& frame) {
    if (m_impl->closed)
        return fail(m_impl->finalPath.string() + ": the video is already closed");
    if (frame.width != m_impl->width || frame.height != m_impl->height || frame.channels != 3)
        return fail(m_impl->finalPath.string() + ": frame is " + std::to_string(frame.width) + "x" +
                    std::to_string(frame.height) + ", the video is " + std::to_string(m_impl->width) + "x" +
                    std::to_string(m_impl->height));
    const cv::Mat rgb(frame.height, frame.width, CV_8UC3, const_cast<std::uint8_t*>(frame.pixels.data()));
    cv::cvtColor(rgb, m_impl->bgr, cv::COLOR_RGB2BGR);
    try {
        m_impl->writer.write(m_impl->bgr);
    } catch (const cv::Exception& e) {
        return fail(m_impl->finalPath.string() + ": " + e.what(), "io");
    }
    return {};
}

Status VideoWriter::close() {
    if (m_impl->closed)
        return {};
    m_impl->writer.release();
    std::error_code error;
    fs::rename(m_impl->tempPath, m_impl->finalPath, error);
    if (error)
        return fail(m_impl->finalPath.string() + ": " + error.message(), "io");
    m_impl->closed = true;
    return {};
}

} // namespace osprey::imaging
