#include "project/project_impl.h"

#include <algorithm>
#include <chrono>
#include <system_error>

namespace osprey::project {

namespace fs = std::filesystem;

std::int64_t nowSeconds() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

Unexpected dbError(const Project::Impl& impl, const std::string& what, const std::string& detail) {
    return fail((impl.folder / kDatabaseFileName).string() + ": " + what + ": " + detail);
}

std::string paletteColor(int index) {
    // Distinct hues that stay readable on both light and dark photos.
    static const char* kPalette[] = {"#ff3838", "#2c99a8", "#ff9d97", "#ff701f", "#ffb21d",
                                     "#cfd231", "#48f90a", "#92cc17", "#3ddb86", "#1a9334",
                                     "#00d4bb", "#ff6f3d", "#00c2ff", "#344593", "#6473ff",
                                     "#0018ec", "#8438ff", "#520085", "#cb38ff", "#ff95c8"};
    constexpr int kCount = sizeof(kPalette) / sizeof(kPalette[0]);
    return kPalette[((index % kCount) + kCount) % kCount];
}

Status Project::Impl::inTransaction(const std::function<Status()>& body) {
    const bool outer = transactionDepth == 0;
    const std::string savepoint = "sp" + std::to_string(transactionDepth);
    if (auto begun = db.exec(outer ? "BEGIN IMMEDIATE" : "SAVEPOINT " + savepoint); !begun)
        return dbError(*this, "cannot start a transaction",
                       begun.error().code == std::to_string(SQLITE_BUSY)
                           ? "the project is locked by another program (try again when it has finished)"
                           : begun.message());
    ++transactionDepth;
    Status result = body();
    --transactionDepth;
    if (result) {
        if (auto committed = db.exec(outer ? "COMMIT" : "RELEASE " + savepoint); !committed) {
            (void)db.exec(outer ? "ROLLBACK" : "ROLLBACK TO " + savepoint + "; RELEASE " + savepoint);
            return dbError(*this, "cannot commit", committed.message());
        }
        return {};
    }
    (void)db.exec(outer ? "ROLLBACK" : "ROLLBACK TO " + savepoint + "; RELEASE " + savepoint);
    return result;
}

Project::Project(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
Project::~Project() = default;

namespace {

Expected<std::unique_ptr<Project::Impl>> openConnection(const fs::path& folder, bool create) {
    auto impl = std::make_unique<Project::Impl>();
    impl->folder = fs::absolute(folder).lexically_normal();
    const fs::path file = impl->folder / kDatabaseFileName;
    if (auto opened = impl->db.open(file.string(), {.create = create}); !opened)
        return fail(file.string() + ": cannot open the project database: " + opened.message(),
                    opened.error().code);
    sqlite3_busy_timeout(impl->db.handle(), 5000);
    // journal_mode needs a read of the header, so a non-database file fails here with SQLITE_NOTADB.
    std::string mode;
    {
        sql::Statement wal(impl->db, "PRAGMA journal_mode = WAL");
        if (!wal.ok() || (!wal.step() && !wal.error().empty())) {
            const int code = wal.ok() ? wal.errorCode() : impl->db.lastErrorCode();
            const std::string detail = wal.ok() ? wal.error() : wal.prepareError();
            if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
                return fail(file.string() +
                                ": the project is locked by another program; close it there or wait",
                            "locked");
            return fail(file.string() + ": the file is not a valid Osprey project database (" + detail +
                            "); it may be corrupt. Restore it from a backup.",
                        "corrupt");
        }
        mode = wal.text(0);
    }
    if (mode != "wal")
        return fail(file.string() + ": the project is locked by another program (cannot switch to WAL mode)",
                    "locked");
    // NORMAL in WAL mode keeps every committed transaction across a process crash or kill -9.
    // A 64 MiB page cache keeps index updates of large imports in memory. temp_store stays at its default
    // (files): with MEMORY, every multi-row INSERT inside a savepoint truncates an in-memory statement
    // journal by walking it from the start, which made the insert of a train2017-sized import 3x slower.
    if (auto pragmas =
            impl->db.exec("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA cache_size = "
                          "-65536;");
        !pragmas)
        return fail(file.string() + ": " + pragmas.message(), "corrupt");
    // Probe for a writer that holds the database for long (another program mid-import, say), so that
    // open says "locked" instead of failing later on the first edit.
    sqlite3_busy_timeout(impl->db.handle(), 1500);
    if (auto probe = impl->db.exec("BEGIN IMMEDIATE; ROLLBACK;"); !probe) {
        if (probe.error().code == std::to_string(SQLITE_BUSY) ||
            probe.error().code == std::to_string(SQLITE_LOCKED))
            return fail(file.string() +
                            ": the project is locked by another program that is writing to it; close "
                            "it there or wait, then open again",
                        "locked");
        return fail(file.string() + ": the file is not a valid Osprey project database (" + probe.message() +
                        "); it may be corrupt. Restore it from a backup.",
                    "corrupt");
    }
    sqlite3_busy_timeout(impl->db.handle(), 5000);
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

// ---- classes ------------------------------------------------------------------------------------

Expected<std::int64_t> Project::addClass(const std::string& name, const std::string& color) {
    if (name.empty())
        return fail("class name: must not be empty");
    std::int64_t id = 0;
    auto status = m_impl->inTransaction([&]() -> Status {
        sql::Statement count(m_impl->db, "SELECT COALESCE(MAX(position) + 1, 0), COUNT(*) FROM classes");
        count.step();
        const int position = static_cast<int>(count.integer(0));
        sql::Statement insert(m_impl->db, "INSERT INTO classes(name, color, position) VALUES(?, ?, ?)");
        insert.bind(1, name).bind(2, color.empty() ? paletteColor(position) : color).bind(3, position);
        if (auto ran = insert.run(); !ran)
            return fail("class '" + name + "': " +
                        (ran.message().find("UNIQUE") != std::string::npos
                             ? "a class with this name already exists"
                             : ran.message()));
        id = sqlite3_last_insert_rowid(m_impl->db.handle());
        return {};
    });
    if (!status)
        return fail(status.error());
    return id;
}

Status Project::renameClass(std::int64_t classId, const std::string& name) {
    if (name.empty())
        return fail("class name: must not be empty");
    return m_impl->inTransaction([&]() -> Status {
        sql::Statement update(m_impl->db, "UPDATE classes SET name = ? WHERE id = ?");
        update.bind(1, name).bind(2, classId);
        if (auto ran = update.run(); !ran)
            return fail("class '" + name + "': " +
                        (ran.message().find("UNIQUE") != std::string::npos
                             ? "a class with this name already exists"
                             : ran.message()));
        if (sqlite3_changes(m_impl->db.handle()) == 0)
            return fail("class id " + std::to_string(classId) + ": no such class");
        return {};
    });
}

Status Project::recolorClass(std::int64_t classId, const std::string& color) {
    if (color.size() != 7 || color[0] != '#')
        return fail("class colour '" + color + "': expected #rrggbb");
    return m_impl->inTransaction([&]() -> Status {
        sql::Statement update(m_impl->db, "UPDATE classes SET color = ? WHERE id = ?");
        update.bind(1, color).bind(2, classId);
        if (auto ran = update.run(); !ran)
            return fail(ran.error());
        if (sqlite3_changes(m_impl->db.handle()) == 0)
            return fail("class id " + std::to_string(classId) + ": no such class");
        return {};
    });
}

Status Project::moveClass(std::int64_t classId, int position) {
    return m_impl->inTransaction([&]() -> Status {
        auto list = classes();
        if (!list)
            return fail(list.error());
        std::vector<std::int64_t> order;
        std::int64_t moving = 0;
        for (const auto& info : *list) {
            if (info.id == classId)
                moving = info.id;
            else
                order.push_back(info.id);
        }
        if (moving == 0)
            return fail("class id " + std::to_string(classId) + ": no such class");
        position = std::clamp(position, 0, static_cast<int>(order.size()));
        order.insert(order.begin() + position, moving);
        sql::Statement update(m_impl->db, "UPDATE classes SET position = ? WHERE id = ?");
        for (size_t i = 0; i < order.size(); ++i) {
            update.reset();
            update.bind(1, static_cast<std::int64_t>(i)).bind(2, order[i]);
            if (auto ran = update.run(); !ran)
                return fail(ran.error());
        }
        return {};
    });
}

Status Project::deleteClass(std::int64_t classId, ClassDeletePolicy policy, std::int64_t reassignTo) {
    return m_impl->inTransaction([&]() -> Status {
        sql::Statement count(m_impl->db, "SELECT COUNT(*) FROM boxes WHERE class_id = ?");
        count.bind(1, classId);
        count.step();
        const std::int64_t boxCount = count.integer(0);
        std::vector<std::int64_t> touched;
        if (boxCount > 0) {
            switch (policy) {
            case ClassDeletePolicy::Refuse:
                return fail("class id " + std::to_string(classId) + ": still has " +
                            std::to_string(boxCount) + " boxes; delete or reassign them first");
            case ClassDeletePolicy::Reassign: {
                if (reassignTo == classId)
                    return fail("class id " + std::to_string(classId) + ": cannot reassign boxes to itself");
                sql::Statement exists(m_impl->db, "SELECT 1 FROM classes WHERE id = ?");
                exists.bind(1, reassignTo);
                if (!exists.step())
                    return fail("class id " + std::to_string(reassignTo) +
                                ": no such class to reassign boxes to");
                sql::Statement move(m_impl->db,
                                    "UPDATE boxes SET class_id = ?, updated_at = ? WHERE class_id = ?");
                move.bind(1, reassignTo).bind(2, nowSeconds()).bind(3, classId);
                if (auto ran = move.run(); !ran)
                    return fail(ran.error());
                break;
            }
            case ClassDeletePolicy::DeleteBoxes: {
                sql::Statement images(m_impl->db, "SELECT DISTINCT image_id FROM boxes WHERE class_id = ?");
                images.bind(1, classId);
                while (images.step())
                    touched.push_back(images.integer(0));
                sql::Statement remove(m_impl->db, "DELETE FROM boxes WHERE class_id = ?");
                remove.bind(1, classId);
                if (auto ran = remove.run(); !ran)
                    return fail(ran.error());
                break;
            }
            }
        }
        sql::Statement remove(m_impl->db, "DELETE FROM classes WHERE id = ?");
        remove.bind(1, classId);
        if (auto ran = remove.run(); !ran)
            return fail(ran.error());
        if (sqlite3_changes(m_impl->db.handle()) == 0)
            return fail("class id " + std::to_string(classId) + ": no such class");
        for (const auto imageId : touched)
            if (auto refreshed = m_impl->refreshStatus(imageId); !refreshed)
                return refreshed;
        // Close the gap in the positions.
        return m_impl->db.exec(
            "UPDATE classes SET position = (SELECT COUNT(*) FROM classes c2 WHERE c2.position < "
            "classes.position)");
    });
}

Expected<std::vector<ClassInfo>> Project::classes() const {
    sql::Statement query(m_impl->db, "SELECT id, name, color, position FROM classes ORDER BY position, id");
    std::vector<ClassInfo> result;
    while (query.step())
        result.push_back(
            {query.integer(0), query.text(1), query.text(2), static_cast<int>(query.integer(3))});
    if (!query.error().empty())
        return dbError(*m_impl, "cannot read classes", query.error());
    return result;
}

} // namespace osprey::project
