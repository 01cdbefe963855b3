#include "project/project_impl.h"

#include <array>

namespace osprey::project {

namespace {

// Migration i takes the schema from version i to i + 1. Never edit a released step: append a new one.
constexpr std::array<std::string_view, kSchemaVersion> kMigrations{R"sql(
CREATE TABLE classes (
    id       INTEGER PRIMARY KEY,
    name     TEXT NOT NULL UNIQUE,
    color    TEXT NOT NULL,
    position INTEGER NOT NULL
);
CREATE TABLE images (
    id           INTEGER PRIMARY KEY,
    path         TEXT NOT NULL UNIQUE,
    width        INTEGER NOT NULL DEFAULT 0,
    height       INTEGER NOT NULL DEFAULT 0,
    hash         TEXT NOT NULL DEFAULT '',
    status       TEXT NOT NULL DEFAULT 'new'
                 CHECK (status IN ('new', 'labeled', 'reviewed', 'verified_empty')),
    split        TEXT NOT NULL DEFAULT 'none' CHECK (split IN ('train', 'val', 'test', 'none')),
    split_locked INTEGER NOT NULL DEFAULT 0,
    added_at     INTEGER NOT NULL
);
CREATE INDEX images_status ON images(status);
CREATE INDEX images_split ON images(split);
CREATE INDEX images_hash ON images(hash);
CREATE TABLE boxes (
    id         INTEGER PRIMARY KEY,
    image_id   INTEGER NOT NULL REFERENCES images(id) ON DELETE CASCADE,
    class_id   INTEGER NOT NULL REFERENCES classes(id),
    x1 REAL NOT NULL, y1 REAL NOT NULL, x2 REAL NOT NULL, y2 REAL NOT NULL,
    source     TEXT NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'model', 'import')),
    score      REAL,
    crowd      INTEGER NOT NULL DEFAULT 0,
    difficult  INTEGER NOT NULL DEFAULT 0,
    truncated  INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX boxes_image_class ON boxes(image_id, class_id);
CREATE TABLE runs (
    id           INTEGER PRIMARY KEY,
    name         TEXT NOT NULL,
    config       TEXT NOT NULL DEFAULT '{}',
    status       TEXT NOT NULL DEFAULT 'running'
                 CHECK (status IN ('running', 'finished', 'stopped', 'failed')),
    started_at   INTEGER NOT NULL,
    finished_at  INTEGER,
    best_epoch   INTEGER,
    best_fitness REAL,
    weights_path TEXT NOT NULL DEFAULT ''
);
CREATE TABLE run_metrics (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    epoch  INTEGER NOT NULL,
    key    TEXT NOT NULL,
    value  REAL,
    PRIMARY KEY (run_id, epoch, key)
);
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
)sql",
                                                                   // 2: per-epoch metrics live in the run
                                                                   // folder's results.csv (run::RunFolder);
                                                                   // this copy was written and never read.
                                                                   R"sql(
DROP TABLE run_metrics;
)sql",
                                                                   // 3: where a video frame came from, and
                                                                   // its perceptual hash for near-duplicates;
                                                                   // the files a watched folder took.
                                                                   R"sql(
CREATE TABLE image_frames (
    image_id INTEGER PRIMARY KEY REFERENCES images(id) ON DELETE CASCADE,
    video    TEXT NOT NULL,
    frame    INTEGER NOT NULL,
    time_s   REAL NOT NULL,
    dhash    INTEGER NOT NULL
);
CREATE UNIQUE INDEX image_frames_video_frame ON image_frames(video, frame);
CREATE TABLE taken_files (
    path     TEXT NOT NULL,
    size     INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    kind     TEXT NOT NULL CHECK (kind IN ('image', 'video', 'skipped')),
    images   INTEGER NOT NULL DEFAULT 0,
    taken_at INTEGER NOT NULL,
    PRIMARY KEY (path, size, mtime_ns)
);
)sql"};

} // namespace

Status migrate(sql::Connection& db, const std::string& pathForErrors) {
    int version = 0;
    {
        sql::Statement query(db, "PRAGMA user_version");
        if (!query.ok())
            return fail(pathForErrors + ": not a valid Osprey project database (" + query.prepareError() +
                            ")",
                        "corrupt");
        if (query.step())
            version = static_cast<int>(query.integer(0));
        else if (!query.error().empty())
            return fail(pathForErrors + ": cannot read the schema version: " + query.error(),
                        query.errorCode() == SQLITE_BUSY ? "locked" : "corrupt");
    }
    if (version > kSchemaVersion)
        return fail(pathForErrors + ": the project uses schema version " + std::to_string(version) +
                        ", but this Osprey only knows up to version " + std::to_string(kSchemaVersion) +
                        ". Open it with a newer Osprey.",
                    "newer-schema");
    for (int step = version; step < kSchemaVersion; ++step) {
        // Each step and its version bump commit together, so a crash never leaves a half-migrated file.
        const std::string script = "BEGIN IMMEDIATE;\n" +
                                   std::string(kMigrations[static_cast<size_t>(step)]) +
                                   "\nPRAGMA user_version = " + std::to_string(step + 1) + ";\nCOMMIT;";
        if (auto status = db.exec(script); !status) {
            (void)db.exec("ROLLBACK");
            return fail(pathForErrors + ": migration to schema version " + std::to_string(step + 1) +
                            " failed: " + status.message(),
                        status.error().code == std::to_string(SQLITE_BUSY) ? "locked" : "corrupt");
        }
    }
    return {};
}

} // namespace osprey::project
