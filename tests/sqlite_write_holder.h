#pragma once
// Tests of two writers on one project: the child process that holds the database's write lock as a long
// import does. It opens `database`, runs BEGIN IMMEDIATE and one write (settings 'child' = 'wrote'),
// prints "held" on stdout, sleeps `holdMs` and commits. Returns 0, or 3..5 for the step that failed.

#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

namespace osprey::test {

inline int holdWriteLock(const std::string& database, int holdMs) {
    sqlite3* db = nullptr;
    if (sqlite3_open(database.c_str(), &db) != SQLITE_OK)
        return 3;
    sqlite3_busy_timeout(db, 5000);
    if (sqlite3_exec(db, "BEGIN IMMEDIATE; INSERT OR REPLACE INTO settings VALUES('child', 'wrote')", nullptr, nullptr,
                     nullptr) != SQLITE_OK)
        return 4;
    std::printf("held\n");
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::milliseconds(holdMs));
    const int rc = sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    return rc == SQLITE_OK ? 0 : 5;
}

} // namespace osprey::test
