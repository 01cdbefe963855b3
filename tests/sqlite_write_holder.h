#pragma once
// Tests of two writers on one project: a child process that holds the database's write lock as a long
// import does. holdWriteLock() is the child: it opens `database`, runs BEGIN IMMEDIATE and one write
// (settings 'child' = 'wrote'), prints "held" on stdout, sleeps `holdMs` and commits; it returns 0, or
// 3..5 for the step that failed. WriteHolder starts the test binary itself as that child; the test's
// main() first calls holdWriteLockIfChild().

#include <sqlite3.h>

#include <QCoreApplication>
#include <QProcess>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

namespace osprey::test {

inline int holdWriteLock(const std::string& database, int holdMs) {
    sqlite3* db = nullptr;
    if (sqlite3_open(database.c_str(), &db) != SQLITE_OK)
        return 3;
    sqlite3_busy_timeout(db, 5000);
    if (sqlite3_exec(db, "BEGIN IMMEDIATE; INSERT OR REPLACE INTO settings VALUES('child', 'wrote')", nullptr,
                     nullptr, nullptr) != SQLITE_OK)
        return 4;
    std::printf("held\n");
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::milliseconds(holdMs));
    const int rc = sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    return rc == SQLITE_OK ? 0 : 5;
}

/// In main(), before anything else: when this process was started as the holder child, holds the lock
/// and returns the child's exit code; otherwise returns -1.
inline int holdWriteLockIfChild(int argc, char** argv) {
    if (argc == 4 && std::string(argv[1]) == "--hold-child")
        return holdWriteLock(argv[2], std::atoi(argv[3]));
    return -1;
}

/// The holder child, started from the test.
struct WriteHolder {
    QProcess process;
    /// Starts the child on `database` (a project.osprey) and returns once it holds the write lock.
    bool start(const std::filesystem::path& database, int holdMs) {
        process.start(QCoreApplication::applicationFilePath(),
                      {"--hold-child", QString::fromStdString(database.string()), QString::number(holdMs)});
        if (!process.waitForStarted())
            return false;
        QByteArray out;
        while (!out.contains("held") && process.state() == QProcess::Running) {
            process.waitForReadyRead(2000);
            out += process.readAllStandardOutput();
        }
        return out.contains("held");
    }
    /// Waits for the child to commit and end; returns its exit code (0: it held and committed).
    int finish() {
        process.waitForFinished(30000);
        return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    }
};

} // namespace osprey::test
