#pragma once
// Private to core/project: ProjectImpl, the state behind Project (the connection, its transaction depth
// and write wait) and the stores over it, shared by project.cpp and the *_store.cpp files.

#include "common/sqlite.h"
#include "project/project.h"

#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>

namespace osprey::project {

struct ProjectImpl {
    std::filesystem::path folder;
    sql::Connection db;
    int transactionDepth = 0;
    bool reading = false; ///< inside readTransaction()
    bool readOnly = false;
    std::chrono::milliseconds busyWait = kDefaultBusyWait;
    std::function<void(std::chrono::milliseconds)> busyObserver;

    ClassStore classes{*this};
    ImageStore images{*this};
    FrameStore frames{*this};
    TakenFileStore takenFiles{*this};
    BoxStore boxes{*this};
    RunStore runs{*this};
    SettingStore settings{*this};

    /// Runs `body` inside BEGIN IMMEDIATE ... COMMIT, or a SAVEPOINT when already inside a transaction.
    /// BEGIN waits for another writer up to `busyWait`, telling `busyObserver`.
    Status inTransaction(const std::function<Status()>& body);
    /// BEGIN IMMEDIATE, retried while another connection writes.
    Status begin();
    /// The error of a failed write: `what` and SQLite's `detail`, with the cause in the code ("full",
    /// "read-only", "io", "busy") when the connection's last result code says so.
    Unexpected writeError(const std::string& what, const Error& detail) const;
    /// Re-derives new/labeled from the box count after boxes of `imageId` changed.
    Status refreshStatus(std::int64_t imageId);
};

/// "where" for a database failure: the database path and SQLite's message.
Unexpected dbError(const ProjectImpl& impl, const std::string& what, const std::string& detail);

std::int64_t nowSeconds();

/// Applies migrations up to kSchemaVersion. Exposed for the migration test.
Status migrate(sql::Connection& db, const std::string& pathForErrors);

} // namespace osprey::project
