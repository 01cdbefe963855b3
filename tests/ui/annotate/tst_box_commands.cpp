// The undo commands against a real project database: ids that change on undo/redo are followed,
// image status is restored exactly, drags merge, and class edits undo.
#include "editor_test_util.h"
#include "project_printers.h"
#include "ui/annotate/annotation_session.h"
#include "ui/annotate/commands/add_box_command.h"
#include "ui/annotate/commands/add_class_command.h"
#include "ui/annotate/commands/delete_boxes_command.h"
#include "ui/annotate/commands/edit_class_command.h"
#include "ui/project/project_document.h"

#include <QTemporaryDir>
#include <QUndoStack>

using namespace osprey;

class TestBoxCommands : public QObject {
    Q_OBJECT
private slots:
    void idsSurviveUndoRedoChains() {
        QTemporaryDir dir;
        const QString folder = editor_test::makeDemo(dir, 3, 96);
        auto document = ui::ProjectDocument::open(folder, nullptr);
        QVERIFY(document);
        ui::AnnotationSession session;
        session.setDocument(document.get());
        const auto images = document->project().images().list().value();
        session.setImage(images[0].id);
        const size_t demoBoxes = session.boxes().size();

        // add -> move -> resize -> delete, then undo everything and redo everything twice.
        const std::int64_t id = session.addBox({10, 10, 20, 20});
        QVERIFY(id != 0);
        auto moved = *session.findBox(id);
        moved.x1 += 5;
        moved.x2 += 5;
        session.setBoxGeometry({moved}, ui::AnnotationSession::GeometryEdit::Move, session.newDragSerial());
        auto resized = *session.findBox(id);
        resized.y2 = 50;
        session.setBoxGeometry({resized}, ui::AnnotationSession::GeometryEdit::Resize,
                               session.newDragSerial());
        session.deleteBoxes({id});
        QCOMPARE(session.boxes().size(), demoBoxes);
        QUndoStack* stack = session.undoStack();
        QCOMPARE(stack->count(), 4);
        for (int round = 0; round < 2; ++round) {
            stack->setIndex(0);
            QCOMPARE(session.boxes().size(), demoBoxes);
            stack->setIndex(3); // before the delete: the box is back, moved and resized, with a new id
            QCOMPARE(session.boxes().size(), demoBoxes + 1);
            const auto& box = session.boxes().back();
            QCOMPARE(box.x1, 15.0);
            QCOMPARE(box.x2, 35.0);
            QCOMPARE(box.y2, 50.0);
            stack->setIndex(4);
            QCOMPARE(session.boxes().size(), demoBoxes);
        }
        // Redo of the delete after re-creation removed the right box: the demo boxes are intact.
        const auto stored = editor_test::storedBoxes(folder, images[0].id);
        QCOMPARE(stored.size(), demoBoxes);
    }

    void dragStepsMergeAndStatusIsRestored() {
        QTemporaryDir dir;
        const QString folder = editor_test::makeDemo(dir, 3, 96);
        auto document = ui::ProjectDocument::open(folder, nullptr);
        ui::AnnotationSession session;
        session.setDocument(document.get());
        const auto images = document->project().images().list().value();
        session.setImage(images[1].id);
        std::vector<std::int64_t> all;
        for (const auto& box : session.boxes())
            all.push_back(box.id);
        session.deleteBoxes(all);
        QVERIFY(session.setStatus(project::ImageStatus::VerifiedEmpty));
        OSPREY_COMPARE_ENUM(editor_test::storedStatus(folder, images[1].id),
                            project::ImageStatus::VerifiedEmpty);

        // Pasting boxes makes the image labeled; undo puts verified-empty back, not "new".
        const auto pasted = session.pasteFromImage(images[0].id);
        QVERIFY(!pasted.empty());
        OSPREY_COMPARE_ENUM(editor_test::storedStatus(folder, images[1].id), project::ImageStatus::Labeled);
        session.undoStack()->undo();
        OSPREY_COMPARE_ENUM(editor_test::storedStatus(folder, images[1].id),
                            project::ImageStatus::VerifiedEmpty);
        session.undoStack()->redo();

        // Ten moves of one drag are one step.
        const int steps = session.undoStack()->count();
        const int serial = session.newDragSerial();
        const auto start = *session.findBox(pasted[0]);
        for (int i = 1; i <= 10; ++i) {
            auto box = start;
            box.x1 += i;
            box.x2 += i;
            session.setBoxGeometry({box}, ui::AnnotationSession::GeometryEdit::Move, serial);
        }
        QCOMPARE(session.undoStack()->count(), steps + 1);
        QCOMPARE(session.findBox(pasted[0])->x1, start.x1 + 10);
        session.undoStack()->undo();
        QCOMPARE(session.findBox(pasted[0])->x1, start.x1);
        QVERIFY(session.undoStack()->undoText().endsWith("from Previous Image"));
    }

    void classEditsUndoAndBoxesFollowRecreatedClasses() {
        QTemporaryDir dir;
        const QString folder = editor_test::makeDemo(dir, 2, 96);
        auto document = ui::ProjectDocument::open(folder, nullptr);
        ui::AnnotationSession session;
        session.setDocument(document.get());
        session.setImage(document->project().images().list().value()[0].id);
        const size_t classCount = document->classes().size();

        auto* add = new ui::AddClassCommand(document.get(), session.ids(), "kite", "#ff00ff");
        session.undoStack()->push(add);
        QCOMPARE(document->classes().size(), classCount + 1);
        session.setCurrentClassId(add->classId());
        const std::int64_t box = session.addBox({5, 5, 30, 30});
        QCOMPARE(session.findBox(box)->classId, add->classId());
        const std::int64_t kite = add->classId();
        session.undoStack()->push(new ui::EditClassCommand(
            document.get(), session.ids(), kite, ui::EditClassCommand::Kind::Rename, "kite", "hawk"));
        session.undoStack()->push(new ui::EditClassCommand(
            document.get(), session.ids(), kite, ui::EditClassCommand::Kind::Move, int(classCount), 0));
        QCOMPARE(QString::fromStdString(document->classes().front().name), QString("hawk"));

        session.undoStack()->setIndex(0);
        QCOMPARE(document->classes().size(), classCount);
        session.undoStack()->setIndex(session.undoStack()->count());
        // The class was re-created (maybe with a new id); the re-created box uses it, renamed and moved
        // first.
        QCOMPARE(document->classes().size(), classCount + 1);
        QCOMPARE(QString::fromStdString(document->classes().front().name), QString("hawk"));
        QCOMPARE(session.boxes().back().classId, add->classId());
    }
};

QTEST_MAIN(TestBoxCommands)
#include "tst_box_commands.moc"
