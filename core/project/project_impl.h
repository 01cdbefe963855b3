#pragma once
// Private: the state behind Project, shared by the project_*.cpp files.

#include "common/sqlite.h"
#include "project/project.h"

#include <sqlite3.h>

#include <memory>
#include <string>

namespace osprey::project {

struct Project::Impl {
    std::filesystem::path folder;
    sql::Connection db;
    int transactionDepth = 0;

    /// Runs `body` inside BEGIN IMMEDIATE ... COMMIT, or a SAVEPOINT when already inside a transaction.
    Status inTransaction(const std::function<Status()>& body);
    /// Re-derives new/labeled from the box count after boxes of `imageId` changed.
    Status refreshStatus(std::int64_t imageId);
};

/// "where" for a database failure: the database path and SQLite's message.
Unexpected dbError(const Project::Impl& impl, const std::string& what, const std::string& detail);

std::int64_t nowSeconds();

/// Applies migrations up to kSchemaVersion. Exposed for the migration test.
Status migrate(sql::Connection& db, const std::string& pathForErrors);

} // namespace osprey::project
