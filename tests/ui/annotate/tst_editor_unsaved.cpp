// The editor when the database refuses a write (issue 22), in the real main window:
// - another program holds the project's write lock (a child process in BEGIN IMMEDIATE, as a long import
//   does): the edit is kept, the banner says so, a second edit queues behind it, and both are stored once
//   the other program commits, with no click;
// - the disk is full (a 3 MB tmpfs, filled): the banner says the disk is full, nothing is stored and the
//   database stays intact; after space is freed, Retry stores the edit;
// - a read-only project folder (a read-only bind mount, which binds root too): the project opens with the
//   read-only banner and "(read-only)" in the title, an edit is refused with a message, nothing loops.
// The last two need an unprivileged user + mount namespace (tests/sandbox_mounts.h) and skip without one.
// With OSPREY_SCREENSHOT_DIR set, the windows are saved there as PNGs for a person to look at.
#include "editor_test_util.h"
#include "project/project.h"
#include "sandbox_mounts.h"
#include "sqlite_write_holder.h"
#include "ui/annotate/annotation_editor.h"
#include "ui/annotate/annotation_session.h"
#include "ui/annotate/editor_banner.h"
#include "ui/main/main_window.h"
#include "ui/project/project_document.h"

#include <QApplication>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>
#include <chrono>
#include <sqlite3.h>
#include <thread>

using namespace osprey;

namespace {

void screenshot(QWidget& window, const QString& name) {
    const QString dir = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        window.grab().save(QDir(dir).filePath(name + ".png"));
}

std::int64_t firstImage(const QString& folder) {
    auto project = project::Project::open(folder.toStdString());
    return (*project)->listImages().value().front().id;
}

} // namespace

