#pragma once
// DatasetSnapshot: an immutable manifest of the data a training run uses. For every image in the train,
// val and test splits: its path, content hash, size, split, status and boxes (class, xyxy pixels, flags);
// plus the class list; plus one snapshot hash over all of it.
//
// The hash (SHA-256, 64 hex digits) depends on the data only, never on database ids, insertion order or
// the machine. Each image gets a digest of (content hash, or its path when the content hash is unknown;
// width; height; split; status; its boxes sorted by class index then coordinates), and the snapshot hash
// covers the class names in list order and the sorted image digests. Coordinates enter as their IEEE-754
// bits, so moving one box by 1 px (or by any amount) changes the hash; renaming an image file does not.
// The exact byte layout is in dataset_snapshot.cpp and docs/snapshots.md.
//
// A snapshot file (`snapshot.bin` in a run folder) is a short header (magic, version, hash, sizes) and a
// zlib stream of the records. Writing streams the project in one pass (memory stays at a few MB for
// 100,000 images); reading verifies the hash.
//
// Thread affinity: plain values and free functions; each call uses the Project on the calling thread.

#include "common/expected.h"
#include "project/project.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace osprey::quality {

inline constexpr int kSnapshotFormatVersion = 1;

struct SnapshotClass {
    std::int64_t id = 0; ///< the project's class id (stable across renames and reorders)
    std::string name;    ///< the list order is the class index
};

struct SnapshotBox {
    std::int64_t id = 0; ///< the project's box id (to follow a box between snapshots; not hashed)
    int classIndex = 0;  ///< index into DatasetSnapshot::classes
    project::BoxFlags flags;
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0; ///< image pixels
};

struct SnapshotImage {
    std::int64_t id = 0; ///< the project's image id (not hashed)
    std::string path;    ///< as stored in the project (hashed only when `contentHash` is empty)
    std::string contentHash;
    int width = 0;
    int height = 0;
    project::Split split = project::Split::Train;
    project::ImageStatus status = project::ImageStatus::New;
    std::uint32_t firstBox = 0; ///< range into DatasetSnapshot::boxes
    std::uint32_t boxCount = 0;
};

struct DatasetSnapshot {
    std::vector<SnapshotClass> classes;
    std::vector<SnapshotImage> images; ///< ordered by image id
    std::vector<SnapshotBox> boxes;    ///< grouped by image, in image order, by box id within an image
    std::string hash;                  ///< 64 hex digits

    const SnapshotBox* boxesOf(const SnapshotImage& image) const { return boxes.data() + image.firstBox; }
};

/// What writing a snapshot file measured.
struct SnapshotSummary {
    std::string hash;
    std::int64_t images = 0;
    std::int64_t boxes = 0;
    std::int64_t classes = 0;
    std::uintmax_t fileBytes = 0;
};

/// The snapshot of the project now (train, val and test images), in memory.
Expected<DatasetSnapshot> takeSnapshot(const project::Project& project);

/// Streams the project's snapshot into `file` (written beside it and renamed, so a reader never sees half
/// a file). Memory does not grow with the number of boxes.
Expected<SnapshotSummary> writeSnapshot(const project::Project& project, const std::filesystem::path& file);

/// Reads a snapshot file and checks its hash; errors name the file and what is wrong with it.
Expected<DatasetSnapshot> readSnapshot(const std::filesystem::path& file);

/// The hash recorded in a snapshot file's header (reads the header only; readSnapshot verifies it).
Expected<std::string> readSnapshotHash(const std::filesystem::path& file);

/// The snapshot hash of the project now, without keeping or writing the records.
Expected<std::string> projectSnapshotHash(const project::Project& project);

/// Recomputes the hash of `snapshot` from its records (what takeSnapshot and readSnapshot store in it).
std::string computeSnapshotHash(const DatasetSnapshot& snapshot);

/// The first 12 hex digits, as lists show a hash ("" stays "").
std::string shortHash(const std::string& hash);

} // namespace osprey::quality
