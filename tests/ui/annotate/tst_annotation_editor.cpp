// Drives the editor in the main window with real mouse and key events (offscreen) through the
// annotator's day: draw, move, resize, change class, undo x3, redo, paste from the previous image, mark
// reviewed and verified-empty. After each step the database is read through a second connection.
#include "editor_test_util.h"
#include "imaging/image.h"
#include "project_printers.h"
#include "ui/annotate/annotation_editor.h"
#include "ui/annotate/annotation_session.h"
#include "ui/annotate/box_canvas.h"
#include "ui/main/main_window.h"
#include "ui/project/image_list_model.h"
#include "ui/project/project_document.h"

#include <QStandardPaths>
#include <QTemporaryDir>

#include <QUndoStack>
#include <filesystem>

using namespace osprey;
using editor_test::drag;
using editor_test::storedBoxes;
using editor_test::storedStatus;

namespace {
void checkBox(const project::BoxRecord& box, double x1, double y1, double x2, double y2) {
    QCOMPARE(box.x1, x1);
    QCOMPARE(box.y1, y1);
    QCOMPARE(box.x2, x2);
    QCOMPARE(box.y2, y2);
}
} // namespace

class TestAnnotationEditor : public QObject {
    Q_OBJECT
private:
    ui::MainWindow* m_window = nullptr;
    ui::AnnotationEditor* m_editor = nullptr;
    ui::BoxCanvas* m_canvas = nullptr;
    QString m_folder;

