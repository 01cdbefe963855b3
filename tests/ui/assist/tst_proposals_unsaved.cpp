// Accepted model proposals while another program writes to the project (issue 22), with the real
// predictor (the shared Darknet yolo-fastest-1.1 COCO model on a COCO photo with three persons) in the
// main window: a child process holds the project's write lock, as `osprey-cli import` or `autolabel`
// does. Accept All is kept (the banner says so, the proposals stay hidden, nothing is stored), Undo takes
// it back (the proposals show again), Redo queues it again, and when the other program commits the boxes
// are stored as model boxes with their scores, as one ordinary undo step.
#include "fixtures.h"
#include "persons_photo.h"
#include "project_printers.h"
#include "sqlite_write_holder.h"
#include "ui/annotate/annotation_editor.h"
#include "ui/annotate/annotation_session.h"
#include "ui/annotate/editor_banner.h"
#include "ui/annotate/editor_test_util.h"
#include "ui/assist/assist_controller.h"
#include "ui/main/main_window.h"

#include <QApplication>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace osprey;
using editor_test::storedBoxes;

namespace {

size_t modelBoxes(const std::vector<project::BoxRecord>& boxes) {
    return static_cast<size_t>(std::count_if(
        boxes.begin(), boxes.end(), [](const auto& box) { return box.source == project::BoxSource::Model; }));
}

} // namespace

class TestProposalsUnsaved : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void acceptedProposalsWaitForTheOtherWriter() {
        OSPREY_REQUIRE_FIXTURE("models/yolo-fastest-1.1/yolo-fastest-1.1.weights");
        OSPREY_REQUIRE_FIXTURE("models/fastestdet/images/2.jpg");
        QTemporaryDir dir;
        const QString folder = editor_test::makeDemo(dir, 2, 160);
        QVERIFY(!folder.isEmpty());
        qint64 photoId = 0;
        {
            auto project = project::Project::open(folder.toStdString());
            QVERIFY(project);
            QVERIFY((*project)->classes().add("person"));
            photoId = test::addPersonsPhoto(**project, folder);
            QVERIFY(photoId != 0);
        }

        ui::MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(window.openProject(folder, true));
        ui::AnnotationEditor* editor = window.editor();
        ui::AssistController* assist = editor->assist();
        QVERIFY(assist);
        ui::AnnotationSession* session = editor->session();
        session->setImage(photoId);
        const auto dirModel = test::fixture("models/yolo-fastest-1.1");
        assist->setModel({dirModel / "yolo-fastest-1.1.cfg", dirModel / "yolo-fastest-1.1.weights",
                          dirModel / "coco.names", "cpu"});
        assist->suggest();
        QTRY_VERIFY_WITH_TIMEOUT(!assist->busy(), 60000);
        const int proposals = static_cast<int>(assist->visible().size());
        QVERIFY2(proposals >= 3, qPrintable(QString::number(proposals)));
        const std::size_t steps = static_cast<std::size_t>(session->undoStack()->count());

        test::WriteHolder holder;
        QVERIFY(holder.start(QDir(folder).filePath("project.osprey").toStdString(), 4000));

        assist->acceptAll();
        QCOMPARE(session->unsavedCount(), 1);
        QCOMPARE(session->unsavedCode(), QString("busy"));
        QVERIFY2(editor->banner()->text().contains("another program is writing"),
                 qPrintable(editor->banner()->text()));
        QCOMPARE(modelBoxes(storedBoxes(folder, photoId)), size_t(0));
        QCOMPARE(static_cast<int>(assist->visible().size()), 0); // accepted: hidden while they wait
        // Undo takes the waiting accept back: the proposals show again; Redo queues it again.
        session->undo();
        QCOMPARE(session->unsavedCount(), 0);
        QCOMPARE(static_cast<int>(assist->visible().size()), proposals);
        session->redo();
        QCOMPARE(session->unsavedCount(), 1);
        assist->acceptAll(); // nothing left to accept: the kept edit holds them all
        QCOMPARE(session->unsavedCount(), 1);

        QCOMPARE(holder.finish(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(session->unsavedCount(), 0, 5000);
        const auto stored = storedBoxes(folder, photoId);
        QCOMPARE(modelBoxes(stored), static_cast<size_t>(proposals));
        for (const auto& box : stored)
            QVERIFY(box.score.has_value());
        QCOMPARE(static_cast<std::size_t>(session->undoStack()->count()), steps + 1);
        QCOMPARE(static_cast<int>(assist->visible().size()), 0);
        session->undo(); // one ordinary step: the boxes go, the proposals come back
        QCOMPARE(modelBoxes(storedBoxes(folder, photoId)), size_t(0));
        QCOMPARE(static_cast<int>(assist->visible().size()), proposals);
    }
};

int main(int argc, char** argv) {
    if (const int child = test::holdWriteLockIfChild(argc, argv); child >= 0)
        return child;
    QApplication app(argc, argv);
    TestProposalsUnsaved test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_proposals_unsaved.moc"
