#include "remote/outbox.h"

#include "common/sqlite.h"

#include <chrono>
#include <random>

namespace osprey::remote {
namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS remote_runs(
    run_uid TEXT PRIMARY KEY,
    project TEXT NOT NULL,
    name TEXT NOT NULL,
    base_url TEXT NOT NULL,
    local_run TEXT NOT NULL DEFAULT '',
    model_id TEXT NOT NULL DEFAULT '',
    remote_run_id TEXT NOT NULL DEFAULT '',
    model_slug TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT 'active' CHECK(state IN ('active', 'unauthorized', 'closed')),
    cancelled INTEGER NOT NULL DEFAULT 0,
    last_error TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    service TEXT NOT NULL DEFAULT 'platform');
CREATE TABLE IF NOT EXISTS remote_outbox(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_uid TEXT NOT NULL,
    lane TEXT NOT NULL CHECK(lane IN ('event', 'upload')),
    event TEXT NOT NULL,
    data TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending' CHECK(state IN ('pending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    http_status INTEGER NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT '',
    result TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    sent_at REAL);
CREATE INDEX IF NOT EXISTS remote_outbox_queue ON remote_outbox(run_uid, lane, state, id);
)sql";

double nowS() {
    using namespace std::chrono;
    return duration<double>(system_clock::now().time_since_epoch()).count();
}

const char* laneName(Lane lane) {
    return lane == Lane::Event ? "event" : "upload";
}

RunState runStateFrom(const std::string& text) {
    if (text == "unauthorized")
        return RunState::Unauthorized;
    if (text == "closed")
        return RunState::Closed;
    return RunState::Active;
}

using Stmt = sql::Statement;

constexpr const char* kRowColumns =
    "id, run_uid, lane, event, data, attempts, http_status, error, result, created_at FROM remote_outbox";

OutboxRow readRow(const Stmt& s) {
    OutboxRow row;
    row.id = s.integer(0);
    row.runUid = s.text(1);
    row.lane = s.text(2) == "upload" ? Lane::Upload : Lane::Event;
    row.event = s.text(3);
    row.dataJson = s.text(4);
    row.attempts = static_cast<int>(s.integer(5));
    row.httpStatus = static_cast<int>(s.integer(6));
    row.error = s.text(7);
    row.resultJson = s.text(8);
    row.createdAt = s.real(9);
    return row;
}

constexpr const char* kRunColumns =
    "run_uid, project, name, base_url, local_run, model_id, remote_run_id, "
    "model_slug, state, cancelled, last_error, created_at, service FROM remote_runs";

RemoteRun readRun(const Stmt& s) {
    RemoteRun run;
    run.runUid = s.text(0);
    run.project = s.text(1);
    run.name = s.text(2);
    run.baseUrl = s.text(3);
    run.localRun = s.text(4);
    run.modelId = s.text(5);
    run.remoteRunId = s.text(6);
    run.modelSlug = s.text(7);
    run.state = runStateFrom(s.text(8));
    run.cancelled = s.integer(9) != 0;
    run.lastError = s.text(10);
    run.createdAt = s.real(11);
    run.service = s.text(12) == "mlflow" ? Service::Mlflow : Service::Platform;
    return run;
}

} // namespace

const char* toString(Service service) {
    return service == Service::Mlflow ? "mlflow" : "platform";
}

const char* toString(RunState state) {
    switch (state) {
    case RunState::Active:
        return "active";
    case RunState::Unauthorized:
        return "unauthorized";
    case RunState::Closed:
        return "closed";
    }
    return "active";
}

struct Outbox::Impl {
    sql::Connection db;
    std::filesystem::path path;
    std::unique_ptr<Stmt> insert; // cached: the producer's hot path
    sql::WriteWait writeWait;
    int transactionDepth = 0;

    /// Runs `body` in one IMMEDIATE transaction (joining an open one). BEGIN waits for another program's
    /// write like every write to the project (sql::beginImmediate): an import or auto-label run in
    /// another process holding the database makes the outbox wait, never drop or fail an event.
    Status write(const std::function<Status()>& body) {
        if (transactionDepth > 0)
            return body();
        if (auto begun = sql::beginImmediate(db, writeWait); !begun)
            return fail(path.string() + ": " + begun.message(), begun.error().code);
        ++transactionDepth;
        Status result = body();
        --transactionDepth;
        if (result) {
            if (auto committed = exec("COMMIT"); committed)
                return {};
            else
                result = committed;
        }
        (void)db.exec("ROLLBACK");
        return result;
    }

