// Opening errors (missing, locked, newer schema, corrupt) and the migration from an empty database.
#include "project/project.h"

#include <sqlite3.h>

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

using namespace osprey;
using namespace osprey::project;

namespace {
std::filesystem::path folderOf(const QTemporaryDir& dir) {
    return std::filesystem::path(dir.path().toStdString());
}

// Runs SQL on a raw connection; keeps the connection open when `keep` is given.
void rawExec(const std::filesystem::path& file, const char* sql, sqlite3** keep = nullptr) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(file.c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &error);
    QVERIFY2(rc == SQLITE_OK, error ? error : "");
    if (keep)
        *keep = db;
    else
        sqlite3_close(db);
}
} // namespace

class TestSchemaMigration : public QObject {
    Q_OBJECT
private slots:
    void migratesAnEmptyDatabaseToTheCurrentSchema() {
        QTemporaryDir dir;
        const auto file = folderOf(dir) / kDatabaseFileName;
        rawExec(file, "PRAGMA user_version = 0;"); // an empty SQLite file, version 0
        auto project = Project::open(folderOf(dir));
        QVERIFY2(project.hasValue(), project.hasValue() ? "" : project.message().c_str());
        QCOMPARE((*project)->schemaVersion(), kSchemaVersion);
        // Every public table exists with its documented columns.
        sqlite3* db = nullptr;
        sqlite3_open(file.c_str(), &db);
        const char* tables[][2] = {{"classes", "id,name,color,position"},
                                   {"images", "id,path,width,height,hash,status,split,split_locked,added_at"},
                                   {"boxes", "id,image_id,class_id,x1,y1,x2,y2,source,score,crowd,difficult,"
                                             "truncated,created_at,updated_at"},
                                   {"runs",
                                    "id,name,config,status,started_at,finished_at,best_epoch,best_fitness,"
                                    "weights_path"},
                                   {"image_frames", "image_id,video,frame,time_s,dhash"},
                                   {"taken_files", "path,size,mtime_ns,kind,images,taken_at"}};
        for (const auto& [table, expected] : tables) {
            sqlite3_stmt* stmt = nullptr;
            sqlite3_prepare_v2(db, (std::string("PRAGMA table_info(") + table + ")").c_str(), -1, &stmt,
                               nullptr);
            std::string columns;
            while (sqlite3_step(stmt) == SQLITE_ROW) {
                if (!columns.empty())
                    columns += ',';
                columns += reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1));
            }
            sqlite3_finalize(stmt);
            QCOMPARE(QString::fromStdString(columns), QString(expected));
        }
        sqlite3_stmt* stmt = nullptr;
        sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &stmt, nullptr);
        QCOMPARE(sqlite3_step(stmt), SQLITE_ROW);
        QCOMPARE(QString(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0))), QString("wal"));
        sqlite3_finalize(stmt);
        sqlite3_close(db);
        // Opening again does not migrate twice.
        project->reset();
        QVERIFY(Project::open(folderOf(dir)).hasValue());
    }

    void versionOneLosesOnlyRunMetrics() {
        // A version-1 project (run_metrics written by Osprey before): migrated, its runs kept.
        QTemporaryDir dir;
        const auto file = folderOf(dir) / kDatabaseFileName;
        Project::create(folderOf(dir)).value().reset();
        rawExec(file,
                "DROP TABLE image_frames; DROP TABLE taken_files; "
                "CREATE TABLE run_metrics (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, "
                "epoch INTEGER NOT NULL, key TEXT NOT NULL, value REAL, PRIMARY KEY (run_id, epoch, key)); "
                "INSERT INTO runs(name, started_at) VALUES('old', 1); "
                "INSERT INTO run_metrics VALUES(1, 1, 'metrics/mAP50(B)', 0.5); PRAGMA user_version = 1;");
        auto project = Project::open(folderOf(dir));
        QVERIFY2(project.hasValue(), project.hasValue() ? "" : project.message().c_str());
        QCOMPARE((*project)->schemaVersion(), kSchemaVersion);
        QCOMPARE((*project)->runs().list().value().size(), size_t(1));
        sqlite3* db = nullptr;
        sqlite3_open(file.c_str(), &db);
        sqlite3_stmt* stmt = nullptr;
        sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'run_metrics'", -1, &stmt,
                           nullptr);
        QCOMPARE(sqlite3_step(stmt), SQLITE_ROW);
        QCOMPARE(sqlite3_column_int(stmt, 0), 0);
        sqlite3_finalize(stmt);
        sqlite3_close(db);
    }

    void versionTwoGainsVideoFrames() {
        // A version-2 project with an image: migrated, the image kept, frames can be added.
        QTemporaryDir dir;
        const auto file = folderOf(dir) / kDatabaseFileName;
        Project::create(folderOf(dir)).value().reset();
        rawExec(file, "DROP TABLE image_frames; DROP TABLE taken_files; INSERT INTO images(path, added_at) "
                      "VALUES('a.jpg', 1); "
                      "PRAGMA user_version = 2;");
        auto project = Project::open(folderOf(dir));
        QVERIFY2(project.hasValue(), project.hasValue() ? "" : project.message().c_str());
        QCOMPARE((*project)->schemaVersion(), 3);
        const auto old = (*project)->images().list().value();
        QCOMPARE(old.size(), size_t(1));
        QVERIFY(!(*project)->images().get(old[0].id).value().frame.has_value());
        NewImage frameImage;
        frameImage.path = "images/v-abc/v_000012.jpg";
        const FrameSource source{"/videos/v.mp4", 12, 0.48, 0xfedcba9876543210ULL};
        const auto id = (*project)->frames().add(frameImage, source).value();
        const auto back = (*project)->images().get(id).value().frame;
        QVERIFY(back.has_value());
        QCOMPARE(QString::fromStdString(back->video), QString("/videos/v.mp4"));
        QCOMPARE(back->frame, std::int64_t(12));
        QCOMPARE(back->timeSeconds, 0.48);
        QCOMPARE(back->differenceHash, 0xfedcba9876543210ULL); // all 64 bits, the top one included
        QCOMPARE((*project)->frames().indices("/videos/v.mp4").value(), std::vector<std::int64_t>{12});
        QCOMPARE((*project)->frames().hashes().value(), std::vector<std::uint64_t>{0xfedcba9876543210ULL});
        // The same frame of the same video again: refused with its own code, nothing added.
        frameImage.path = "images/v-abc/other.jpg";
        auto again = (*project)->frames().add(frameImage, source);
        QVERIFY(!again);
        QCOMPARE(QString::fromStdString(again.error().code), QString("exists"));
        QCOMPARE((*project)->images().count().value(), std::int64_t(2));
        // Deleting the image deletes its provenance.
        QVERIFY((*project)->images().remove(id));
        QVERIFY((*project)->frames().indices("/videos/v.mp4").value().empty());
    }

    void missingProjectSaysMissing() {
        QTemporaryDir dir;
        auto project = Project::open(folderOf(dir) / "nowhere");
        QVERIFY(!project.hasValue());
        QCOMPARE(QString::fromStdString(project.error().code), QString("missing"));
        QVERIFY(project.message().find("project.osprey") != std::string::npos);
    }

    void newerSchemaSaysNewer() {
        QTemporaryDir dir;
        Project::create(folderOf(dir)).value().reset();
        rawExec(folderOf(dir) / kDatabaseFileName, "PRAGMA user_version = 99;");
        auto project = Project::open(folderOf(dir));
        QVERIFY(!project.hasValue());
        QCOMPARE(QString::fromStdString(project.error().code), QString("newer-schema"));
        QVERIFY(project.message().find("99") != std::string::npos);
    }

    void corruptFileSaysCorrupt() {
        QTemporaryDir dir;
        std::ofstream(folderOf(dir) / kDatabaseFileName) << std::string(8192, 'x');
        auto project = Project::open(folderOf(dir));
        QVERIFY(!project.hasValue());
        QCOMPARE(QString::fromStdString(project.error().code), QString("corrupt"));
    }

    void anotherWriterDoesNotStopOpen() {
        // Another program in the middle of a write (an import) used to make open fail with "locked"; the
        // project opens, reads the last commit and its writes wait (tst_project_writers).
        QTemporaryDir dir;
        Project::create(folderOf(dir)).value().reset();
        sqlite3* holder = nullptr;
        rawExec(folderOf(dir) / kDatabaseFileName, "BEGIN IMMEDIATE; INSERT INTO settings VALUES('k', 'v');",
                &holder);
        auto project = Project::open(folderOf(dir));
        QVERIFY2(project.hasValue(), project.hasValue() ? "" : project.message().c_str());
        QCOMPARE((*project)->settings().get("k", "none").value(), std::string("none"));
        sqlite3_exec(holder, "COMMIT", nullptr, nullptr, nullptr);
        sqlite3_close(holder);
        QCOMPARE((*project)->settings().get("k", "none").value(), std::string("v"));
    }
};

QTEST_GUILESS_MAIN(TestSchemaMigration)
#include "tst_schema_migration.moc"
