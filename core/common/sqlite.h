#pragma once
// The one SQLite wrapper of Osprey: thin RAII types over the sqlite3 C API, used by core/project and by
// the modules that keep their own tables in the project database (the remote outbox). The header needs
// no sqlite3.h; code that calls the C API on handle() includes it and links SQLite itself.
//
// Thread affinity: a Connection opened with Threading::OneThread (the project's) and its Statements are
// used by one thread at a time; Threading::Serialized lets SQLite serialise calls from several threads
// (the outbox's producer and senders). A Statement is always used by one thread at a time.

#include "common/expected.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace osprey::sql {

/// SQLite's threading mode for one connection.
enum class Threading {
    OneThread,  ///< SQLITE_OPEN_NOMUTEX: the caller keeps the connection on one thread at a time
    Serialized, ///< SQLITE_OPEN_FULLMUTEX: any thread, calls serialised by SQLite
};

struct OpenOptions {
    bool create = false; ///< create the file when it does not exist
    Threading threading = Threading::OneThread;
    int busyTimeoutMs = 0; ///< wait this long for another connection's lock (0: fail at once)
    bool readOnly = false; ///< SQLITE_OPEN_READONLY: every write fails with SQLITE_READONLY
    /// With readOnly: the file cannot change while open (a read-only folder), so SQLite takes no locks and
    /// needs no -wal/-shm files (which a read-only folder cannot hold).
    bool immutable = false;
};

// ---- two writers: the one busy handling of the project database --------------------------------------
// SQLite lets one connection write at a time. Every write to the project database (core/project, the
// remote outbox) starts with beginImmediate(), which waits for another program's write (an import, an
// auto-label run holds the database for seconds to minutes) up to the write wait, and only then fails
// with code "busy". Reads wait kReadBusyTimeoutMs (in WAL mode they rarely wait at all).

/// How long a write waits for another connection's write by default.
inline constexpr std::chrono::milliseconds kDefaultWriteWait{10 * 60 * 1000};
/// The busy timeout of reads (and of the statements inside a transaction that holds the write lock).
inline constexpr int kReadBusyTimeoutMs = 5000;

/// How beginImmediate() waits.
struct WriteWait {
    std::chrono::milliseconds wait = kDefaultWriteWait;
    /// Called about every 250 ms while it waits, with the time waited so far. Empty: no calls.
    std::function<void(std::chrono::milliseconds waited)> observer;
};

class Connection;

/// BEGIN IMMEDIATE, waiting for another connection's write as described above (the wait is a loop of
/// short busy timeouts, so that the observer hears about it while it lasts); the connection's busy timeout
/// is kReadBusyTimeoutMs afterwards. Fails with code "busy" and the sentence "another program has been
/// writing to the project for N.N s (...); nothing was changed. ..." when the wait ran out, else with
/// SQLite's error (its numeric code).
Status beginImmediate(Connection& connection, const WriteWait& wait = {});

/// Owns one sqlite3 connection.
class Connection {
public:
    Connection() = default;
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    /// Opens `path`. The error's code is "missing" when the file cannot be opened, else "corrupt".
    /// SQLite's other error codes keep their meaning for the caller through lastErrorCode().
    Status open(const std::string& path, const OpenOptions& options = {});
    bool isOpen() const { return m_db != nullptr; }
    sqlite3* handle() const { return m_db; }
    void setBusyTimeout(int milliseconds);
    std::int64_t lastInsertRowid() const;
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
    const std::string& prepareError() const { return m_prepareError; }

    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view value);
    /// Binds text without copying it: only for text that outlives the statement (string literals).
    Statement& bindStatic(int index, std::string_view value);
    Statement& bind(int index, const std::optional<double>& value);
    Statement& bindNull(int index);

    /// Steps once: true when a row is available, false when done. Errors (a statement that failed to
    /// prepare included) set `error()`.
    bool step();
    /// Steps to completion (for statements without rows). Returns success.
    Status run();
    /// Ready for the next use: rewound, bindings cleared, error cleared.
    Statement& reset();
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
    std::string m_prepareError;
    std::string m_error;
    int m_errorCode = 0;
};

} // namespace osprey::sql
