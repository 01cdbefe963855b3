#pragma once
// Private: thin RAII wrappers over the sqlite3 C API, used by core/project (and core modules that keep
// their own tables in the project database, such as the remote outbox). Not thread-safe.

#include "common/expected.h"

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace osprey::project::sql {

/// Owns one sqlite3 connection.
class Connection {
public:
    Connection() = default;
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    /// Opens `path`. `create` allows creating the file.
    Status open(const std::string& path, bool create);
    sqlite3* handle() const { return m_db; }
    /// Runs one or more statements without results.
    Status exec(std::string_view sql);
    std::string lastError() const;
    int lastErrorCode() const;

private:
    sqlite3* m_db = nullptr;
};

/// One prepared statement; reset and rebound for each use.
class Statement {
public:
    Statement(Connection& connection, std::string_view sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    bool ok() const { return m_stmt != nullptr; }
    const std::string& prepareError() const { return m_error; }

    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view value);
    /// Binds text without copying it: only for text that outlives the statement (string literals).
    Statement& bindStatic(int index, std::string_view value);
    Statement& bind(int index, const std::optional<double>& value);
    Statement& bindNull(int index);

    /// Steps once: true when a row is available, false when done. Errors set `error()`.
    bool step();
    /// Steps to completion (for statements without rows). Returns success.
    Status run();
    void reset();
    const std::string& error() const { return m_error; }
    int errorCode() const { return m_errorCode; }

    std::int64_t integer(int column) const;
    double real(int column) const;
    std::optional<double> optionalReal(int column) const;
    std::optional<std::int64_t> optionalInteger(int column) const;
    std::string text(int column) const;

private:
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_stmt = nullptr;
    std::string m_error;
    int m_errorCode = SQLITE_OK;
};

} // namespace osprey::project::sql
