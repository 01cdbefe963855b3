#pragma once
// Private to core/quality: reads a project once, in a stable order, for a snapshot. One read transaction
// on its own connection (small page cache) over the public schema: the images of train/val/test by id and
// the boxes by image id then box id, stepped side by side, so that each image reaches the sink with its
// boxes and memory holds one 32-byte digest per image besides the sink's own data.

#include "common/expected.h"
#include "quality/dataset_snapshot.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace osprey::quality::detail {

/// Receives a snapshot's records in order: the class list and image count first, then each image of
/// train, val and test (by id) with its boxes (by box id).
class SnapshotSink {
public:
    virtual ~SnapshotSink() = default;
    virtual Status begin(const std::vector<SnapshotClass>& classes, std::uint64_t images) = 0;
    virtual Status image(const SnapshotImage& image, std::span<const SnapshotBox> boxes) = 0;
};

struct StreamCounts {
    std::uint64_t classes = 0;
    std::uint64_t images = 0;
    std::uint64_t boxes = 0;
};

/// Streams `project` into `sink` and returns the snapshot hash (64 hex digits).
Expected<std::string> streamProject(const project::Project& project, SnapshotSink& sink,
                                    StreamCounts* counts = nullptr);

} // namespace osprey::quality::detail
