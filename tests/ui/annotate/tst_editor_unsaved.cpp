// The editor when the database refuses a write (issue 22), in the real main window:
// - another program holds the project's write lock (a child process in BEGIN IMMEDIATE, as a long import
//   does): the edit is kept, the banner says so, a second edit queues behind it, and both are stored once
//   the other program commits, with no click;
// - class edits (add, rename, recolour, move) during the other program's write: kept in order, counted in
//   the close question, stored when it commits; Undo/Redo while edits wait take back (put back) the newest
//   waiting edit, a refused undo of a stored step is kept too, and further steps wait with a message;
// - the disk is full (a 3 MB tmpfs, filled): the banner says the disk is full, nothing is stored and the
//   database stays intact; after space is freed, Retry stores the edit and a class rename behind it;
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
#include "ui/annotate/class_panel.h"
#include "ui/annotate/editor_actions.h"
#include "ui/annotate/editor_banner.h"
#include "ui/main/main_window.h"
#include "ui/project/project_document.h"

#include <QApplication>
#include <QMenu>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QStatusBar>
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
    return (*project)->images().list().value().front().id;
}

/// Closes the window while edits wait; answers the question before they would be lost with Cancel.
/// Returns the question (empty when none came).
QString closeAndCancel(ui::MainWindow& window, const QString& shot = {}) {
    QString question;
    QTimer answer;
    QObject::connect(&answer, &QTimer::timeout, [&] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box || box->objectName() != QLatin1String("unsavedEditsQuestion"))
            return;
        question = box->text();
        if (!shot.isEmpty())
            screenshot(*box, shot);
        box->button(QMessageBox::Cancel)->click();
        answer.stop();
    });
    answer.start(50);
    if (window.close())
        return {};
    return question;
}

std::filesystem::path databaseOf(const QString& folder) {
    return QDir(folder).filePath("project.osprey").toStdString();
}

