// Two writers on one project, in two processes (issue 22): a child holds the write lock (BEGIN IMMEDIATE)
// for 3 s, as a long import does; the project still opens, an edit waits for the child and succeeds, and
// both writes are there afterwards. With a short busyWait the edit fails with code "busy" and changes
// nothing, and a later retry stores it.
#include "project/project.h"
#include "sqlite_write_holder.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <chrono>
#include <cstdio>
#include <sqlite3.h>
#include <thread>

using namespace osprey;
using namespace osprey::project;
using namespace std::chrono_literals;

namespace {

std::filesystem::path folderOf(const QTemporaryDir& dir) {
    return std::filesystem::path(dir.path().toStdString());
}

} // namespace

class TestProjectWriters : public QObject {
    Q_OBJECT
private slots:
    void editWaitsForTheOtherWriter() {
        QTemporaryDir dir;
        std::int64_t image = 0, cls = 0;
        {
            auto project = std::move(Project::create(folderOf(dir)).value());
            cls = project->classes().add("car").value();
            image = project->images().add({"a.jpg", 100, 100}).value();
        }
        test::WriteHolder holder;
        QVERIFY(holder.start(folderOf(dir) / kDatabaseFileName, 3000));
        QElapsedTimer clock;
        clock.start();
        // Opening while the other program writes is no error any more (it said "locked" before).
        auto opened = Project::open(folderOf(dir));
        QVERIFY2(opened.hasValue(), opened.hasValue() ? "" : opened.message().c_str());
        auto project = std::move(opened.value());
        QVERIFY(!project->readOnly());
        int observed = 0;
        project->setBusyObserver([&](std::chrono::milliseconds) { ++observed; });
        auto box = project->boxes().add({image, cls, 10, 10, 50, 50});
        const qint64 waitedMs = clock.elapsed();
        QVERIFY2(box.hasValue(), box.hasValue() ? "" : box.message().c_str());
        QCOMPARE(holder.finish(), 0);
        qInfo("the edit waited %lld ms for the other writer; observer called %d times", waitedMs, observed);
        QVERIFY(waitedMs >= 2000);
        QVERIFY(observed >= 4);
        // Both writes are there, and the database is intact.
        QCOMPARE(project->settings().get("child").value(), std::string("wrote"));
        QCOMPARE(project->boxes().ofImage(image).value().size(), size_t(1));
        QCOMPARE(project->integrityCheck().value(), std::string("ok"));
    }

    void shortWaitFailsAsBusyAndChangesNothing() {
        QTemporaryDir dir;
        std::int64_t image = 0, cls = 0;
        {
            auto project = std::move(Project::create(folderOf(dir)).value());
            cls = project->classes().add("car").value();
            image = project->images().add({"a.jpg", 100, 100}).value();
        }
        auto project = std::move(Project::open(folderOf(dir)).value());
        project->setBusyWait(500ms);
        test::WriteHolder holder;
        QVERIFY(holder.start(folderOf(dir) / kDatabaseFileName, 3000));
        QElapsedTimer clock;
        clock.start();
        auto box = project->boxes().add({image, cls, 10, 10, 50, 50});
        const qint64 waitedMs = clock.elapsed();
        QVERIFY(!box.hasValue());
        QCOMPARE(QString::fromStdString(box.error().code), QString("busy"));
        QVERIFY2(box.message().find("another program") != std::string::npos, box.message().c_str());
        QVERIFY2(waitedMs >= 450 && waitedMs < 2500, qPrintable(QString::number(waitedMs)));
        QCOMPARE(project->boxes().ofImage(image).value().size(), size_t(0));
        QCOMPARE(holder.finish(), 0);
        // The retry, once the other writer is done, stores the edit.
        QVERIFY(project->boxes().add({image, cls, 10, 10, 50, 50}).hasValue());
        QCOMPARE(project->boxes().ofImage(image).value().size(), size_t(1));
        QCOMPARE(project->settings().get("child").value(), std::string("wrote"));
    }

    void nestedTransactionJoinsWhileWaiting() {
        // A grouped edit (transaction around several calls) waits once, at its BEGIN, and commits whole.
        QTemporaryDir dir;
        auto project = std::move(Project::create(folderOf(dir)).value());
        const auto cls = project->classes().add("car").value();
        const auto image = project->images().add({"a.jpg", 100, 100}).value();
        test::WriteHolder holder;
        QVERIFY(holder.start(folderOf(dir) / kDatabaseFileName, 1500));
        auto status = project->transaction([&]() -> Status {
            for (int i = 0; i < 10; ++i)
                if (auto id = project->boxes().add({image, cls, double(i), 0, double(i) + 5, 10}); !id)
                    return fail(id.error());
            return {};
        });
        QVERIFY2(status.hasValue(), status.hasValue() ? "" : status.message().c_str());
        QCOMPARE(holder.finish(), 0);
        QCOMPARE(project->boxes().ofImage(image).value().size(), size_t(10));
    }

    void readTransactionSeesOneState() {
        // A read transaction (core/job reads a training job in one) sees the database as it was at its first
        // read while another connection commits, does not make that writer wait, and refuses a write.
        QTemporaryDir dir;
        auto reader = std::move(Project::create(folderOf(dir)).value());
        QVERIFY(reader->images().add({"a.jpg", 100, 100}));
        auto writer = std::move(Project::open(folderOf(dir)).value());
        writer->setBusyWait(200ms);
        std::int64_t before = -1, during = -1;
        QElapsedTimer clock;
        auto status = reader->readTransaction([&]() -> Status {
            before = reader->images().count().value();
            clock.start();
            if (auto added = writer->images().add({"b.jpg", 100, 100}); !added)
                return fail(added.error());
            if (clock.elapsed() >= 200)
                return fail("the writer waited for the reader");
            during = reader->images().count().value();
            const auto write = reader->images().add({"c.jpg", 100, 100});
            if (write || write.error().code != "misuse")
                return fail("a write inside a read transaction was not refused at once");
            return {};
        });
        QVERIFY2(status.hasValue(), status.hasValue() ? "" : status.message().c_str());
        QCOMPARE(before, std::int64_t(1));
        QCOMPARE(during, std::int64_t(1)); // the other connection's commit is not seen inside
        QCOMPARE(reader->images().count().value(), std::int64_t(2));
        // Inside a write transaction it joins that one.
        status = reader->transaction([&]() -> Status {
            return reader->readTransaction([&]() -> Status {
                return reader->images().add({"d.jpg", 100, 100}) ? Status{}
                                                                 : fail("no write in the outer one");
            });
        });
        QVERIFY2(status.hasValue(), status.hasValue() ? "" : status.message().c_str());
        QCOMPARE(writer->images().count().value(), std::int64_t(3));
    }
};

int main(int argc, char** argv) {
    if (const int child = osprey::test::holdWriteLockIfChild(argc, argv); child >= 0)
        return child;
    QCoreApplication app(argc, argv);
    TestProjectWriters test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_project_writers.moc"
