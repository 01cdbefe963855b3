#pragma once
// Format: one dataset format (YOLO, COCO, Pascal VOC, a plain image folder) as one importer/exporter pair
// behind a small interface. Formats are stateless and may be used from any thread; the options carry
// the per-call state (progress callback, cancel flag).

#include "common/expected.h"
#include "formats/dataset.h"
#include "formats/problem.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace osprey::formats {

struct LayoutScan;

/// Called from the reading/writing thread with the work done so far. `total` may be 0 when unknown.
using ProgressCallback = std::function<void(std::int64_t done, std::int64_t total, std::string_view stage)>;

/// Progress reporting and cancellation shared by reading, importing and exporting.
struct Progress {
    ProgressCallback callback;                 ///< optional
    const std::atomic<bool>* cancel = nullptr; ///< optional; set to true (from any thread) to cancel

    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
    void report(std::int64_t done, std::int64_t total, std::string_view stage) const {
        if (callback)
            callback(done, total, stage);
    }
};

/// What to do with COCO iscrowd annotations.
enum class CrowdPolicy {
    Keep, ///< import them with the crowd flag (evaluators ignore them)
    Skip, ///< leave them out; the read result counts them
};

/// Whether found image files are probed for their size and content hash while reading.
enum class ImageProbe { SizeAndHash, SizeOnly, None };

struct ReadOptions {
    std::filesystem::path source;    ///< a folder or an annotation file
    std::filesystem::path imagesDir; ///< where the images are when not beside the labels (images=DIR)
    CrowdPolicy crowd = CrowdPolicy::Keep;
    ImageProbe probe = ImageProbe::SizeAndHash;
    /// Annotations may name image files outside the source folder and images=DIR (COCO file_name with
    /// ../ or an absolute path). Off by default: such files are never read.
    bool allowOutsideRoots = false;
    Progress progress;
    /// The bounded walk of a source folder (formats/layout_scan.h); readSource fills it so that readers
    /// need not walk again. Readers scan themselves when it is null.
    std::shared_ptr<const LayoutScan> scan;
};

/// The result of reading a source: the dataset, the problems, and notes such as how images were matched.
struct ReadResult {
    Dataset dataset;
    std::vector<Problem> problems;
    std::vector<std::string> notes; ///< informational lines (matching report, skipped-crowd count)
    std::int64_t skippedCrowd = 0;
    /// Set by readSource: what was found and how it paired, in one line ("164 VOC annotations in
    /// annots/, 164 images in images/, all paired").
    std::string layout;
    std::int64_t labelFiles = 0; ///< label/annotation files read or found without an image (readSource)
    std::shared_ptr<const LayoutScan> scan; ///< readSource's walk of a source folder; null for a file
    bool formatDetected = false;            ///< readSource chose the format (format=auto)
};

/// How exported images are placed beside the labels.
enum class ImageExport {
    Symlink, ///< symbolic links to the project's files (falls back to copy when links fail)
    Copy,
    None, ///< labels only
};

/// Whether images that are not labeled yet (status new) are exported.
enum class UnlabeledExport { Skip, Keep };

struct WriteOptions {
    std::filesystem::path dest; ///< output folder, created when missing
    ImageExport images = ImageExport::Symlink;
    UnlabeledExport unlabeled = UnlabeledExport::Skip;
    Progress progress;
};

struct WriteReport {
    std::int64_t images = 0;
    std::int64_t boxes = 0;
    std::int64_t skippedUnlabeled = 0;
    std::vector<std::string> notes;
};

/// One dataset format. Implementations live in <name>_format.h/.cpp and register in FormatRegistry.
class Format {
public:
    virtual ~Format() = default;

    /// Short lowercase name used on the command line ("yolo", "coco", "voc", "images").
    virtual std::string name() const = 0;
    /// One line for the wizard and `osprey-cli help import`.
    virtual std::string description() const = 0;
    /// How sure the format is that `source` is in it: 0 = not this format, higher is surer (max 100).
    virtual int detect(const std::filesystem::path& source) const = 0;
    /// Reads the source. Fails only when nothing sensible can be read (a missing descriptor, a file that
    /// is not JSON); problems with single items are returned in ReadResult::problems.
    virtual Expected<ReadResult> read(const ReadOptions& options) const = 0;
    /// Whether write() is implemented.
    virtual bool canWrite() const { return false; }
    /// Writes the dataset to options.dest.
    virtual Expected<WriteReport> write(const Dataset& dataset, const WriteOptions& options) const;
};

} // namespace osprey::formats
