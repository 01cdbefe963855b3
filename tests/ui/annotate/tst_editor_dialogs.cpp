// The editor's dialogs and panels: shortcut settings with conflict detection (saved in QSettings), the
// cheat sheet, every action in a menu with its shortcut, the class picker's search, and the class panel
// (add, rename, recolour, reorder, live counts, all undoable).
#include "editor_test_util.h"
#include "ui/annotate/annotation_editor.h"
#include "ui/annotate/annotation_session.h"
#include "ui/annotate/cheat_sheet_dialog.h"
#include "ui/annotate/class_panel.h"
#include "ui/annotate/class_picker_dialog.h"
#include "ui/annotate/editor_actions.h"
#include "ui/annotate/shortcut_registry.h"
#include "ui/annotate/shortcuts_dialog.h"
#include "ui/main/main_window.h"
#include "ui/project/project_document.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QUndoStack>

using namespace osprey;

class TestEditorDialogs : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("OspreyTest");
        QCoreApplication::setApplicationName("tst_editor_dialogs");
        QSettings().clear();
    }

    void everyActionIsInAMenuWithItsShortcut() {
        ui::MainWindow window;
        const auto& entries = window.editorActions()->registry()->entries();
        QVERIFY(entries.size() >= 30);
        QSet<QString> inMenus;
        for (QMenu* menu : window.findChildren<QMenu*>())
            for (QAction* action : menu->actions())
                inMenus.insert(action->objectName().isEmpty() ? action->text() : action->objectName());
        for (const auto& entry : entries) {
            const QString key = entry.action->objectName().isEmpty() ? entry.action->text() : entry.id;
            QVERIFY2(inMenus.contains(key), qPrintable(entry.id));
            QVERIFY2(!entry.action->shortcuts().isEmpty(), qPrintable(entry.id));
        }
        QCOMPARE(window.editorActions()->action("image.next")->shortcut(), QKeySequence(Qt::Key_D));
        QCOMPARE(window.editorActions()->action("edit.redo")->shortcuts().size(), 2);
        QVERIFY(ui::ShortcutRegistry::conflicts(window.editorActions()->registry()->current()).isEmpty());
    }

    void shortcutConflictsBlockAndChangesPersist() {
        {
            ui::MainWindow window;
            ui::ShortcutsDialog dialog(window.editorActions()->registry(), &window);
            QVERIFY(dialog.conflictText().isEmpty());
            // D already means "next image": a conflict, and OK is disabled.
            dialog.setShortcut("image.previous", QKeySequence(Qt::Key_D));
            QCOMPARE(dialog.conflictText().size(), 1);
            QVERIFY(dialog.conflictText().front().contains("Next Image"));
            auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
            QVERIFY(!ok->isEnabled());
            dialog.setShortcut("image.previous", QKeySequence(Qt::Key_S));
            QVERIFY(dialog.conflictText().isEmpty());
            QVERIFY(ok->isEnabled());
            dialog.accept();
            QCOMPARE(window.editorActions()->action("image.previous")->shortcut(), QKeySequence(Qt::Key_S));
            // The registry refuses a conflicting set outright.
            auto shortcuts = window.editorActions()->registry()->current();
            shortcuts["view.fit"] = {QKeySequence(Qt::Key_W)};
            QVERIFY(!window.editorActions()->registry()->apply(shortcuts));
            QCOMPARE(window.editorActions()->action("view.fit")->shortcut(), QKeySequence(Qt::Key_F));
        }
        // A new window reads the saved choice; the cheat sheet lists it.
        ui::MainWindow again;
        QCOMPARE(again.editorActions()->action("image.previous")->shortcut(), QKeySequence(Qt::Key_S));
        ui::CheatSheetDialog sheet(again.editorActions()->registry());
        QVERIFY(sheet.html().contains("Previous Image"));
        QVERIFY(sheet.html().contains("Ctrl+Shift+V"));
        again.editorActions()->registry()->resetToDefaults();
        QCOMPARE(again.editorActions()->action("image.previous")->shortcut(), QKeySequence(Qt::Key_A));
        QVERIFY(!QSettings().contains("shortcuts/image.previous"));
    }

    void classPickerSearches() {
        QTemporaryDir dir;
        const QString folder = editor_test::makeDemo(dir, 2, 96);
        auto document = ui::ProjectDocument::open(folder, nullptr);
        ui::ClassPickerDialog picker(document.get(), 0);
        QCOMPARE(picker.visibleCount(), 4);
        QTest::keyClicks(picker.searchField(), "TRI");
        QCOMPARE(picker.visibleCount(), 1);
        QCOMPARE(document->className(picker.classId()), QString("triangle"));
        picker.searchField()->clear();
        QTest::keyClicks(picker.searchField(), "s");
        QCOMPARE(picker.visibleCount(), 2); // square, star
        QTest::keyClick(picker.searchField(), Qt::Key_Down);
        QCOMPARE(document->className(picker.classId()), QString("star"));
        QTest::keyClicks(picker.searchField(), "zzz");
        QCOMPARE(picker.classId(), 0);
    }

    void classPanelEditsAreUndoableWithLiveCounts() {
        QTemporaryDir dir;
        const QString folder = editor_test::makeDemo(dir, 4, 96);
        ui::MainWindow window;
        QVERIFY(window.openProject(folder, true));
        ui::ClassPanel* panel = window.classPanel();
        ui::AnnotationSession* session = window.editor()->session();
        ui::ProjectDocument* document = window.document();
        QTreeWidget* tree = panel->tree();
        QCOMPARE(tree->topLevelItemCount(), 4);

        QVERIFY(panel->addClassNamed("kite", "#ff8800"));
        QVERIFY(!panel->addClassNamed("kite")); // duplicate
        QCOMPARE(tree->topLevelItemCount(), 5);
        QCOMPARE(tree->topLevelItem(4)->text(0), QString("kite"));
        const std::int64_t kite = document->classes().back().id;
        QCOMPARE(session->currentClassId(), kite);

        QVERIFY(panel->renameClass(kite, "hawk"));
        panel->recolorClass(kite, QColor("#00aaff"));
        panel->moveClass(kite, -1);
        QCOMPARE(tree->topLevelItem(3)->text(0), QString("hawk"));
        QCOMPARE(document->classColor(kite), QColor("#00aaff"));
        auto project = std::move(project::Project::open(folder.toStdString()).value());
        QCOMPARE(QString::fromStdString(project->classes().list().value()[3].name), QString("hawk"));

        // Live counts: drawing a hawk box shows up in the panel.
        QCOMPARE(tree->topLevelItem(3)->text(2), QString("0"));
        QVERIFY(QTest::qWaitFor([&] { return session->imageId() != 0; }, 5000));
        session->addBox({1, 1, 20, 20});
        QTRY_COMPARE_WITH_TIMEOUT(tree->topLevelItem(3)->text(2), QString("1"), 3000);
        QCOMPARE(tree->topLevelItem(3)->text(1), QString("1"));

        // Undo the box, the move, colour and rename.
        for (int i = 0; i < 4; ++i)
            session->undoStack()->undo();
        QCOMPARE(tree->topLevelItem(4)->text(0), QString("kite"));
        QCOMPARE(document->classColor(kite), QColor("#ff8800"));
    }
};

QTEST_MAIN(TestEditorDialogs)
#include "tst_editor_dialogs.moc"