    Status exec(const std::string& sql) {
        if (auto status = db.exec(sql); !status)
            return fail(path.string() + ": " + status.message(), "sqlite");
        return {};
    }
    Unexpected error(const Stmt& s, const char* what) const {
        return fail(path.string() + ": " + what + ": " + s.error(), "sqlite");
    }
    Status run(Stmt& s, const char* what) {
        if (auto status = s.run(); !status)
            return fail(path.string() + ": " + what + ": " + status.message(), "sqlite");
        return {};
    }
};

Outbox::Outbox(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
Outbox::~Outbox() = default;

Expected<std::unique_ptr<Outbox>> Outbox::open(const std::filesystem::path& projectFolder) {
    auto impl = std::make_unique<Impl>();
    impl->path = projectFolder / "project.osprey";
    std::error_code ec;
    if (!std::filesystem::exists(impl->path, ec))
        return fail(impl->path.string() + ": no project database here; create the project first", "missing");
    // The producer (training thread) and the sender threads share this connection: SQLite serialises them.
    if (auto opened = impl->db.open(impl->path.string(), {.threading = sql::Threading::Serialized,
                                                          .busyTimeoutMs = sql::kReadBusyTimeoutMs});
        !opened)
        return fail(impl->path.string() + ": cannot open: " + opened.message());
    // NORMAL in WAL mode survives a killed process; only a power cut can lose the newest commits.
    if (auto s = impl->exec("PRAGMA synchronous = NORMAL;"); !s)
        return fail(s.error());
    // Creating the tables is a write; once they exist (every open but the first) none is needed, so
    // opening does not wait for another program's write.
    Stmt tables(impl->db, "SELECT COUNT(*) FROM sqlite_master WHERE name IN ('remote_runs', "
                          "'remote_outbox', 'remote_outbox_queue')");
    if (!tables.step())
        return impl->error(tables, "cannot read the schema");
    if (tables.integer(0) < 3)
        if (auto s = impl->write([&] { return impl->exec(kSchema); }); !s)
            return fail(s.error());
    // Databases from before MLflow tracking have no `service` column: every run there is a platform run.
    Stmt service(impl->db, "SELECT COUNT(*) FROM pragma_table_info('remote_runs') WHERE name = 'service'");
    if (!service.step())
        return impl->error(service, "cannot read the schema");
    if (service.integer(0) == 0)
        if (auto s = impl->write([&] {
                return impl->exec(
                    "ALTER TABLE remote_runs ADD COLUMN service TEXT NOT NULL DEFAULT 'platform'");
            });
            !s)
            return fail(s.error());
    impl->insert = std::make_unique<Stmt>(
        impl->db, "INSERT INTO remote_outbox(run_uid, lane, event, data, created_at) VALUES (?, ?, ?, ?, ?)");
    if (!impl->insert->ok())
        return fail(impl->path.string() + ": " + impl->insert->prepareError());
    return std::unique_ptr<Outbox>(new Outbox(std::move(impl)));
}

Expected<std::string> Outbox::createRun(const std::string& project, const std::string& name,
                                        const std::string& baseUrl, const std::string& localRun,
                                        Service service) {
    std::random_device device;
    std::mt19937_64 random((std::uint64_t(device()) << 32) ^ device() ^
                           std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()));
    char uid[17];
    std::snprintf(uid, sizeof uid, "%016llx", static_cast<unsigned long long>(random()));
    Stmt s(m_impl->db, "INSERT INTO remote_runs(run_uid, project, name, base_url, local_run, created_at, "
                       "service) VALUES (?, ?, ?, ?, ?, ?, ?)");
    s.bind(1, std::string(uid))
        .bind(2, project)
        .bind(3, name)
        .bind(4, baseUrl)
        .bind(5, localRun)
        .bind(6, nowS())
        .bind(7, std::string(toString(service)));
    if (auto r = m_impl->write([&] { return m_impl->run(s, "cannot register the run"); }); !r)
        return fail(r.error());
    return std::string(uid);
}

Expected<std::optional<RemoteRun>> Outbox::run(const std::string& runUid) {
    Stmt s(m_impl->db, std::string("SELECT ") + kRunColumns + " WHERE run_uid = ?");
    s.bind(1, runUid);
    if (s.step())
        return std::optional<RemoteRun>(readRun(s));
    if (!s.error().empty())
        return m_impl->error(s, "cannot read the run");
    return std::optional<RemoteRun>();
}

