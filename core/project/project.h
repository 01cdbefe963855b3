#pragma once
// Project: one folder holding project.osprey, a SQLite database in WAL mode (schema in
// core/project/SCHEMA.md).
//
// Thread affinity: a Project object belongs to the thread that uses it; it is not safe to share one
// object between threads. Several Project objects (in one process or several) may open the same folder
// at once: SQLite serialises writers, and readers see committed data.
//
// Every call that changes data runs in one transaction. Use `transaction()` to group many calls into
// one; nested calls then join the outer transaction.
//
// Two writers: SQLite lets one connection write at a time. A transaction that finds another program
// writing (an import, an auto-label run) waits for it, up to busyWait(), and only then fails with code
// "busy". Failures keep their cause in the error code: "busy", "full" (disk full), "read-only", "io";
// a failed transaction changes nothing.

#include "common/expected.h"
#include "common/sqlite.h"
#include "project/types.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace osprey::project {

inline constexpr int kSchemaVersion = 3;
inline constexpr const char* kDatabaseFileName = "project.osprey";
/// How long a write waits for another program's write by default (a large import holds the database for
/// seconds to minutes): the one write wait of the project database, shared with the remote outbox.
inline constexpr std::chrono::milliseconds kDefaultBusyWait = sql::kDefaultWriteWait;

class Project {
public:
    ~Project();
    Project(const Project&) = delete;
    Project& operator=(const Project&) = delete;

    // ---- lifetime -------------------------------------------------------------------------------
    /// Creates the folder (if needed) and a new database. Fails if a project already exists there.
    static Expected<std::unique_ptr<Project>> create(const std::filesystem::path& folder);
    /// Opens an existing project. Error codes: "missing", "locked" (a migration could not get the write
    /// lock), "newer-schema", "corrupt", "read-only" (an old schema in a folder that cannot be written).
    /// Another program writing to the project at the same time is no error: writes wait for it. A project
    /// whose folder or database cannot be written opens read-only (readOnly()).
    static Expected<std::unique_ptr<Project>> open(const std::filesystem::path& folder);
    /// Opens or creates.
    static Expected<std::unique_ptr<Project>> openOrCreate(const std::filesystem::path& folder);

    const std::filesystem::path& folder() const;
    std::filesystem::path databasePath() const;
    /// Resolves an image path (relative to the folder, or absolute) to an absolute path.
    std::filesystem::path resolve(const std::string& imagePath) const;
    int schemaVersion() const;

    /// Runs `body` in one transaction: committed when it returns success, rolled back otherwise.
    Status transaction(const std::function<Status()>& body);
    /// Runs `body`, which only reads, in one read transaction: every read in it sees the same state of the
    /// database, whatever other connections commit meanwhile, and no writer waits for it (WAL). Inside
    /// another transaction it joins that one. A write in `body` fails at once (code "misuse").
    Status readTransaction(const std::function<Status()>& body) const;

    /// True when the project opened read-only (its folder or database file cannot be written): reads
    /// work, every write fails with code "read-only".
    bool readOnly() const;
    /// How long a transaction waits for another connection's write before failing with "busy".
    void setBusyWait(std::chrono::milliseconds wait);
    std::chrono::milliseconds busyWait() const;
    /// Called on the calling thread about every 250 ms while a transaction waits for another writer, with
    /// the time waited so far (the CLI says once that it is waiting). Empty: no calls.
    void setBusyObserver(std::function<void(std::chrono::milliseconds waited)> observer);

    // ---- classes --------------------------------------------------------------------------------
    /// Adds a class at the end of the list. An empty colour picks one from the palette. Names are unique.
    Expected<std::int64_t> addClass(const std::string& name, const std::string& color = {});
    Status renameClass(std::int64_t classId, const std::string& name);
    Status recolorClass(std::int64_t classId, const std::string& color);
    /// Moves a class to `position` (0-based), shifting the others.
    Status moveClass(std::int64_t classId, int position);
    /// Deletes a class. With Reassign, `reassignTo` receives its boxes.
    Status deleteClass(std::int64_t classId, ClassDeletePolicy policy, std::int64_t reassignTo = 0);
    /// All classes ordered by position.
    Expected<std::vector<ClassInfo>> classes() const;

