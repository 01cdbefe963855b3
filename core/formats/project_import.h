#pragma once
// Importing a dataset into a project: read the source with its format (detected or named), then write
// classes, images and boxes in ONE transaction. A failed, cancelled or strict-rejected import leaves the
// project exactly as it was.
//
// Runs on the calling thread (the GUI wizard calls it from a worker thread with its own Project object);
// progress callbacks fire on that thread, and the cancel flag may be set from any thread.

#include "common/expected.h"
#include "formats/format.h"
#include "project/project.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace osprey::formats {

enum class ImportMode {
    Lenient, ///< import the valid items; every skipped item is listed in the summary
    Strict,  ///< any problem, warnings included, aborts and nothing is written
};

struct ImportOptions {
    ReadOptions read;            ///< source, images=DIR, crowd policy, progress and cancel
    std::string format = "auto"; ///< a registry name, or "auto" to detect
    ImportMode mode = ImportMode::Lenient;
    /// Called on the importing thread once the source is read, before anything is written (the CLI
    /// prints the layout line here). Optional.
    std::function<void(const ReadResult&)> afterRead;
};

struct ImportSummary {
    std::string format; ///< the format used (detected or given)
    std::string layout; ///< ReadResult::layout: what was found and how it paired
    std::int64_t images = 0;
    std::int64_t boxes = 0;
    std::int64_t classesAdded = 0;
    std::int64_t unlabeled = 0;      ///< imported with status new
    std::int64_t verifiedEmpty = 0;  ///< imported as negatives
    std::int64_t alreadyPresent = 0; ///< images whose path the project already had (left as they were)
    std::int64_t skippedCrowd = 0;
    std::vector<Problem> problems;
    std::vector<std::string> notes;
    double readMs = 0;
    double writeMs = 0;
};

/// Reads a source without touching any project (for previews and `validate source=`).
/// `format` is a registry name or "auto"; `chosen` receives the format used.
Expected<ReadResult> readSource(const ReadOptions& options, const std::string& format,
                                std::string* chosen = nullptr);

/// Why importing `read` must stop before writing, or "" when it may go on: 0 images, or label files
/// found (or a folder format given) but no box read from them. The text says what was found and what to
/// pass. A folder of images with no label file at all, or label files that are all empty (negatives),
/// is fine; so is format=images given explicitly (labels ignored on purpose).
std::string emptyImportProblem(const ReadResult& read, const std::string& format, const ReadOptions& options);

/// Writes `dataset` into `project` in one transaction; classes are matched by name and missing ones
/// added at the end. Fills the count fields of `summary`.
Status writeDataset(project::Project& project, const Dataset& dataset, const Progress& progress,
                    ImportSummary& summary);

/// readSource + strict check + writeDataset. On failure the project is unchanged and the error says why
/// (the first problem and how many there were, in strict mode).
Expected<ImportSummary> importDataset(project::Project& project, const ImportOptions& options);

} // namespace osprey::formats