class TestEditorUnsaved : public QObject {
    Q_OBJECT
private slots:
    void busyEditsAreKeptAndSavedWhenTheOtherWriterFinishes() {
        QTemporaryDir dir;
        const QString folder = editor_test::makeDemo(dir);
        QVERIFY(!folder.isEmpty());
        const std::int64_t image = firstImage(folder);
        const size_t before = editor_test::storedBoxes(folder, image).size();
        ui::MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(window.openProject(folder, true));
        auto* session = window.editor()->session();
        session->setImage(image);
        auto* banner = window.editor()->banner();
        QVERIFY(banner->isHidden());

        QProcess holder;
        holder.start(QCoreApplication::applicationFilePath(),
                     {"--hold-child", QDir(folder).filePath("project.osprey"), "4500"});
        QVERIFY(holder.waitForStarted());
        QVERIFY(holder.waitForReadyRead(5000));
        QVERIFY(holder.readAllStandardOutput().contains("held"));

        QCOMPARE(session->addBox(QRectF(10, 10, 40, 40)), std::int64_t(0)); // not stored (yet)
        QCOMPARE(session->unsavedCount(), 1);
        QCOMPARE(session->unsavedCode(), QString("busy"));
        QVERIFY(!banner->isHidden());
        QVERIFY2(banner->text().contains("another program is writing"), qPrintable(banner->text()));
        QCOMPARE(editor_test::storedBoxes(folder, image).size(), before);
        // A second edit waits behind the first one.
        session->addBox(QRectF(100, 100, 30, 30));
        QCOMPARE(session->unsavedCount(), 2);
        QVERIFY2(banner->text().startsWith("2 edits not saved yet"), qPrintable(banner->text()));
        screenshot(window, "editor-busy");
        // Closing the window now would lose them: it tries them again, then asks; Cancel keeps it open.
        QString question;
        QTimer answer;
        connect(&answer, &QTimer::timeout, [&] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box || box->objectName() != QLatin1String("unsavedEditsQuestion"))
                return;
            question = box->text();
            screenshot(*box, "editor-close-question");
            box->button(QMessageBox::Cancel)->click();
            answer.stop();
        });
        answer.start(50);
        QVERIFY(!window.close());
        QVERIFY2(question.startsWith("2 edits could not be stored yet"), qPrintable(question));
        QVERIFY(window.isVisible());
        QCOMPARE(session->unsavedCount(), 2);

        QVERIFY(holder.waitForFinished(10000));
        QCOMPARE(holder.exitCode(), 0);
        // The session retries by itself once the other program has committed.
        QTRY_COMPARE_WITH_TIMEOUT(session->unsavedCount(), 0, 5000);
        QVERIFY(banner->isHidden());
        const auto stored = editor_test::storedBoxes(folder, image);
        QCOMPARE(stored.size(), before + 2);
        QCOMPARE(stored[before].x1, 10.0);
        QCOMPARE(stored[before + 1].x1, 100.0);
        QCOMPARE(session->boxes().size(), before + 2);
        // Both are ordinary undo steps.
        session->undoStack()->undo();
        QCOMPARE(editor_test::storedBoxes(folder, image).size(), before + 1);
        auto project = project::Project::open(folder.toStdString());
        QCOMPARE((*project)->setting("child").value(), std::string("wrote"));
    }

    void fullDiskEditIsKeptUntilRetry() {
        if (!test::sandboxAvailable())
            QSKIP(qPrintable("no user/mount namespace for a small tmpfs: " +
                             QString::fromStdString(test::sandboxProblem())));
        QTemporaryDir dir;
        const std::filesystem::path mount = dir.filePath("disk").toStdString();
        if (const auto problem = test::mountTmpfs(mount, 3 << 20); !problem.empty())
            QSKIP(problem.c_str());
        QTemporaryDir inside(QString::fromStdString((mount / "XXXXXX").string()));
        const QString folder = editor_test::makeDemo(inside, 4, 160);
        QVERIFY(!folder.isEmpty());
        const std::int64_t image = firstImage(folder);
        const size_t before = editor_test::storedBoxes(folder, image).size();
        {
            ui::MainWindow window;
            window.resize(1200, 800);
            window.show();
            QVERIFY(window.openProject(folder, true));
            auto* session = window.editor()->session();
            session->setImage(image);
            auto* banner = window.editor()->banner();

            const auto filler = test::fillDisk(mount);
            QCOMPARE(session->addBox(QRectF(10, 10, 40, 40)), std::int64_t(0));
            QCOMPARE(session->unsavedCount(), 1);
            QCOMPARE(session->unsavedCode(), QString("full"));
            QVERIFY2(banner->text().contains("the disk is full"), qPrintable(banner->text()));
            QVERIFY(banner->retryButton()->isVisible());
            QVERIFY2(session->unsavedReason().contains("project.osprey"),
                     qPrintable(session->unsavedReason()));
            QCOMPARE(session->boxes().size(), before); // the canvas shows what is stored
            screenshot(window, "editor-disk-full");
            // Retry while the disk is still full: still kept, still nothing stored.
            QTest::mouseClick(banner->retryButton(), Qt::LeftButton);
            QCOMPARE(session->unsavedCount(), 1);
            QCOMPARE(editor_test::storedBoxes(folder, image).size(), before);
            {
                auto check = project::Project::open(folder.toStdString());
                QVERIFY(check);
                QCOMPARE((*check)->integrityCheck().value(), std::string("ok"));
            }
            std::filesystem::remove(filler);
            QTest::mouseClick(banner->retryButton(), Qt::LeftButton);
            QCOMPARE(session->unsavedCount(), 0);
            QVERIFY(banner->isHidden());
            const auto stored = editor_test::storedBoxes(folder, image);
            QCOMPARE(stored.size(), before + 1);
            QCOMPARE(stored.back().x1, 10.0);
        }
        auto check = project::Project::open(folder.toStdString());
        QCOMPARE((*check)->integrityCheck().value(), std::string("ok"));
        inside.remove();
        test::unmount(mount);
    }

    void readOnlyFolderOpensWithABanner() {
        if (!test::sandboxAvailable())
            QSKIP(qPrintable("no user/mount namespace for a read-only mount: " +
                             QString::fromStdString(test::sandboxProblem())));
        QTemporaryDir dir;
        const QString folder = editor_test::makeDemo(dir, 4, 160);
        QVERIFY(!folder.isEmpty());
        const std::int64_t image = firstImage(folder);
        const size_t before = editor_test::storedBoxes(folder, image).size();
        if (const auto problem = test::bindReadOnly(folder.toStdString()); !problem.empty())
            QSKIP(problem.c_str());
        {
            ui::MainWindow window;
            window.resize(1200, 800);
            window.show();
            QVERIFY(window.openProject(folder, true));
            QVERIFY(window.windowTitle().contains("read-only"));
            auto* banner = window.editor()->banner();
            QVERIFY(!banner->isHidden());
            QVERIFY2(banner->text().contains("read-only"), qPrintable(banner->text()));
            QVERIFY(!banner->retryButton()->isVisible());
            auto* session = window.editor()->session();
            session->setImage(image);
            QCOMPARE(session->boxes().size(), before); // reads work
            QSignalSpy messages(session, &ui::AnnotationSession::message);
            QCOMPARE(session->addBox(QRectF(10, 10, 40, 40)), std::int64_t(0));
            QCOMPARE(messages.count(), 1);
            QVERIFY(messages.front().front().toString().contains("read-only"));
            QCOMPARE(session->unsavedCount(), 0); // refused, not queued for ever
            QCOMPARE(session->undoStack()->count(), 0);
            QTest::qWait(300); // nothing keeps failing in the background
            QCOMPARE(messages.count(), 1);
            screenshot(window, "editor-read-only");
        }
        QCOMPARE(editor_test::storedBoxes(folder, image).size(), before);
        test::unmount(folder.toStdString());
    }
};

int main(int argc, char** argv) {
    if (argc == 4 && std::string(argv[1]) == "--hold-child")
        return osprey::test::holdWriteLock(argv[2], std::atoi(argv[3]));
    // While the process has one thread (before QApplication).
    test::enterMountNamespace(argc, argv);
    QApplication app(argc, argv);
    TestEditorUnsaved test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_editor_unsaved.moc"
