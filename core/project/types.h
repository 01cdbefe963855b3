#pragma once
// Value types of the project database. Coordinates are image pixels as doubles (xyxy); times are Unix
// seconds. These mirror the public SQLite schema documented in core/project/SCHEMA.md.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace osprey::project {

enum class ImageStatus { New, Labeled, Reviewed, VerifiedEmpty };
enum class Split { Train, Val, Test, None };
enum class BoxSource { Manual, Model, Import };

std::string_view toString(ImageStatus status);
std::string_view toString(Split split);
std::string_view toString(BoxSource source);
std::optional<ImageStatus> imageStatusFromString(std::string_view text);
std::optional<Split> splitFromString(std::string_view text);
std::optional<BoxSource> boxSourceFromString(std::string_view text);

struct ClassInfo {
    std::int64_t id = 0;
    std::string name;
    std::string color; ///< "#rrggbb"
    int position = 0;  ///< 0-based order in the class list; also the YOLO class index on export
};

/// Where an image cut from a video came from (the image_frames table).
struct FrameSource {
    std::string video;              ///< the video file: relative to the project folder, or absolute
    std::int64_t frame = 0;         ///< 0-based index of the frame in decoding order
    double timeSeconds = 0;         ///< its presentation time from the start of the video
    std::uint64_t differenceHash{}; ///< 64-bit perceptual hash (imaging::differenceHash)
};

/// A file a watched folder took (the taken_files table), keyed by path, size and modification time.
struct TakenFile {
    std::string path;         ///< absolute
    std::int64_t size = 0;    ///< bytes
    std::int64_t mtimeNs = 0; ///< modification time, nanoseconds since the epoch
    std::string kind;         ///< "image", "video" or "skipped" (unreadable: not tried again)
    std::int64_t images = 0;  ///< images it added
    bool operator==(const TakenFile&) const = default;
};

/// "00:41.13", or "1:02:03.50" from an hour on: a time in a video, to the hundredth of a second.
std::string videoTimeText(double seconds);

struct ImageRecord {
    std::int64_t id = 0;
    std::string path; ///< relative to the project folder, or absolute
    int width = 0;
    int height = 0;
    std::string hash; ///< content hash (hex); empty when unknown
    ImageStatus status = ImageStatus::New;
    Split split = Split::None;
    bool splitLocked = false; ///< the splitter leaves a locked image where it is
    std::int64_t addedAt = 0;
    int boxCount = 0;                 ///< filled by list queries
    std::optional<FrameSource> frame; ///< filled by Project::image(): set for a frame cut from a video
};

/// Per-box flags kept from the source format.
struct BoxFlags {
    bool crowd = false;     ///< COCO iscrowd: evaluators ignore it
    bool difficult = false; ///< VOC difficult
    bool truncated = false; ///< VOC truncated
    bool operator==(const BoxFlags&) const = default;
};

struct BoxRecord {
    std::int64_t id = 0;
    std::int64_t imageId = 0;
    std::int64_t classId = 0;
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    BoxSource source = BoxSource::Manual;
    std::optional<double> score; ///< model confidence; none for manual and imported boxes
    BoxFlags flags;
    std::int64_t createdAt = 0;
    std::int64_t updatedAt = 0;
};

/// An image to insert. Status and split default to new / none.
struct NewImage {
    std::string path;
    int width = 0;
    int height = 0;
    std::string hash;
    ImageStatus status = ImageStatus::New;
    Split split = Split::None;
    bool splitLocked = false;
};

/// A box to insert.
struct NewBox {
    std::int64_t imageId = 0;
    std::int64_t classId = 0;
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    BoxSource source = BoxSource::Manual;
    std::optional<double> score;
    BoxFlags flags;
};

/// Filters and paging for image lists. Unset filters match everything.
struct ImageQuery {
    std::optional<ImageStatus> status;
    std::optional<Split> split;
    std::optional<std::int64_t> classId; ///< images with at least one box of this class
    std::int64_t offset = 0;
    int limit = 100; ///< <= 0 means no limit
};

/// What happens to a deleted class's boxes.
enum class ClassDeletePolicy {
    DeleteBoxes, ///< delete its boxes too
    Reassign,    ///< move its boxes to another class (given by id)
    Refuse,      ///< fail when the class still has boxes
};

enum class RunStatus { Running, Finished, Stopped, Failed };
std::string_view toString(RunStatus status);
std::optional<RunStatus> runStatusFromString(std::string_view text);

struct RunRecord {
    std::int64_t id = 0;
    std::string name;
    std::string config; ///< JSON of the run arguments
    RunStatus status = RunStatus::Running;
    std::int64_t startedAt = 0;
    std::optional<std::int64_t> finishedAt;
    std::optional<int> bestEpoch;
    std::optional<double> bestFitness;
    std::string weightsPath;
};

/// Counts for `osprey-cli stats` and the statistics panel.
struct ClassSplitCount {
    std::int64_t classId = 0;
    Split split = Split::None;
    std::int64_t images = 0; ///< images with at least one box of the class
    std::int64_t boxes = 0;
};

} // namespace osprey::project
