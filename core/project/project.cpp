#include "project/project_impl.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <system_error>
#include <tuple>
#include <unistd.h>

namespace osprey::project {

namespace fs = std::filesystem;

std::int64_t nowSeconds() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

Unexpected dbError(const ProjectImpl& impl, const std::string& what, const std::string& detail) {
    return fail((impl.folder / kDatabaseFileName).string() + ": " + what + ": " + detail);
}

namespace {

/// The code and the sentence for a write that failed for a reason the user can act on; empty otherwise.
std::pair<std::string, std::string> writeCause(int sqliteCode) {
    switch (sqliteCode) {
    case SQLITE_FULL:
        return {"full",
                "the disk is full; nothing of this change was stored. Free some space and try again."};
    case SQLITE_READONLY:
        return {
            "read-only",
            "the project is read-only (its folder or database file cannot be written); nothing was changed"};
    case SQLITE_IOERR:
        return {"io", "the disk reported a write error; nothing of this change was stored. Check the disk "
                      "and try again."};
    default:
        return {};
    }
}

int numericCode(const std::string& code) {
    return !code.empty() && code.size() < 6 && code.find_first_not_of("0123456789") == std::string::npos
               ? std::stoi(code)
               : 0;
}

} // namespace

Unexpected ProjectImpl::writeError(const std::string& what, const Error& detail) const {
    auto [code, sentence] = writeCause(numericCode(detail.code));
    if (code.empty())
        std::tie(code, sentence) = writeCause(db.lastErrorCode());
    const std::string where = (folder / kDatabaseFileName).string() + ": " + what + ": ";
    if (code.empty())
        return fail(where + detail.message, detail.code);
    return fail(where + sentence + " (" + detail.message + ")", code);
}

Status ProjectImpl::begin() {
    auto begun = sql::beginImmediate(db, {busyWait, busyObserver});
    if (begun)
        return {};
    if (begun.error().code == "busy")
        return fail((folder / kDatabaseFileName).string() + ": " + begun.message(), "busy");
    return writeError("cannot start a transaction", begun.error());
}

Status ProjectImpl::inTransaction(const std::function<Status()>& body) {
    // A read transaction's snapshot cannot become a write (SQLite would answer "busy" until busyWait ends).
    if (reading)
        return fail((folder / kDatabaseFileName).string() + ": cannot write inside a read transaction",
                    "misuse");
    const bool outer = transactionDepth == 0;
    const std::string savepoint = "sp" + std::to_string(transactionDepth);
    if (outer) {
        if (auto begun = begin(); !begun)
            return begun;
    } else if (auto begun = db.exec("SAVEPOINT " + savepoint); !begun) {
        return writeError("cannot start a transaction", begun.error());
    }
    ++transactionDepth;
    Status result = body();
    --transactionDepth;
    if (result) {
        if (auto committed = db.exec(outer ? "COMMIT" : "RELEASE " + savepoint); !committed) {
            auto error = writeError("cannot commit", committed.error());
            (void)db.exec(outer ? "ROLLBACK" : "ROLLBACK TO " + savepoint + "; RELEASE " + savepoint);
            return error;
        }
        return {};
    }
    // A statement that hit a full disk (or a read-only file) in the body says so in its result code; the
    // body's own message names the item, the code says why.
    Status failed = result;
    if (const auto [code, sentence] = writeCause(db.lastErrorCode()); !code.empty())
        failed = fail(result.message() + ": " + sentence, code);
    (void)db.exec(outer ? "ROLLBACK" : "ROLLBACK TO " + savepoint + "; RELEASE " + savepoint);
    return failed;
}

Status ProjectImpl::refreshStatus(std::int64_t imageId) {
    // Boxes make a new or verified-empty image labeled; losing the last box makes a labeled image new.
    sql::Statement update(
        db, "UPDATE images SET status = CASE "
            "WHEN (SELECT COUNT(*) FROM boxes WHERE image_id = images.id) > 0 "
            "  THEN CASE WHEN status IN ('new', 'verified_empty') THEN 'labeled' ELSE status END "
            "ELSE CASE WHEN status = 'labeled' THEN 'new' ELSE status END END "
            "WHERE id = ?");
    update.bind(1, imageId);
    return update.run();
}

Project::Project(std::unique_ptr<ProjectImpl> impl) : m_impl(std::move(impl)) {}
Project::~Project() = default;

namespace {

/// A folder or database file this process cannot write (permissions, a read-only mount).
bool cannotWrite(const fs::path& folder, const fs::path& file) {
    return ::access(folder.c_str(), W_OK) != 0 || ::access(file.c_str(), W_OK) != 0;
}

Unexpected notADatabase(const fs::path& file, const std::string& detail) {
    return fail(file.string() + ": the file is not a valid Osprey project database (" + detail +
                    "); it may be corrupt. Restore it from a backup.",
                "corrupt");
}

Expected<std::unique_ptr<ProjectImpl>> openConnection(const fs::path& folder, bool create) {
    auto impl = std::make_unique<ProjectImpl>();
    impl->folder = fs::absolute(folder).lexically_normal();
    const fs::path file = impl->folder / kDatabaseFileName;
    impl->readOnly = !create && cannotWrite(impl->folder, file);
    std::error_code ec;
    // A read-only folder cannot hold the -wal and -shm files WAL mode needs. When none is left over (the
    // last writer closed cleanly) the file cannot change while we read it: open it immutable, without
    // locks. A left-over -wal holds committed data, so it is read through SQLite's read-only WAL support.
    const bool immutable = impl->readOnly && !fs::exists(file.string() + "-wal", ec);
    if (auto opened = impl->db.open(file.string(),
                                    {.create = create, .readOnly = impl->readOnly, .immutable = immutable});
        !opened)
        return fail(file.string() + ": cannot open the project database: " + opened.message(),
                    opened.error().code);
    impl->db.setBusyTimeout(sql::kReadBusyTimeoutMs);
    if (!impl->readOnly) {
        // journal_mode needs a read of the header, so a non-database file fails here with SQLITE_NOTADB.
        // A database already in WAL mode only reads here, so another program writing is no obstacle.
        sql::Statement wal(impl->db, "PRAGMA journal_mode = WAL");
        if (!wal.ok() || (!wal.step() && !wal.error().empty())) {
            const int code = wal.ok() ? wal.errorCode() : impl->db.lastErrorCode();
            const std::string detail = wal.ok() ? wal.error() : wal.prepareError();
            if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
                return fail(file.string() +
                                ": the project is locked by another program; close it there or wait",
                            "locked");
            return notADatabase(file, detail);
        }
        if (wal.text(0) != "wal")
            return fail(file.string() +
                            ": the project is locked by another program (cannot switch to WAL mode)",
                        "locked");
    }
    // NORMAL in WAL mode keeps every committed transaction across a process crash or kill -9.
    // A 64 MiB page cache keeps index updates of large imports in memory. temp_store stays at its default
    // (files): with MEMORY, every multi-row INSERT inside a savepoint truncates an in-memory statement
    // journal by walking it from the start, which made the insert of a train2017-sized import 3x slower.
    if (auto pragmas =
            impl->db.exec("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA cache_size = "
                          "-65536;");
        !pragmas)
        return fail(file.string() + ": " + pragmas.message(), "corrupt");
    // Another program writing to the project (an import, say) is no reason to refuse it: reads see the
    // last commit and writes wait for the other writer (ProjectImpl::begin).
    if (impl->readOnly) {
        sql::Statement version(impl->db, "PRAGMA user_version");
        if (!version.ok() || (!version.step() && !version.error().empty()))
            return notADatabase(file, version.ok() ? version.error() : version.prepareError());
        if (version.integer(0) < kSchemaVersion)
            return fail(file.string() + ": the project needs an upgrade to schema version " +
                            std::to_string(kSchemaVersion) +
                            ", but its folder is read-only; open it once where it can be written",
                        "read-only");
    }
    if (auto migrated = migrate(impl->db, file.string()); !migrated)
        return fail(migrated.error());
    sql::Statement check(impl->db, "SELECT COUNT(*) FROM classes");
    if (!check.ok())
        return fail(file.string() + ": the database is not an Osprey project (" + check.prepareError() + ")",
                    "corrupt");
    return impl;
}

} // namespace

Expected<std::unique_ptr<Project>> Project::create(const fs::path& folder) {
    std::error_code ec;
    if (fs::exists(folder / kDatabaseFileName, ec))
        return fail((folder / kDatabaseFileName).string() +
                        ": a project already exists here; open it instead",
                    "exists");
    fs::create_directories(folder, ec);
    if (ec)
        return fail(folder.string() + ": cannot create the project folder: " + ec.message());
    auto impl = openConnection(folder, true);
    if (!impl)
        return fail(impl.error());
    return std::unique_ptr<Project>(new Project(std::move(impl.value())));
}

Expected<std::unique_ptr<Project>> Project::open(const fs::path& folder) {
    std::error_code ec;
    const fs::path file = folder / kDatabaseFileName;
    if (!fs::exists(file, ec))
        return fail(file.string() +
                        ": no Osprey project here (project.osprey is missing); create one with "
                        "'osprey-cli new path=" +
                        folder.string() + "'",
                    "missing");
    auto impl = openConnection(folder, false);
    if (!impl)
        return fail(impl.error());
    return std::unique_ptr<Project>(new Project(std::move(impl.value())));
}

Expected<std::unique_ptr<Project>> Project::openOrCreate(const fs::path& folder) {
    std::error_code ec;
    return fs::exists(folder / kDatabaseFileName, ec) ? open(folder) : create(folder);
}

const fs::path& Project::folder() const {
    return m_impl->folder;
}
fs::path Project::databasePath() const {
    return m_impl->folder / kDatabaseFileName;
}

fs::path Project::resolve(const std::string& imagePath) const {
    const fs::path path(imagePath);
    return path.is_absolute() ? path : m_impl->folder / path;
}

int Project::schemaVersion() const {
    sql::Statement query(m_impl->db, "PRAGMA user_version");
    return query.step() ? static_cast<int>(query.integer(0)) : 0;
}

Status Project::transaction(const std::function<Status()>& body) {
    return m_impl->inTransaction(body);
}

Status Project::readTransaction(const std::function<Status()>& body) const {
    if (m_impl->transactionDepth > 0 || m_impl->reading)
        return body();
    // BEGIN DEFERRED takes no lock until the first read, which then holds one snapshot of the WAL until
    // COMMIT; inTransaction refuses a write inside.
    if (auto begun = m_impl->db.exec("BEGIN DEFERRED"); !begun)
        return dbError(*m_impl, "cannot start a read transaction", begun.message());
    m_impl->reading = true;
    Status result = body();
    m_impl->reading = false;
    if (auto ended = m_impl->db.exec(result ? "COMMIT" : "ROLLBACK"); !ended && result)
        return dbError(*m_impl, "cannot end a read transaction", ended.message());
    return result;
}

bool Project::readOnly() const {
    return m_impl->readOnly;
}
void Project::setBusyWait(std::chrono::milliseconds wait) {
    m_impl->busyWait = wait;
}
std::chrono::milliseconds Project::busyWait() const {
    return m_impl->busyWait;
}
void Project::setBusyObserver(std::function<void(std::chrono::milliseconds)> observer) {
    m_impl->busyObserver = std::move(observer);
}

Expected<std::string> Project::integrityCheck() const {
    sql::Statement query(m_impl->db, "PRAGMA integrity_check");
    std::string result;
    while (query.step()) {
        if (!result.empty())
            result += '\n';
        result += query.text(0);
    }
    if (!query.error().empty())
        return dbError(*m_impl, "integrity check failed", query.error());
    return result;
}

ClassStore& Project::classes() {
    return m_impl->classes;
}
const ClassStore& Project::classes() const {
    return m_impl->classes;
}
ImageStore& Project::images() {
    return m_impl->images;
}
const ImageStore& Project::images() const {
    return m_impl->images;
}
FrameStore& Project::frames() {
    return m_impl->frames;
}
const FrameStore& Project::frames() const {
    return m_impl->frames;
}
TakenFileStore& Project::takenFiles() {
    return m_impl->takenFiles;
}
const TakenFileStore& Project::takenFiles() const {
    return m_impl->takenFiles;
}
BoxStore& Project::boxes() {
    return m_impl->boxes;
}
const BoxStore& Project::boxes() const {
    return m_impl->boxes;
}
RunStore& Project::runs() {
    return m_impl->runs;
}
const RunStore& Project::runs() const {
    return m_impl->runs;
}
SettingStore& Project::settings() {
    return m_impl->settings;
}
const SettingStore& Project::settings() const {
    return m_impl->settings;
}

} // namespace osprey::project