Expected<std::vector<RemoteRun>> Outbox::runs() {
    Stmt s(m_impl->db, std::string("SELECT ") + kRunColumns + " ORDER BY created_at, rowid");
    std::vector<RemoteRun> out;
    while (s.step())
        out.push_back(readRun(s));
    if (!s.error().empty())
        return m_impl->error(s, "cannot list the runs");
    return out;
}

Status Outbox::setRunIds(const std::string& runUid, const std::string& modelId,
                         const std::string& remoteRunId, const std::string& modelSlug) {
    Stmt s(m_impl->db,
           "UPDATE remote_runs SET model_id = ?, remote_run_id = ?, model_slug = ? WHERE run_uid = ?");
    s.bind(1, modelId).bind(2, remoteRunId).bind(3, modelSlug).bind(4, runUid);
    return m_impl->write([&] { return m_impl->run(s, "cannot store the run ids"); });
}

Status Outbox::setRunState(const std::string& runUid, RunState state, const std::string& lastError) {
    Stmt s(m_impl->db, "UPDATE remote_runs SET state = ?, last_error = ? WHERE run_uid = ?");
    s.bind(1, std::string(toString(state))).bind(2, lastError).bind(3, runUid);
    return m_impl->write([&] { return m_impl->run(s, "cannot store the run state"); });
}

Status Outbox::setCancelled(const std::string& runUid) {
    Stmt s(m_impl->db, "UPDATE remote_runs SET cancelled = 1 WHERE run_uid = ?");
    s.bind(1, runUid);
    return m_impl->write([&] { return m_impl->run(s, "cannot store the cancellation"); });
}

Status Outbox::setLastError(const std::string& runUid, const std::string& lastError) {
    Stmt s(m_impl->db, "UPDATE remote_runs SET last_error = ? WHERE run_uid = ?");
    s.bind(1, lastError).bind(2, runUid);
    return m_impl->write([&] { return m_impl->run(s, "cannot store the last error"); });
}

Expected<std::int64_t> Outbox::enqueue(const std::string& runUid, Lane lane, const std::string& event,
                                       const std::string& dataJson) {
    auto& s = m_impl->insert->reset();
    s.bind(1, runUid).bind(2, std::string(laneName(lane))).bind(3, event).bind(4, dataJson).bind(5, nowS());
    std::int64_t id = 0;
    auto status = m_impl->write([&]() -> Status {
        auto inserted = m_impl->run(s, "cannot queue the event");
        id = m_impl->db.lastInsertRowid();
        return inserted;
    });
    s.reset();
    if (!status)
        return fail(status.error());
    return id;
}

Expected<std::vector<OutboxRow>> Outbox::pending(const std::string& runUid, Lane lane, int limit) {
    Stmt s(m_impl->db, std::string("SELECT ") + kRowColumns +
                           " WHERE run_uid = ? AND lane = ? AND state = 'pending' ORDER BY id LIMIT ?");
    s.bind(1, runUid).bind(2, std::string(laneName(lane))).bind(3, std::int64_t(limit));
    std::vector<OutboxRow> out;
    while (s.step())
        out.push_back(readRow(s));
    if (!s.error().empty())
        return m_impl->error(s, "cannot read the queue");
    return out;
}

Expected<std::optional<OutboxRow>> Outbox::row(std::int64_t id) {
    Stmt s(m_impl->db, std::string("SELECT ") + kRowColumns + " WHERE id = ?");
    s.bind(1, id);
    if (s.step())
        return std::optional<OutboxRow>(readRow(s));
    if (!s.error().empty())
        return m_impl->error(s, "cannot read the queue");
    return std::optional<OutboxRow>();
}

Expected<bool> Outbox::hasPendingBefore(const std::string& runUid, Lane lane, std::int64_t id) {
    Stmt s(m_impl->db, "SELECT 1 FROM remote_outbox WHERE run_uid = ? AND lane = ? AND state = 'pending' "
                       "AND id < ? LIMIT 1");
    s.bind(1, runUid).bind(2, std::string(laneName(lane))).bind(3, id);
    const bool found = s.step();
    if (!s.error().empty())
        return m_impl->error(s, "cannot read the queue");
    return found;
}