    // Waits until the editor shows `row` of the list with its pixels.
    bool waitForRow(int row) {
        const qint64 id = m_window->imageModel()->imageIdAt(row);
        return QTest::qWaitFor([&] { return m_editor->session()->imageId() == id && m_canvas->hasImage(); },
                               5000);
    }
    void key(int keyCode, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
        QTest::keyClick(m_canvas, Qt::Key(keyCode), modifiers);
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void annotatorsDay() {
        QTemporaryDir dir;
        m_folder = editor_test::makeDemo(dir);
        QVERIFY(!m_folder.isEmpty());
        ui::MainWindow window;
        m_window = &window;
        window.resize(1200, 800);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(window.openProject(m_folder, true));
        m_editor = window.editor();
        m_canvas = m_editor->canvas();
        QVERIFY(waitForRow(0));
        m_canvas->setFocus();
        const auto classes = window.document()->classes();
        QVERIFY(classes.size() >= 2);

        // D moves to the next image; clear its boxes with Ctrl+A, Delete.
        key(Qt::Key_D);
        QVERIFY(waitForRow(1));
        const qint64 image = m_editor->session()->imageId();
        const size_t demoBoxes = storedBoxes(m_folder, image).size();
        QVERIFY(demoBoxes > 0);
        key(Qt::Key_A, Qt::ControlModifier);
        QCOMPARE(m_canvas->selection().size(), demoBoxes);
        key(Qt::Key_Delete);
        QCOMPARE(storedBoxes(m_folder, image).size(), size_t(0));
        OSPREY_COMPARE_ENUM(storedStatus(m_folder, image), project::ImageStatus::New);

        // Draw: a drag on empty space makes a box of the current class.
        drag(m_canvas, {40, 40}, {120, 100});
        auto boxes = storedBoxes(m_folder, image);
        QCOMPARE(boxes.size(), size_t(1));
        checkBox(boxes[0], 40, 40, 120, 100);
        QCOMPARE(boxes[0].classId, classes[0].id);
        OSPREY_COMPARE_ENUM(boxes[0].source, project::BoxSource::Manual);
        OSPREY_COMPARE_ENUM(storedStatus(m_folder, image), project::ImageStatus::Labeled);
        QCOMPARE(m_canvas->selection().size(), size_t(1));

        // A click-sized drag is not a box.
        drag(m_canvas, {200, 200}, {201, 201});
        QCOMPARE(storedBoxes(m_folder, image).size(), size_t(1));

        // Move: drag the box body; the whole drag is one undo step.
        const int stepsBefore = m_editor->session()->undoStack()->count();
        drag(m_canvas, {80, 70}, {100, 90});
        checkBox(storedBoxes(m_folder, image)[0], 60, 60, 140, 120);
        QCOMPARE(m_editor->session()->undoStack()->count(), stepsBefore + 1);

        // Resize: drag the bottom-right handle of the selected box.
        drag(m_canvas, {140, 120}, {180, 150});
        checkBox(storedBoxes(m_folder, image)[0], 60, 60, 180, 150);
        QCOMPARE(m_editor->session()->undoStack()->count(), stepsBefore + 2);

        // Nudge with the arrow keys (Shift: 10 px); quick presses merge into one step, and a run of
        // nudges that ends where it began leaves no step at all.
        key(Qt::Key_Right, Qt::ShiftModifier);
        key(Qt::Key_Right, Qt::ShiftModifier);
        checkBox(storedBoxes(m_folder, image)[0], 80, 60, 200, 150);
        QCOMPARE(m_editor->session()->undoStack()->count(), stepsBefore + 3);
        key(Qt::Key_Left, Qt::ShiftModifier);
        key(Qt::Key_Left, Qt::ShiftModifier);
        checkBox(storedBoxes(m_folder, image)[0], 60, 60, 180, 150);
        QCOMPARE(m_editor->session()->undoStack()->count(), stepsBefore + 2);

        // Key 2 gives the selected box the second class.
        key(Qt::Key_2);
        QCOMPARE(storedBoxes(m_folder, image)[0].classId, classes[1].id);
        QCOMPARE(m_editor->session()->currentClassId(), classes[1].id);

        // Undo three times (class, resize, move) and redo once (move).
        key(Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(storedBoxes(m_folder, image)[0].classId, classes[0].id);
        checkBox(storedBoxes(m_folder, image)[0], 60, 60, 180, 150);
        key(Qt::Key_Z, Qt::ControlModifier);
        checkBox(storedBoxes(m_folder, image)[0], 60, 60, 140, 120);
        key(Qt::Key_Z, Qt::ControlModifier);
        checkBox(storedBoxes(m_folder, image)[0], 40, 40, 120, 100);
        key(Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        checkBox(storedBoxes(m_folder, image)[0], 60, 60, 140, 120);
        QCOMPARE(storedBoxes(m_folder, image)[0].classId, classes[0].id);

        // Undo past the draw: the box goes and the image is new again; redo brings it back.
        auto* stack = m_editor->session()->undoStack();
        const int index = stack->index();
        while (stack->index() > stepsBefore - 1)
            key(Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(storedBoxes(m_folder, image).size(), size_t(0));
        OSPREY_COMPARE_ENUM(storedStatus(m_folder, image), project::ImageStatus::New);
        while (stack->index() < index)
            key(Qt::Key_Y, Qt::ControlModifier);
        QCOMPARE(storedBoxes(m_folder, image).size(), size_t(1));
        checkBox(storedBoxes(m_folder, image)[0], 60, 60, 140, 120);

        // Paste from the previous image: D to the next image, Ctrl+Shift+V.
        key(Qt::Key_D);
        QVERIFY(waitForRow(2));
        const qint64 next = m_editor->session()->imageId();
        const size_t nextBefore = storedBoxes(m_folder, next).size();
        key(Qt::Key_V, Qt::ControlModifier | Qt::ShiftModifier);
        auto pasted = storedBoxes(m_folder, next);
        QCOMPARE(pasted.size(), nextBefore + 1);
        checkBox(pasted.back(), 60, 60, 140, 120);
        QCOMPARE(m_canvas->selection().size(), size_t(1));

        // The undo stack survives the image switch: undo the paste from here, redo it.
        key(Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(storedBoxes(m_folder, next).size(), nextBefore);
        key(Qt::Key_Y, Qt::ControlModifier);
        QCOMPARE(storedBoxes(m_folder, next).size(), nextBefore + 1);

        // Space marks the image reviewed.
        key(Qt::Key_Space);
        OSPREY_COMPARE_ENUM(storedStatus(m_folder, next), project::ImageStatus::Reviewed);

        // Verified-empty: refused while boxes exist, accepted once they are gone.
        key(Qt::Key_D);
        QVERIFY(waitForRow(3));
        const qint64 empty = m_editor->session()->imageId();
        key(Qt::Key_V);
        OSPREY_COMPARE_ENUM(storedStatus(m_folder, empty), project::ImageStatus::Labeled);
        key(Qt::Key_A, Qt::ControlModifier);
        key(Qt::Key_Delete);
        key(Qt::Key_V);
        QCOMPARE(storedBoxes(m_folder, empty).size(), size_t(0));
        OSPREY_COMPARE_ENUM(storedStatus(m_folder, empty), project::ImageStatus::VerifiedEmpty);
        // Undo restores "new" exactly, not a derived status.
        key(Qt::Key_Z, Qt::ControlModifier);
        OSPREY_COMPARE_ENUM(storedStatus(m_folder, empty), project::ImageStatus::New);

        // A jumps back; N jumps to the next image whose status is new (this one).
        key(Qt::Key_A);
        QVERIFY(waitForRow(2));
        key(Qt::Key_N);
        QVERIFY(waitForRow(3));
    }

    void overlappingBoxesCycleAndHide() {
        QTemporaryDir dir;
        const QString folder = editor_test::makeDemo(dir, 3);
        ui::MainWindow window;
        window.resize(1000, 700);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(window.openProject(folder, true));
        ui::BoxCanvas* canvas = window.editor()->canvas();
        ui::AnnotationSession* session = window.editor()->session();
        QVERIFY(QTest::qWaitFor([&] { return canvas->hasImage(); }, 5000));
        canvas->setFocus();
        QTest::keyClick(canvas, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClick(canvas, Qt::Key_Delete);
        // A big box and a small one inside it; W draws even when starting over a box.
        drag(canvas, {20, 20}, {200, 200});
        QTest::keyClick(canvas, Qt::Key_W);
        drag(canvas, {60, 60}, {100, 100});
        QCOMPARE(session->boxes().size(), size_t(2));
        const qint64 small = session->boxes()[1].id, big = session->boxes()[0].id;
        // Clicking the overlap picks the smaller box first, clicking again cycles to the big one.
        const QPoint inside = editor_test::at(canvas, 80, 80);
        QTest::keyClick(canvas, Qt::Key_Escape);
        QVERIFY(canvas->selection().empty());
        QTest::mouseClick(canvas, Qt::LeftButton, {}, inside);
        QCOMPARE(canvas->selection(), std::vector<std::int64_t>{small});
        QTest::mouseClick(canvas, Qt::LeftButton, {}, inside);
        QCOMPARE(canvas->selection(), std::vector<std::int64_t>{big});
        QTest::mouseClick(canvas, Qt::LeftButton, {}, inside);
        QCOMPARE(canvas->selection(), std::vector<std::int64_t>{small});
        // H hides the boxes (and they cannot be hit while hidden).
        QTest::keyClick(canvas, Qt::Key_H);
        QVERIFY(canvas->boxesHidden());
        QTest::keyClick(canvas, Qt::Key_H);
        QVERIFY(!canvas->boxesHidden());
        // Zoom: Ctrl+= zooms in, F fits again, wheel zooms around the cursor.
        const double fit = canvas->scale();
        QTest::keyClick(canvas, Qt::Key_Equal, Qt::ControlModifier);
        QVERIFY(canvas->scale() > fit * 1.2);
        QTest::keyClick(canvas, Qt::Key_F);
        QCOMPARE(canvas->scale(), fit);
        const QPointF anchor = canvas->toImage(inside);
        QWheelEvent wheel(inside, canvas->mapToGlobal(inside), {}, {0, 240}, Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(canvas, &wheel);
        QVERIFY(canvas->scale() > fit * 1.4);
        QVERIFY((canvas->toImage(inside) - anchor).manhattanLength() < 0.01);
        // The pixel under a selected box's edge is drawn in its class colour.
        QTest::keyClick(canvas, Qt::Key_F);
        const QImage shot = canvas->grab().toImage();
        const QColor expected = window.document()->classColor(session->boxes()[0].classId);
        const QPoint edge = editor_test::at(canvas, 20, 110);
        bool found = false;
        for (int dx = -2; dx <= 2 && !found; ++dx) {
            const QColor c = shot.pixelColor(edge.x() + dx, edge.y());
            found = std::abs(c.red() - expected.red()) < 30 && std::abs(c.green() - expected.green()) < 30 &&
                    std::abs(c.blue() - expected.blue()) < 30;
        }
        QVERIFY2(found, "box outline not drawn in its class colour");
    }

    void videoFrameCaptionNamesItsVideo() {
        // Issue 36: a frame imported from a video is shown with its video, frame index and time.
        QTemporaryDir dir;
        m_folder = editor_test::makeDemo(dir, 1);
        QVERIFY(!m_folder.isEmpty());
        {
            auto project = project::Project::open(m_folder.toStdString()).value();
            imaging::Image frame;
            frame.width = 64;
            frame.height = 48;
            frame.pixels.assign(64 * 48 * 3, 90);
            const std::string path = "images/cam1-abcdef/cam1_001234.jpg";
            std::filesystem::create_directories(project->resolve("images/cam1-abcdef"));
            QVERIFY(imaging::encodeImage(frame, project->resolve(path)));
            project::NewImage row;
            row.path = path;
            row.width = 64;
            row.height = 48;
            QVERIFY(project->frames().add(row, {"/videos/cam1.mp4", 1234, 41.13, 0}));
        }
        ui::MainWindow window;
        m_window = &window;
        window.resize(1000, 700);
        window.show();
        QVERIFY(window.openProject(m_folder, true));
        m_editor = window.editor();
        m_canvas = m_editor->canvas();
        QVERIFY(waitForRow(0));
        QVERIFY2(!m_canvas->captionText().contains(" · frame "), qPrintable(m_canvas->captionText()));
        m_canvas->setFocus();
        key(Qt::Key_D);
        QVERIFY(waitForRow(1));
        QVERIFY2(m_canvas->captionText().startsWith(
                     QString::fromUtf8("cam1.mp4 · frame 1234 · 00:41.13   64 × 48")),
                 qPrintable(m_canvas->captionText()));
    }
};

QTEST_MAIN(TestAnnotationEditor)
#include "tst_annotation_editor.moc"
