// The one SQLite wrapper (common/sqlite.h): open modes and their errors, statements that fail to prepare
// say why when stepped or run, reset() makes a cached statement reusable, row ids and NULLs come back,
// and a Serialized connection takes inserts from several threads at once.

#include "common/sqlite.h"

#include <QTemporaryDir>
#include <QtTest>

#include <thread>
#include <vector>

using namespace osprey;

class TestSqlite : public QObject {
    Q_OBJECT
private slots:
    void openModes() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("a.db").toStdString();
        sql::Connection missing;
        auto status = missing.open(path);
        QVERIFY(!status);
        QCOMPARE(status.error().code, std::string("missing"));
        QVERIFY(!missing.isOpen());
        sql::Connection db;
        QVERIFY(db.open(path, {.create = true}).hasValue());
        QVERIFY(db.isOpen());
    }

    void statementsReportErrorsAndReuse() {
        QTemporaryDir dir;
        sql::Connection db;
        QVERIFY(db.open(dir.filePath("b.db").toStdString(), {.create = true}).hasValue());
        QVERIFY(db.exec("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL, score REAL)").hasValue());

        sql::Statement bad(db, "SELECT nope FROM t");
        QVERIFY(!bad.ok());
        QCOMPARE(bad.prepareError(), std::string("no such column: nope"));
        QVERIFY(!bad.step());
        QCOMPARE(bad.error(), std::string("no such column: nope"));
        QCOMPARE(bad.run().message(), std::string("no such column: nope"));

        sql::Statement insert(db, "INSERT INTO t(name, score) VALUES (?, ?)");
        QVERIFY(insert.bind(1, std::string_view("a")).bind(2, std::optional<double>(0.5)).run().hasValue());
        QCOMPARE(db.lastInsertRowid(), std::int64_t(1));
        QVERIFY(
            insert.reset().bind(1, std::string_view("b")).bind(2, std::optional<double>()).run().hasValue());
        QCOMPARE(db.lastInsertRowid(), std::int64_t(2));
        // A constraint failure names itself; after reset the statement works again.
        const auto failed = insert.reset().bindNull(1).run();
        QVERIFY(!failed);
        QCOMPARE(failed.message(), std::string("NOT NULL constraint failed: t.name"));
        QVERIFY(insert.reset().bind(1, std::string_view("c")).run().hasValue());

        sql::Statement select(db, "SELECT id, name, score FROM t ORDER BY id");
        std::vector<std::string> names;
        while (select.step())
            names.push_back(select.text(1));
        QVERIFY(select.error().empty());
        QCOMPARE(names, (std::vector<std::string>{"a", "b", "c"}));
        select.reset();
        QVERIFY(select.step());
        QCOMPARE(select.optionalReal(2), std::optional<double>(0.5));
        QVERIFY(select.step());
        QVERIFY(!select.optionalReal(2));
    }

    void serializedConnectionAcrossThreads() {
        QTemporaryDir dir;
        sql::Connection db;
        QVERIFY(db.open(dir.filePath("c.db").toStdString(),
                        {.create = true, .threading = sql::Threading::Serialized, .busyTimeoutMs = 5000})
                    .hasValue());
        QVERIFY(db.exec("CREATE TABLE t(id INTEGER PRIMARY KEY, thread INTEGER)").hasValue());
        std::vector<std::thread> threads;
        std::atomic<int> failures{0};
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&db, &failures, t] {
                sql::Statement insert(db, "INSERT INTO t(thread) VALUES (?)");
                for (int i = 0; i < 200; ++i)
                    if (!insert.reset().bind(1, t).run())
                        ++failures;
            });
        for (auto& thread : threads)
            thread.join();
        QCOMPARE(failures.load(), 0);
        sql::Statement count(db, "SELECT COUNT(*), COUNT(DISTINCT thread) FROM t");
        QVERIFY(count.step());
        QCOMPARE(count.integer(0), std::int64_t(800));
        QCOMPARE(count.integer(1), std::int64_t(4));
    }
};

QTEST_APPLESS_MAIN(TestSqlite)
#include "tst_sqlite.moc"