Status Outbox::markSent(std::int64_t id, const std::string& resultJson) {
    Stmt s(m_impl->db, "UPDATE remote_outbox SET state = 'sent', result = ?, sent_at = ?, attempts = "
                       "attempts + 1, http_status = 200, error = '' WHERE id = ?");
    s.bind(1, resultJson).bind(2, nowS()).bind(3, id);
    return m_impl->write([&] { return m_impl->run(s, "cannot mark the event sent"); });
}

Status Outbox::markFailed(std::int64_t id, int httpStatus, const std::string& error) {
    Stmt s(m_impl->db, "UPDATE remote_outbox SET state = 'failed', http_status = ?, error = ?, attempts = "
                       "attempts + 1 WHERE id = ?");
    s.bind(1, std::int64_t(httpStatus)).bind(2, error).bind(3, id);
    return m_impl->write([&] { return m_impl->run(s, "cannot mark the event failed"); });
}

Status Outbox::noteAttempt(std::int64_t id, int httpStatus, const std::string& error) {
    Stmt s(m_impl->db,
           "UPDATE remote_outbox SET attempts = attempts + 1, http_status = ?, error = ? WHERE id = ?");
    s.bind(1, std::int64_t(httpStatus)).bind(2, error).bind(3, id);
    return m_impl->write([&] { return m_impl->run(s, "cannot count the attempt"); });
}

Status Outbox::merge(std::int64_t headId, const std::string& event, const std::string& dataJson,
                     const std::vector<std::int64_t>& mergedIds) {
    return transaction([&]() -> Status {
        Stmt update(m_impl->db, "UPDATE remote_outbox SET event = ?, data = ? WHERE id = ?");
        update.bind(1, event).bind(2, dataJson).bind(3, headId);
        if (auto r = m_impl->run(update, "cannot merge console lines"); !r)
            return r;
        Stmt erase(m_impl->db, "DELETE FROM remote_outbox WHERE id = ?");
        for (auto id : mergedIds) {
            erase.reset().bind(1, id);
            if (auto r = m_impl->run(erase, "cannot merge console lines"); !r)
                return r;
        }
        return {};
    });
}

Status Outbox::remove(std::int64_t id) {
    Stmt s(m_impl->db, "DELETE FROM remote_outbox WHERE id = ? AND state = 'pending'");
    s.bind(1, id);
    return m_impl->write([&] { return m_impl->run(s, "cannot delete the row"); });
}

Expected<std::int64_t> Outbox::countEvents(const std::string& runUid, const std::string& event) {
    Stmt s(m_impl->db, "SELECT COUNT(*) FROM remote_outbox WHERE run_uid = ? AND event = ?");
    s.bind(1, runUid).bind(2, event);
    if (!s.step())
        return m_impl->error(s, "cannot count events");
    return s.integer(0);
}

Expected<OutboxCounts> Outbox::counts(const std::string& runUid) {
    Stmt s(m_impl->db, runUid.empty()
                           ? "SELECT state, COUNT(*) FROM remote_outbox GROUP BY state"
                           : "SELECT state, COUNT(*) FROM remote_outbox WHERE run_uid = ? GROUP BY state");
    if (!runUid.empty())
        s.bind(1, runUid);
    OutboxCounts counts;
    while (s.step()) {
        const auto state = s.text(0);
        (state == "pending" ? counts.pending : state == "sent" ? counts.sent : counts.failed) = s.integer(1);
    }
    if (!s.error().empty())
        return m_impl->error(s, "cannot count the queue");
    return counts;
}

Expected<std::vector<OutboxRow>> Outbox::failed(const std::string& runUid, int limit) {
    const std::string sql = std::string("SELECT ") + kRowColumns + " WHERE state = 'failed'" +
                            (runUid.empty() ? "" : " AND run_uid = ?") + " ORDER BY id DESC LIMIT " +
                            std::to_string(limit);
    Stmt s(m_impl->db, sql);
    if (!runUid.empty())
        s.bind(1, runUid);
    std::vector<OutboxRow> out;
    while (s.step())
        out.push_back(readRow(s));
    if (!s.error().empty())
        return m_impl->error(s, "cannot read failed events");
    return out;
}

Status Outbox::transaction(const std::function<Status()>& body) {
    return m_impl->write(body);
}

void Outbox::setWriteWait(std::chrono::milliseconds wait) {
    m_impl->writeWait.wait = wait;
}

} // namespace osprey::remote
