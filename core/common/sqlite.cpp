#include "common/sqlite.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstdio>

namespace osprey::sql {

Connection::~Connection() {
    if (m_db)
        sqlite3_close_v2(m_db);
}

namespace {

/// `path` as a file: URI with the immutable parameter (RFC 3986 escapes for what a URI path cannot hold).
std::string immutableUri(const std::string& path) {
    static const char* kHex = "0123456789ABCDEF";
    std::string uri = "file:";
    for (const char c : path) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte == '%' || byte == '?' || byte == '#' || byte < 0x21 || byte >= 0x7f) {
            uri += '%';
            uri += kHex[byte >> 4];
            uri += kHex[byte & 15];
        } else {
            uri += c;
        }
    }
    return uri + "?immutable=1";
}

} // namespace

Status Connection::open(const std::string& path, const OpenOptions& options) {
    int flags = (options.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) |
                (options.threading == Threading::Serialized ? SQLITE_OPEN_FULLMUTEX : SQLITE_OPEN_NOMUTEX);
    if (options.create && !options.readOnly)
        flags |= SQLITE_OPEN_CREATE;
    const bool uri = options.readOnly && options.immutable;
    if (uri)
        flags |= SQLITE_OPEN_URI;
    const int rc = sqlite3_open_v2(uri ? immutableUri(path).c_str() : path.c_str(), &m_db, flags, nullptr);
    if (rc != SQLITE_OK) {
        const std::string message = m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc);
        if (m_db) {
            sqlite3_close_v2(m_db);
            m_db = nullptr;
        }
        return fail(message, rc == SQLITE_CANTOPEN ? "missing" : "corrupt");
    }
    sqlite3_extended_result_codes(m_db, 0);
    if (options.busyTimeoutMs > 0)
        sqlite3_busy_timeout(m_db, options.busyTimeoutMs);
    return {};
}

void Connection::setBusyTimeout(int milliseconds) {
    sqlite3_busy_timeout(m_db, milliseconds);
}

std::int64_t Connection::lastInsertRowid() const {
    return m_db ? sqlite3_last_insert_rowid(m_db) : 0;
}

Status Connection::exec(std::string_view sql) {
    char* message = nullptr;
    const int rc = sqlite3_exec(m_db, std::string(sql).c_str(), nullptr, nullptr, &message);
    if (rc != SQLITE_OK) {
        std::string text = message ? message : sqlite3_errstr(rc);
        sqlite3_free(message);
        return fail(text, std::to_string(rc));
    }
    return {};
}

namespace {
std::string secondsText(std::chrono::milliseconds duration) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f s", static_cast<double>(duration.count()) / 1000.0);
    return text;
}
} // namespace

Status beginImmediate(Connection& connection, const WriteWait& wait) {
    using namespace std::chrono;
    constexpr milliseconds kSlice{250};
    const auto start = steady_clock::now();
    for (;;) {
        const auto waited = duration_cast<milliseconds>(steady_clock::now() - start);
        connection.setBusyTimeout(
            static_cast<int>(std::clamp(wait.wait - waited, milliseconds{1}, kSlice).count()));
        auto begun = connection.exec("BEGIN IMMEDIATE");
        connection.setBusyTimeout(kReadBusyTimeoutMs);
        if (begun)
            return {};
        const std::string& code = begun.error().code;
        if (code != std::to_string(SQLITE_BUSY) && code != std::to_string(SQLITE_LOCKED))
            return begun;
        const auto total = duration_cast<milliseconds>(steady_clock::now() - start);
        if (total >= wait.wait)
            return fail("another program has been writing to the project for " + secondsText(total) +
                            " (an import or auto-label run?); nothing was changed. Try again when it has "
                            "finished.",
                        "busy");
        if (wait.observer)
            wait.observer(total);
    }
}

std::string Connection::lastError() const {
    return m_db ? sqlite3_errmsg(m_db) : "no database";
}
int Connection::lastErrorCode() const {
    return m_db ? sqlite3_errcode(m_db) : SQLITE_MISUSE;
}

Statement::Statement(Connection& connection, std::string_view sql) : m_db(connection.handle()) {
    const int rc = sqlite3_prepare_v2(m_db, sql.data(), static_cast<int>(sql.size()), &m_stmt, nullptr);
    if (rc != SQLITE_OK) {
        m_prepareError = m_error = sqlite3_errmsg(m_db);
        m_errorCode = rc;
        m_stmt = nullptr;
    }
}

Statement::~Statement() {
    if (m_stmt)
        sqlite3_finalize(m_stmt);
}

Statement& Statement::bind(int index, std::int64_t value) {
    sqlite3_bind_int64(m_stmt, index, value);
    return *this;
}
Statement& Statement::bind(int index, double value) {
    sqlite3_bind_double(m_stmt, index, value);
    return *this;
}
Statement& Statement::bind(int index, std::string_view value) {
    sqlite3_bind_text(m_stmt, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
    return *this;
}
Statement& Statement::bindStatic(int index, std::string_view value) {
    sqlite3_bind_text(m_stmt, index, value.data(), static_cast<int>(value.size()), SQLITE_STATIC);
    return *this;
}
Statement& Statement::bind(int index, const std::optional<double>& value) {
    if (value)
        return bind(index, *value);
    return bindNull(index);
}
Statement& Statement::bindNull(int index) {
    sqlite3_bind_null(m_stmt, index);
    return *this;
}

bool Statement::step() {
    if (!m_stmt) {
        m_error = m_prepareError;
        m_errorCode = SQLITE_MISUSE;
        return false;
    }
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc != SQLITE_DONE) {
        m_error = sqlite3_errmsg(m_db);
        m_errorCode = rc;
    }
    return false;
}

Status Statement::run() {
    if (!m_stmt)
        return fail(m_prepareError.empty() ? "statement not prepared" : m_prepareError,
                    std::to_string(SQLITE_MISUSE));
    m_error.clear();
    m_errorCode = SQLITE_OK;
    while (step()) {
    }
    const bool failed = !m_error.empty();
    sqlite3_reset(m_stmt);
    if (failed)
        return fail(m_error, std::to_string(m_errorCode));
    return {};
}

Statement& Statement::reset() {
    if (m_stmt) {
        sqlite3_reset(m_stmt);
        sqlite3_clear_bindings(m_stmt);
    }
    m_error.clear();
    m_errorCode = SQLITE_OK;
    return *this;
}

std::int64_t Statement::integer(int column) const {
    return sqlite3_column_int64(m_stmt, column);
}
double Statement::real(int column) const {
    return sqlite3_column_double(m_stmt, column);
}
std::optional<double> Statement::optionalReal(int column) const {
    if (sqlite3_column_type(m_stmt, column) == SQLITE_NULL)
        return std::nullopt;
    return sqlite3_column_double(m_stmt, column);
}
std::optional<std::int64_t> Statement::optionalInteger(int column) const {
    if (sqlite3_column_type(m_stmt, column) == SQLITE_NULL)
        return std::nullopt;
    return sqlite3_column_int64(m_stmt, column);
}
std::string Statement::text(int column) const {
    const auto* data = sqlite3_column_text(m_stmt, column);
    return data ? std::string(reinterpret_cast<const char*>(data),
                              static_cast<size_t>(sqlite3_column_bytes(m_stmt, column)))
                : std::string();
}

} // namespace osprey::sql