std::vector<project::ClassInfo> storedClasses(const QString& folder) {
    auto project = project::Project::open(folder.toStdString());
    return (*project)->classes().list().value();
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

        test::WriteHolder holder;
        QVERIFY(holder.start(databaseOf(folder), 4500));

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
        const QString question = closeAndCancel(window, "editor-close-question");
        QVERIFY2(question.startsWith("2 edits could not be stored yet"), qPrintable(question));
        QVERIFY(window.isVisible());
        QCOMPARE(session->unsavedCount(), 2);

        QCOMPARE(holder.finish(), 0);
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
        QCOMPARE((*project)->settings().get("child").value(), std::string("wrote"));
    }

    void classEditsWaitForTheOtherWriterAndAreStoredInOrder() {
        QTemporaryDir dir;
        const QString folder = editor_test::makeDemo(dir, 4, 160);
        QVERIFY(!folder.isEmpty());
        ui::MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(window.openProject(folder, true));
        auto* session = window.editor()->session();
        session->setImage(firstImage(folder));
        auto* banner = window.editor()->banner();
        ui::ClassPanel* panel = window.classPanel();
        QVERIFY(panel);
        const auto classesBefore = storedClasses(folder);
        QVERIFY(classesBefore.size() >= 3);
        const auto first = classesBefore[0];
        const std::size_t stepsBefore = static_cast<std::size_t>(session->undoStack()->count());

        test::WriteHolder holder;
        QVERIFY(holder.start(databaseOf(folder), 4000));

        // Add, rename, recolour and move twice: each is kept, none stored yet, the banner counts them.
        QVERIFY(!panel->addClassNamed("kite", "#ff8800"));
        QCOMPARE(session->unsavedCount(), 1);
        QCOMPARE(session->unsavedCode(), QString("busy"));
        QVERIFY2(banner->text().contains("another program is writing"), qPrintable(banner->text()));
        QVERIFY(!panel->renameClass(first.id, "renamed"));
        panel->recolorClass(first.id, QColor("#123456"));
        panel->moveClass(first.id, +1);
        panel->moveClass(first.id, +1); // made in its turn: from where the first move put the class
        QCOMPARE(session->unsavedCount(), 5);
        QVERIFY2(banner->text().startsWith("5 edits not saved yet"), qPrintable(banner->text()));
        QCOMPARE(storedClasses(folder).size(), classesBefore.size());
        QCOMPARE(window.document()->className(first.id), QString::fromStdString(first.name)); // as stored
        screenshot(window, "editor-class-edits-busy");
        // They count in the question before closing.
        const QString question = closeAndCancel(window);
        QVERIFY2(question.startsWith("5 edits could not be stored yet"), qPrintable(question));

        QCOMPARE(holder.finish(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(session->unsavedCount(), 0, 5000);
        QVERIFY(banner->isHidden());
        const auto after = storedClasses(folder);
        QCOMPARE(after.size(), classesBefore.size() + 1);
        const auto renamed =
            std::find_if(after.begin(), after.end(), [&](auto& c) { return c.id == first.id; });
        QVERIFY(renamed != after.end());
        QCOMPARE(QString::fromStdString(renamed->name), QString("renamed"));
        QCOMPARE(QString::fromStdString(renamed->color), QString("#123456"));
        QCOMPARE(renamed->position, 2);
        QCOMPARE(QString::fromStdString(after.back().name), QString("kite"));
        QCOMPARE(QString::fromStdString(after.back().color), QString("#ff8800"));
        QCOMPARE(static_cast<std::size_t>(session->undoStack()->count()), stepsBefore + 5);
        // Ordinary undo steps: five undos give the classes back as they were.
        for (int i = 0; i < 5; ++i)
            session->undo();
        const auto undone = storedClasses(folder);
        QCOMPARE(undone.size(), classesBefore.size());
        for (std::size_t i = 0; i < undone.size(); ++i) {
            QCOMPARE(undone[i].name, classesBefore[i].name);
            QCOMPARE(undone[i].color, classesBefore[i].color);
            QCOMPARE(undone[i].position, classesBefore[i].position);
        }
    }

    void undoAndRedoWhileEditsWait() {
        QTemporaryDir dir;
        const QString folder = editor_test::makeDemo(dir, 4, 160);
        QVERIFY(!folder.isEmpty());
        const std::int64_t image = firstImage(folder);
        const size_t before = editor_test::storedBoxes(folder, image).size();
        ui::MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(window.openProject(folder, true));
        auto* session = window.editor()->session();
        session->setImage(image);
        auto* actions = window.editor()->findChild<ui::EditorActions*>();
        QVERIFY(actions);
        QAction* undoAction = actions->action("edit.undo");
        QAction* redoAction = actions->action("edit.redo");
        QSignalSpy messages(session, &ui::AnnotationSession::message);
        QVERIFY(session->addBox(QRectF(10, 10, 40, 40)) != 0); // A: stored
        QCOMPARE(undoAction->text(), QString("&Undo Add Box"));

        test::WriteHolder holder;
        QVERIFY(holder.start(databaseOf(folder), 4000));
        session->addBox(QRectF(60, 10, 20, 20)); // B: kept
        session->addBox(QRectF(90, 10, 20, 20)); // C: behind B
        QCOMPARE(session->unsavedCount(), 2);
        // Undo takes back the newest waiting edit (never written); Redo queues it again.
        QCOMPARE(undoAction->text(), QString("&Undo Unsaved Edit"));
        QVERIFY(undoAction->isEnabled());
        undoAction->trigger();
        QCOMPARE(session->unsavedCount(), 1);
        QVERIFY(messages.last().front().toString().contains("Took back an edit that was not saved yet"));
        QCOMPARE(redoAction->text(), QString("&Redo Unsaved Edit"));
        redoAction->trigger();
        QCOMPARE(session->unsavedCount(), 2);
        session->undo();
        session->undo();
        QCOMPARE(session->unsavedCount(), 0); // B and C taken back, nothing waits
        QVERIFY(window.editor()->banner()->isHidden());
        QCOMPARE(editor_test::storedBoxes(folder, image).size(), before + 1);
        // Now Undo reaches the stored A: the database refuses it for now, so the step is kept; the stack
        // has moved, the database not yet.
        session->undo();
        QCOMPARE(session->unsavedCount(), 1);
        QCOMPARE(session->undoStack()->index(), 0);
        QCOMPARE(editor_test::storedBoxes(folder, image).size(), before + 1);
        QCOMPARE(session->boxes().size(), before + 1); // the canvas shows what is stored
        // Further undo and redo wait, and say why; a new edit queues behind the kept undo.
        QCOMPARE(undoAction->text(), QString("&Undo (waits for the kept edits)"));
        session->undo();
        QVERIFY2(messages.last().front().toString().startsWith("Undo waits until the kept edits are saved"),
                 qPrintable(messages.last().front().toString()));
        QVERIFY2(window.statusBar()->currentMessage().startsWith("Undo waits"),
                 qPrintable(window.statusBar()->currentMessage()));
        QTest::qWait(50); // painted
        screenshot(window, "editor-undo-waits");
        session->redo();
        QVERIFY2(messages.last().front().toString().startsWith("Redo waits until the kept edits are saved"),
                 qPrintable(messages.last().front().toString()));
        QCOMPARE(session->unsavedCount(), 1);
        session->addBox(QRectF(120, 10, 20, 20)); // D
        QCOMPARE(session->unsavedCount(), 2);
        if (auto* edit = actions->editMenu(); edit && qEnvironmentVariableIsSet("OSPREY_SCREENSHOT_DIR")) {
            edit->popup(window.mapToGlobal(QPoint(40, 30)));
            QTest::qWait(100);
            screenshot(*edit, "editor-undo-menu");
            edit->close();
        }

        QCOMPARE(holder.finish(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(session->unsavedCount(), 0, 5000);
        // In order: A undone, then D stored; nothing else.
        auto stored = editor_test::storedBoxes(folder, image);
        QCOMPARE(stored.size(), before + 1);
        QCOMPARE(stored.back().x1, 120.0);
        QCOMPARE(session->boxes().size(), before + 1);
        QCOMPARE(undoAction->text(), QString("&Undo Add Box"));
        QVERIFY(!redoAction->isEnabled()); // D's push ended the redo of A
        session->undo();
        QCOMPARE(editor_test::storedBoxes(folder, image).size(), before);
        session->redo();
        QCOMPARE(editor_test::storedBoxes(folder, image).back().x1, 120.0);
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
            // A class edit on the full disk waits behind it; the retry stores both, in order.
            const std::int64_t classId = window.document()->classes().front().id;
            QVERIFY(!window.classPanel()->renameClass(classId, "renamed"));
            QCOMPARE(session->unsavedCount(), 2);
            QVERIFY2(banner->text().contains("the disk is full"), qPrintable(banner->text()));
            QVERIFY(banner->retryButton()->isVisible());
            QVERIFY2(session->unsavedReason().contains("project.osprey"),
                     qPrintable(session->unsavedReason()));
            QCOMPARE(session->boxes().size(), before); // the canvas shows what is stored
            screenshot(window, "editor-disk-full");
            // Retry while the disk is still full: still kept, still nothing stored.
            QTest::mouseClick(banner->retryButton(), Qt::LeftButton);
            QCOMPARE(session->unsavedCount(), 2);
            QCOMPARE(editor_test::storedBoxes(folder, image).size(), before);
            QVERIFY(storedClasses(folder).front().name != "renamed");
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
            QCOMPARE(QString::fromStdString(storedClasses(folder).front().name), QString("renamed"));
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
    if (const int child = test::holdWriteLockIfChild(argc, argv); child >= 0)
        return child;
    // While the process has one thread (before QApplication).
    test::enterMountNamespace(argc, argv);
    QApplication app(argc, argv);
    TestEditorUnsaved test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_editor_unsaved.moc"
