#pragma once
// Project: one folder holding project.osprey, a SQLite database in WAL mode (schema in
// core/project/SCHEMA.md). Project owns the one connection and its transactions, and hands out the stores
// that read and write over it, one per kind of fact: classes(), images(), frames(), takenFiles(), boxes(),
// runs() and settings().
//
// Thread affinity: a Project object and its stores belong to the thread that uses them; they are not
// safe to share between threads. Several Project objects (in one process or several) may open the same
// folder at once: SQLite serialises writers, and readers see committed data.
//
// Every store call that changes data runs in one transaction. Use `transaction()` to group many calls,
// of one store or several, into one; nested calls then join the outer transaction.
//
// Two writers: SQLite lets one connection write at a time. A transaction that finds another program
// writing (an import, an auto-label run) waits for it, up to busyWait(), and only then fails with code
// "busy". Failures keep their cause in the error code: "busy", "full" (disk full), "read-only", "io";
// a failed transaction changes nothing.

#include "common/expected.h"
#include "common/sqlite.h"
#include "project/box_store.h"
#include "project/class_store.h"
#include "project/frame_store.h"
#include "project/image_store.h"
#include "project/run_store.h"
#include "project/setting_store.h"
#include "project/taken_file_store.h"
#include "project/types.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

namespace osprey::project {

inline constexpr int kSchemaVersion = 3;
inline constexpr const char* kDatabaseFileName = "project.osprey";
/// How long a write waits for another program's write by default (a large import holds the database for
/// seconds to minutes): the one write wait of the project database, shared with the remote outbox.
inline constexpr std::chrono::milliseconds kDefaultBusyWait = sql::kDefaultWriteWait;

struct ProjectImpl;

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

    // ---- transactions ---------------------------------------------------------------------------
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

    /// Runs `PRAGMA integrity_check`; returns "ok" or the problems found.
    Expected<std::string> integrityCheck() const;

    // ---- stores: each lives as long as the Project ----------------------------------------------
    ClassStore& classes();
    const ClassStore& classes() const;
    ImageStore& images();
    const ImageStore& images() const;
    /// Video frames among the images, and their provenance.
    FrameStore& frames();
    const FrameStore& frames() const;
    /// The ledger of the files watched folders took.
    TakenFileStore& takenFiles();
    const TakenFileStore& takenFiles() const;
    BoxStore& boxes();
    const BoxStore& boxes() const;
    RunStore& runs();
    const RunStore& runs() const;
    SettingStore& settings();
    const SettingStore& settings() const;

private:
    explicit Project(std::unique_ptr<ProjectImpl> impl);
    std::unique_ptr<ProjectImpl> m_impl;
};

} // namespace osprey::project