    // ---- images ---------------------------------------------------------------------------------
    Expected<std::int64_t> addImage(const NewImage& image);
    /// Adds many images in one transaction; returns their ids in order.
    Expected<std::vector<std::int64_t>> addImages(std::span<const NewImage> images);
    Expected<ImageRecord> image(std::int64_t imageId) const;
    /// Images ordered by id, filtered and paged, with their box counts.
    Expected<std::vector<ImageRecord>> listImages(const ImageQuery& query = {}) const;
    /// Number of images matching the filters (paging ignored).
    Expected<std::int64_t> countImages(const ImageQuery& query = {}) const;
    /// Row of `imageId` in listImages(query) order (paging ignored); fails when it does not match the
    /// filters.
    Expected<std::int64_t> imageRow(std::int64_t imageId, const ImageQuery& query = {}) const;
    Status setImageStatus(std::int64_t imageId, ImageStatus status);
    Status setImageSplit(std::int64_t imageId, Split split, bool locked = false);
    Status setImageSize(std::int64_t imageId, int width, int height);
    /// Deletes an image record and its boxes (never the file).
    Status deleteImage(std::int64_t imageId);

    // ---- video frames ---------------------------------------------------------------------------
    /// Adds one image cut from a video together with its provenance, in one transaction (an importer
    /// killed at any moment leaves the frame either fully in the project or not at all). Fails with code
    /// "exists" when the project already holds that frame of that video.
    Expected<std::int64_t> addFrame(const NewImage& image, const FrameSource& source);
    /// Where an image came from, when it was cut from a video (image() fills ImageRecord::frame too).
    Expected<std::optional<FrameSource>> frameSource(std::int64_t imageId) const;
    /// The frame indices of `video` (as stored: FrameSource::video) already in the project, ascending.
    Expected<std::vector<std::int64_t>> frameIndices(const std::string& video) const;
    /// The difference hashes of every video frame in the project, for near-duplicate checks.
    Expected<std::vector<std::uint64_t>> frameHashes() const;

    // ---- watched folders ------------------------------------------------------------------------
    /// Records that a watched folder took `file`. Call it inside the transaction that adds the file's
    /// images, so that a kill at any moment leaves both or neither.
    Status recordTakenFile(const TakenFile& file);
    /// Every file recorded by recordTakenFile.
    Expected<std::vector<TakenFile>> takenFiles() const;

    // ---- boxes ----------------------------------------------------------------------------------
    /// Adds a box. A new or verified-empty image becomes labeled.
    Expected<std::int64_t> addBox(const NewBox& box);
    /// Adds many boxes in one transaction; returns their ids in order.
    Expected<std::vector<std::int64_t>> addBoxes(std::span<const NewBox> boxes);
    /// Updates class, coordinates, source, score and flags of an existing box.
    Status updateBox(const BoxRecord& box);
    /// Deletes a box. A labeled image whose last box goes becomes new again.
    Status deleteBox(std::int64_t boxId);
    Expected<BoxRecord> box(std::int64_t boxId) const;
    Expected<std::vector<BoxRecord>> boxes(std::int64_t imageId) const;
    /// Streams every box of the project ordered by image id then box id, in one query (exports and
    /// checks of large projects). Stops at the first failure `visit` returns.
    Status forEachBox(const std::function<Status(const BoxRecord&)>& visit) const;

    // ---- statistics -----------------------------------------------------------------------------
    /// Image and box counts per class and split (only non-zero rows).
    Expected<std::vector<ClassSplitCount>> classSplitCounts() const;
    /// Image counts per split, including images without boxes.
    Expected<std::vector<std::pair<Split, std::int64_t>>> splitCounts() const;

    // ---- runs -----------------------------------------------------------------------------------
    Expected<std::int64_t> addRun(const std::string& name, const std::string& configJson);
    Status updateRun(const RunRecord& run);
    Expected<std::vector<RunRecord>> runs() const;

    // ---- settings -------------------------------------------------------------------------------
    /// Per-project key/value settings (e.g. the remote default).
    Expected<std::string> setting(const std::string& key, const std::string& fallback = {}) const;
    Status setSetting(const std::string& key, const std::string& value);

    /// Runs `PRAGMA integrity_check`; returns "ok" or the problems found.
    Expected<std::string> integrityCheck() const;

    /// Opaque state; defined in the private project_impl.h.
    struct Impl;

private:
    explicit Project(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

/// The default class colour palette (distinct, readable on light and dark images).
std::string paletteColor(int index);

} // namespace osprey::project
