#pragma once
// SnapshotDiff: what changed in the data between two dataset snapshots (two runs, or a run and the project
// now), and ArgChange: what changed in the run arguments. `osprey-cli runs diff` prints these; the GUI's
// compare view can show the same values.
//
// Matching rules:
// - images are matched by their path in the project; one on one side only is added or removed (an image
//   whose split became "none" has left the run's data, so it counts as removed);
// - classes are matched by their project id: a new name is a rename;
// - boxes are compared on the images present in both snapshots (an added image brings its boxes with it:
//   they are counted on the image, not as added boxes). A box is followed by its project id; a box that
//   keeps its id but now overlaps its old place with IoU < moveIou (0.95) has moved, one with IoU >= moveIou
//   but other coordinates is "adjusted" (counted, not listed); a different class is a relabel. Boxes
//   without a partner by id are then paired when they have the same class and IoU >= moveIou (a box deleted
//   and drawn again, or re-imported); the rest are added or removed.
//
// Plain values and a pure function; any thread.

#include "quality/dataset_snapshot.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace osprey::quality {

struct ImageChange {
    std::string path;
    project::Split split = project::Split::Train; ///< its split on the side where it is
    int boxes = 0;
};

struct SplitMove {
    std::string path;
    project::Split from = project::Split::Train;
    project::Split to = project::Split::Train;
};

struct StatusChange {
    std::string path;
    project::ImageStatus from = project::ImageStatus::New;
    project::ImageStatus to = project::ImageStatus::New;
};

/// A box as it is on one side (xyxy image pixels).
struct BoxChange {
    std::string path;
    std::int64_t boxId = 0;
    std::string className;
    std::array<double, 4> xyxy{};
};

struct BoxMove {
    std::string path;
    std::int64_t boxId = 0;
    std::string className; ///< on side b
    std::array<double, 4> before{};
    std::array<double, 4> after{};
    double iou = 0;
};

struct BoxRelabel {
    std::string path;
    std::int64_t boxId = 0;
    std::string from;
    std::string to;
};

struct ClassRename {
    std::int64_t classId = 0;
    std::string from;
    std::string to;
};

struct SnapshotDiff {
    std::string hashA;
    std::string hashB;
    std::vector<ImageChange> imagesAdded;
    std::vector<ImageChange> imagesRemoved;
    std::vector<SplitMove> imagesMoved;
    std::vector<StatusChange> statusChanged;
    std::vector<std::string> contentChanged; ///< same path, other content hash or size
    std::vector<BoxChange> boxesAdded;
    std::vector<BoxChange> boxesRemoved;
    std::vector<BoxMove> boxesMoved;
    std::vector<BoxRelabel> boxesRelabelled;
    std::int64_t boxesAdjusted = 0; ///< same box, coordinates changed with IoU >= moveIou
    std::vector<ClassRename> classesRenamed;
    std::vector<std::string> classesAdded;
    std::vector<std::string> classesRemoved;
    bool classOrderChanged = false; ///< the same classes in another order (class indices differ)

    /// True when the two snapshots hold the same data (equal hashes).
    bool sameData() const { return hashA == hashB; }
};

/// The changes from `a` to `b`. Lists are ordered by image path, then box id.
SnapshotDiff diffSnapshots(const DatasetSnapshot& a, const DatasetSnapshot& b, double moveIou = 0.95);

/// The non-zero kinds of change in one line, "2 images added, 1 box moved"; empty when none is counted.
std::string changeSummary(const SnapshotDiff& diff);

/// One run argument that differs; `before` or `after` is empty when the key is on one side only.
struct ArgChange {
    std::string key;
    std::string before;
    std::string after;
};

/// The argument changes from `a` to `b`, by key.
std::vector<ArgChange> diffArgs(const std::map<std::string, std::string>& a,
                                const std::map<std::string, std::string>& b);

/// IoU of two xyxy boxes (0 when either is empty).
double boxIou(const std::array<double, 4>& a, const std::array<double, 4>& b);

} // namespace osprey::quality
