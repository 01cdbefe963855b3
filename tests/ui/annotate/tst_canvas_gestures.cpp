// The canvas gestures beyond drawing, driven with real mouse and key events in the main window
// (offscreen): a move or resize held in memory and stored once on release (Escape puts it back),
// rubber-band selection (Shift+drag, Ctrl+Shift+drag adds), pan (Space+drag and the middle
// button move the view, never a box), copy and paste (Ctrl+C / Ctrl+V, same class and coordinates on
// another image, offset on the same one, one undo step), arrow-key nudge with and without Shift (clamped
// to the image), and cycling through overlapping boxes to pick the one to edit. After each step the
// database is read through a second connection, which also counts the writes of a long drag (PRAGMA
// data_version and a trigger on the boxes table).
#include "editor_test_util.h"
#include "project_printers.h"
#include "ui/annotate/annotation_editor.h"
#include "ui/annotate/annotation_session.h"
#include "ui/annotate/box_canvas.h"
#include "ui/main/main_window.h"
#include "ui/project/image_list_model.h"
#include "ui/project/image_list_panel.h"
#include "ui/project/project_document.h"

#include <QDir>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>
#include <algorithm>
#include <cmath>
#include <memory>
#include <sqlite3.h>

using namespace osprey;
using editor_test::drag;
using editor_test::storedBoxes;

namespace {

struct Rect {
    double x1, y1, x2, y2;
};

void checkBox(const project::BoxRecord& box, Rect r) {
    QCOMPARE(box.x1, r.x1);
    QCOMPARE(box.y1, r.y1);
    QCOMPARE(box.x2, r.x2);
    QCOMPARE(box.y2, r.y2);
}

/// The stored box with `id`, or a record with id 0.
project::BoxRecord storedBox(const std::vector<project::BoxRecord>& boxes, std::int64_t id) {
    const auto it = std::find_if(boxes.begin(), boxes.end(), [id](const auto& b) { return b.id == id; });
    return it == boxes.end() ? project::BoxRecord{} : *it;
}

template <typename E> std::vector<project::BoxRecord> selectedByX(const E& e) {
    std::vector<project::BoxRecord> boxes;
    const auto stored = e.stored();
    for (const std::int64_t id : e.canvas->selection())
        if (const auto box = storedBox(stored, id); box.id != 0)
            boxes.push_back(box);
    std::sort(boxes.begin(), boxes.end(), [](const auto& l, const auto& r) { return l.x1 < r.x1; });
    return boxes;
}

std::vector<std::int64_t> sorted(std::vector<std::int64_t> ids) {
    std::sort(ids.begin(), ids.end());
    return ids;
}

/// A second connection to a project's database that sees its writes: data_version() changes whenever
/// another connection commits, and boxUpdates() counts the boxes rows updated since the counter was made
/// (a trigger it adds to the database).
class WriteCounter {
public:
    explicit WriteCounter(const QString& folder) {
        const auto path = QDir(folder).filePath("project.osprey").toStdString();
        if (sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK)
            return;
        sqlite3_busy_timeout(m_db, 5000);
        m_ready = exec("CREATE TABLE test_box_updates (box_id INTEGER);"
                       "CREATE TRIGGER test_count_box_updates AFTER UPDATE ON boxes "
                       "BEGIN INSERT INTO test_box_updates VALUES (NEW.id); END;");
    }
    ~WriteCounter() {
        if (m_db) {
            exec("DROP TRIGGER IF EXISTS test_count_box_updates; DROP TABLE IF EXISTS test_box_updates;");
            sqlite3_close(m_db);
        }
    }
    bool ready() const { return m_ready; }
    std::int64_t dataVersion() const { return single("PRAGMA data_version"); }
    std::int64_t boxUpdates() const { return single("SELECT COUNT(*) FROM test_box_updates"); }

private:
    bool exec(const char* sql) { return sqlite3_exec(m_db, sql, nullptr, nullptr, nullptr) == SQLITE_OK; }
    std::int64_t single(const char* sql) const {
        sqlite3_stmt* statement = nullptr;
        std::int64_t value = -1;
        if (sqlite3_prepare_v2(m_db, sql, -1, &statement, nullptr) == SQLITE_OK &&
            sqlite3_step(statement) == SQLITE_ROW)
            value = sqlite3_column_int64(statement, 0);
        sqlite3_finalize(statement);
        return value;
    }

    sqlite3* m_db = nullptr;
    bool m_ready = false;
};

/// A main window on a fresh demo project, showing the first image with its demo boxes deleted.
class Editor {
public:
    bool open(int images = 4) {
        m_folder = editor_test::makeDemo(m_dir, images);
        if (m_folder.isEmpty())
            return false;
        m_window = std::make_unique<ui::MainWindow>();
        m_window->resize(1000, 700);
        m_window->show();
        m_window->activateWindow();
        if (!QTest::qWaitForWindowActive(m_window.get()) || !m_window->openProject(m_folder, true))
            return false;
        canvas = m_window->editor()->canvas();
        session = m_window->editor()->session();
        if (!waitForRow(0))
            return false;
        canvas->setFocus();
        clearBoxes();
        return session->boxes().empty() && storedBoxes(m_folder, session->imageId()).empty();
    }
    bool waitForRow(int row) {
        const qint64 id = m_window->imageModel()->imageIdAt(row);
        return QTest::qWaitFor([&] { return session->imageId() == id && canvas->hasImage(); }, 5000);
    }
    void key(int keyCode, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
        QTest::keyClick(canvas, Qt::Key(keyCode), modifiers);
    }
    void clearBoxes() {
        key(Qt::Key_A, Qt::ControlModifier);
        key(Qt::Key_Delete);
    }
    /// Draws a box by dragging on empty space and returns its id (the new box is selected).
    std::int64_t draw(Rect r) {
        drag(canvas, {r.x1, r.y1}, {r.x2, r.y2});
        return canvas->selection().size() == 1 ? canvas->selection().front() : 0;
    }
    std::vector<project::BoxRecord> stored() const { return storedBoxes(m_folder, session->imageId()); }
    project::ImageStatus storedStatus() const {
        return editor_test::storedStatus(m_folder, session->imageId());
    }
    int undoSteps() const { return session->undoStack()->count(); }
    QString folder() const { return m_folder; }
    ui::ProjectDocument* document() const { return m_window->document(); }
    std::vector<project::ClassInfo> classes() const { return m_window->document()->classes(); }

    ui::BoxCanvas* canvas = nullptr;
    ui::AnnotationSession* session = nullptr;

private:
    QTemporaryDir m_dir;
    QString m_folder;
    std::unique_ptr<ui::MainWindow> m_window;
};

} // namespace

class TestCanvasGestures : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void rubberBandSelectsTheBoxesInside() {
        Editor e;
        QVERIFY(e.open());
        const std::int64_t a = e.draw({20, 20, 60, 60});
        const std::int64_t b = e.draw({80, 30, 120, 70});
        const std::int64_t c = e.draw({140, 20, 220, 100});
        QVERIFY(a && b && c);
        QCOMPARE(e.stored().size(), size_t(3));
        const int steps = e.undoSteps();
        e.key(Qt::Key_Escape);
        QVERIFY(e.canvas->selection().empty());

        // Shift+drag on empty space selects the boxes wholly inside the band, and draws nothing.
        drag(e.canvas, {10, 10}, {130, 80}, Qt::ShiftModifier);
        QCOMPARE(sorted(e.canvas->selection()), sorted({a, b}));
        QCOMPARE(e.stored().size(), size_t(3));
        QCOMPARE(e.undoSteps(), steps);

        // A band that only cuts through a box leaves it out; Ctrl+Shift adds to the selection.
        drag(e.canvas, {130, 10}, {200, 110}, Qt::ShiftModifier | Qt::ControlModifier);
        QCOMPARE(sorted(e.canvas->selection()), sorted({a, b}));
        drag(e.canvas, {130, 10}, {230, 110}, Qt::ShiftModifier | Qt::ControlModifier);
        QCOMPARE(sorted(e.canvas->selection()), sorted({a, b, c}));
        // Dragged the other way (bottom-right to top-left), a plain Shift band replaces the selection, also
        // when the boxes inside it are selected already.
        drag(e.canvas, {230, 110}, {70, 15}, Qt::ShiftModifier);
        QCOMPARE(sorted(e.canvas->selection()), sorted({b, c}));
        // A band over empty image clears the selection.
        drag(e.canvas, {240, 240}, {300, 300}, Qt::ShiftModifier);
        QVERIFY(e.canvas->selection().empty());
        QCOMPARE(e.stored().size(), size_t(3));

        // What the band selected is what Delete removes, in one undoable step.
        drag(e.canvas, {10, 10}, {130, 80}, Qt::ShiftModifier);
        e.key(Qt::Key_Delete);
        auto boxes = e.stored();
        QCOMPARE(boxes.size(), size_t(1));
        checkBox(boxes[0], {140, 20, 220, 100});
        QCOMPARE(e.undoSteps(), steps + 1);
        e.key(Qt::Key_Z, Qt::ControlModifier);
        boxes = e.stored();
        QCOMPARE(boxes.size(), size_t(3));
        std::sort(boxes.begin(), boxes.end(), [](const auto& l, const auto& r) { return l.x1 < r.x1; });
        checkBox(boxes[0], {20, 20, 60, 60});
        checkBox(boxes[1], {80, 30, 120, 70});
    }

    void panMovesTheViewAndNoBox() {
        Editor e;
        QVERIFY(e.open());
        const std::int64_t id = e.draw({60, 60, 160, 140});
        QVERIFY(id);
        const int steps = e.undoSteps();
        const project::ImageStatus status = e.storedStatus();
        const QPointF origin = e.canvas->toWidget({0, 0});
        const double scale = e.canvas->scale();

        // Space+drag starting on the box pans; it neither moves the box nor marks the image reviewed.
        const QPoint start = editor_test::at(e.canvas, 100, 100);
        QTest::keyPress(e.canvas, Qt::Key_Space);
        QTest::mouseMove(e.canvas, start);
        QTest::mousePress(e.canvas, Qt::LeftButton, {}, start);
        for (int step = 1; step <= 4; ++step)
            QTest::mouseMove(e.canvas, start + QPoint(15, 10) * step);
        QTest::mouseRelease(e.canvas, Qt::LeftButton, {}, start + QPoint(60, 40));
        QTest::keyRelease(e.canvas, Qt::Key_Space);
        QCOMPARE(e.canvas->toWidget({0, 0}), origin + QPointF(60, 40));
        QCOMPARE(e.canvas->scale(), scale);
        auto boxes = e.stored();
        QCOMPARE(boxes.size(), size_t(1));
        checkBox(boxes[0], {60, 60, 160, 140});
        QCOMPARE(e.undoSteps(), steps);
        OSPREY_COMPARE_ENUM(e.storedStatus(), status);

        // The middle button pans too, with no key held; it does not touch the selection.
        const std::vector<std::int64_t> selection = e.canvas->selection();
        const QPoint middle = editor_test::at(e.canvas, 110, 100);
        QTest::mousePress(e.canvas, Qt::MiddleButton, {}, middle);
        for (int step = 1; step <= 3; ++step)
            QTest::mouseMove(e.canvas, middle + QPoint(-10, 12) * step);
        QTest::mouseRelease(e.canvas, Qt::MiddleButton, {}, middle + QPoint(-30, 36));
        QCOMPARE(e.canvas->toWidget({0, 0}), origin + QPointF(30, 76));
        QCOMPARE(e.canvas->selection(), selection);
        QCOMPARE(e.stored().size(), size_t(1));
        checkBox(e.stored()[0], {60, 60, 160, 140});
        QCOMPARE(e.undoSteps(), steps);

        // Drawing after a pan still lands on the image pixels under the cursor.
        QVERIFY(e.draw({180, 170, 230, 215}));
        boxes = e.stored();
        QCOMPARE(boxes.size(), size_t(2));
        checkBox(storedBox(boxes, e.canvas->selection().front()), {180, 170, 230, 215});
        // F fits the image again.
        e.key(Qt::Key_F);
        QCOMPARE(e.canvas->toWidget({0, 0}), origin);
    }

    void copyPasteKeepsClassAndCoordinates() {
        Editor e;
        QVERIFY(e.open());
        const auto classes = e.classes();
        QVERIFY(classes.size() >= 2);
        const std::int64_t first = e.draw({30, 40, 90, 100});
        e.key(Qt::Key_2);
        const std::int64_t second = e.draw({150, 60, 250, 180});
        e.key(Qt::Key_1);
        QVERIFY(first && second);
        auto source = e.stored();
        QCOMPARE(storedBox(source, first).classId, classes[1].id);
        QCOMPARE(storedBox(source, second).classId, classes[0].id);

        // Ctrl+C changes nothing in the database.
        e.key(Qt::Key_A, Qt::ControlModifier);
        const int steps = e.undoSteps();
        e.key(Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(e.stored().size(), size_t(2));
        QCOMPARE(e.undoSteps(), steps);

        // Pasted on the same image, the copies sit 12 px down and right so they do not hide the originals.
        e.key(Qt::Key_V, Qt::ControlModifier);
        QCOMPARE(e.stored().size(), size_t(4));
        auto copies = selectedByX(e);
        QCOMPARE(copies.size(), size_t(2));
        checkBox(copies[0], {42, 52, 102, 112});
        QCOMPARE(copies[0].classId, classes[1].id);
        checkBox(copies[1], {162, 72, 262, 192});
        QCOMPARE(copies[1].classId, classes[0].id);
        QCOMPARE(e.undoSteps(), steps + 1);
        e.key(Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(e.stored().size(), size_t(2));

        // On the next image (emptied first) the copies keep their class and coordinates exactly.
        e.key(Qt::Key_D);
        QVERIFY(e.waitForRow(1));
        e.clearBoxes();
        OSPREY_COMPARE_ENUM(e.storedStatus(), project::ImageStatus::New);
        e.key(Qt::Key_V, Qt::ControlModifier);
        QCOMPARE(e.stored().size(), size_t(2));
        copies = selectedByX(e);
        QCOMPARE(copies.size(), size_t(2));
        std::sort(source.begin(), source.end(), [](const auto& l, const auto& r) { return l.x1 < r.x1; });
        for (size_t i = 0; i < 2; ++i) {
            checkBox(copies[i], {source[i].x1, source[i].y1, source[i].x2, source[i].y2});
            QCOMPARE(copies[i].classId, source[i].classId);
            OSPREY_COMPARE_ENUM(copies[i].source, project::BoxSource::Manual);
        }
        OSPREY_COMPARE_ENUM(e.storedStatus(), project::ImageStatus::Labeled);

        // One undo removes both pasted boxes; redo brings both back.
        e.key(Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(e.stored().size(), size_t(0));
        OSPREY_COMPARE_ENUM(e.storedStatus(), project::ImageStatus::New);
        e.key(Qt::Key_Y, Qt::ControlModifier);
        QCOMPARE(e.stored().size(), size_t(2));

        // Ctrl+C with nothing selected keeps the clipboard: pasting again adds the same two boxes.
        e.key(Qt::Key_Escape);
        e.key(Qt::Key_C, Qt::ControlModifier);
        e.key(Qt::Key_D);
        QVERIFY(e.waitForRow(2));
        const size_t third = e.stored().size();
        e.key(Qt::Key_V, Qt::ControlModifier);
        QCOMPARE(e.stored().size(), third + 2);
    }

    void arrowKeysNudge() {
        Editor e;
        QVERIFY(e.open());
        const std::int64_t id = e.draw({40, 40, 100, 80});
        QVERIFY(id);
        const int steps = e.undoSteps();
        auto box = [&] { return storedBox(e.stored(), id); };

        // Plain arrows move by 1 px, Shift+arrows by 10 px; every press is written at once.
        e.key(Qt::Key_Right);
        checkBox(box(), {41, 40, 101, 80});
        e.key(Qt::Key_Down);
        e.key(Qt::Key_Down);
        checkBox(box(), {41, 42, 101, 82});
        e.key(Qt::Key_Left);
        e.key(Qt::Key_Up);
        checkBox(box(), {40, 41, 100, 81});
        e.key(Qt::Key_Right, Qt::ShiftModifier);
        checkBox(box(), {50, 41, 110, 81});
        e.key(Qt::Key_Down, Qt::ShiftModifier);
        checkBox(box(), {50, 51, 110, 91});
        e.key(Qt::Key_Up, Qt::ShiftModifier);
        e.key(Qt::Key_Left, Qt::ShiftModifier);
        checkBox(box(), {40, 41, 100, 81});
        // A quick run of presses is one undo step.
        QCOMPARE(e.undoSteps(), steps + 1);
        e.key(Qt::Key_Z, Qt::ControlModifier);
        checkBox(box(), {40, 40, 100, 80});

        // A press after a pause is a step of its own.
        e.key(Qt::Key_Y, Qt::ControlModifier);
        QTest::qWait(800);
        e.key(Qt::Key_Up);
        checkBox(box(), {40, 40, 100, 80});
        QCOMPARE(e.undoSteps(), steps + 2);

        // At the image's edge the step shortens; the box keeps its size.
        for (int i = 0; i < 6; ++i)
            e.key(Qt::Key_Left, Qt::ShiftModifier);
        checkBox(box(), {0, 40, 60, 80});
        for (int i = 0; i < 5; ++i)
            e.key(Qt::Key_Up, Qt::ShiftModifier);
        checkBox(box(), {0, 0, 60, 40});
        e.key(Qt::Key_Left);
        checkBox(box(), {0, 0, 60, 40});

        // All selected boxes move together; with nothing selected the arrows change nothing.
        const std::int64_t other = e.draw({200, 200, 240, 260});
        e.key(Qt::Key_A, Qt::ControlModifier);
        e.key(Qt::Key_Right, Qt::ShiftModifier);
        checkBox(box(), {10, 0, 70, 40});
        checkBox(storedBox(e.stored(), other), {210, 200, 250, 260});
        e.key(Qt::Key_Escape);
        e.key(Qt::Key_Right);
        checkBox(box(), {10, 0, 70, 40});
        checkBox(storedBox(e.stored(), other), {210, 200, 250, 260});
    }

    void dragIsHeldInMemoryAndStoredOnRelease() {
        Editor e;
        QVERIFY(e.open());
        const std::int64_t id = e.draw({20, 20, 100, 100});
        QVERIFY(id);
        const int steps = e.undoSteps();
        // Where a widget point lands in the image, and a box moved by the whole pixels between two points.
        const auto image = [&](QPoint widget) { return e.canvas->toImage(QPointF(widget)); };
        const auto moved = [&](Rect r, QPoint from, QPoint to) {
            const QPointF d = image(to) - image(from);
            const double dx = std::round(d.x()), dy = std::round(d.y());
            return Rect{r.x1 + dx, r.y1 + dy, r.x2 + dx, r.y2 + dy};
        };
        // A move: every mouse move shows the box where the hand has it; the database keeps the stored
        // geometry until the release, which stores the end as one undo step.
        const Rect drawn{20, 20, 100, 100};
        const QPoint start = editor_test::at(e.canvas, 60, 60);
        QTest::mouseMove(e.canvas, start);
        QTest::mousePress(e.canvas, Qt::LeftButton, {}, start);
        for (int step = 1; step <= 5; ++step) {
            const QPoint now = editor_test::at(e.canvas, 60 + 6 * step, 60 + 2 * step);
            QTest::mouseMove(e.canvas, now);
            checkBox(*e.session->findBox(id), moved(drawn, start, now));
            checkBox(storedBox(e.stored(), id), drawn);
        }
        QCOMPARE(e.undoSteps(), steps);
        const QPoint end = editor_test::at(e.canvas, 90, 70);
        QTest::mouseMove(e.canvas, end);
        QTest::mouseRelease(e.canvas, Qt::LeftButton, {}, end);
        const Rect afterMove = moved(drawn, start, end);
        QVERIFY(afterMove.x1 > 40 && afterMove.y1 > 25); // it did move, about (30, 10)
        checkBox(storedBox(e.stored(), id), afterMove);
        checkBox(*e.session->findBox(id), afterMove);
        QCOMPARE(e.undoSteps(), steps + 1);

        // A resize by the bottom-right handle, the same way: the corner goes to the pixel under the pointer.
        const QPoint corner = e.canvas->toWidget({afterMove.x2, afterMove.y2}).toPoint();
        QTest::mouseMove(e.canvas, corner);
        QTest::mousePress(e.canvas, Qt::LeftButton, {}, corner);
        QTest::mouseMove(e.canvas, corner + QPoint(20, 20));
        const QPoint far = corner + QPoint(40, 60);
        QTest::mouseMove(e.canvas, far);
        const Rect resized{afterMove.x1, afterMove.y1, std::round(image(far).x()),
                           std::round(image(far).y())};
        checkBox(*e.session->findBox(id), resized);
        checkBox(storedBox(e.stored(), id), afterMove);
        QTest::mouseRelease(e.canvas, Qt::LeftButton, {}, far);
        checkBox(storedBox(e.stored(), id), resized);
        QCOMPARE(e.undoSteps(), steps + 2);

        // Escape during a move puts the box back: nothing stored, no step.
        const QPoint inside =
            e.canvas->toWidget({(resized.x1 + resized.x2) / 2, (resized.y1 + resized.y2) / 2}).toPoint();
        QTest::mouseMove(e.canvas, inside);
        QTest::mousePress(e.canvas, Qt::LeftButton, {}, inside);
        QTest::mouseMove(e.canvas, inside + QPoint(10, 5));
        QTest::mouseMove(e.canvas, inside + QPoint(30, 15));
        checkBox(*e.session->findBox(id), moved(resized, inside, inside + QPoint(30, 15)));
        e.key(Qt::Key_Escape);
        checkBox(*e.session->findBox(id), resized);
        QTest::mouseRelease(e.canvas, Qt::LeftButton, {}, inside + QPoint(30, 15));
        checkBox(storedBox(e.stored(), id), resized);
        checkBox(*e.session->findBox(id), resized);
        QCOMPARE(e.undoSteps(), steps + 2);
        // Undo takes the resize back, then the move.
        e.session->undo();
        checkBox(storedBox(e.stored(), id), afterMove);
        e.session->undo();
        checkBox(storedBox(e.stored(), id), drawn);
    }

    void longDragIsOneCommandAndOneWrite() {
        Editor e;
        QVERIFY(e.open());
        const Rect drawn{40, 40, 120, 100};
        const std::int64_t id = e.draw(drawn);
        QVERIFY(id);
        const int steps = e.undoSteps();
        WriteCounter writes(e.folder());
        QVERIFY(writes.ready());
        const std::int64_t versionBefore = writes.dataVersion();
        QSignalSpy documentWrites(e.document(), &ui::ProjectDocument::imageChanged);

        // 60 mouse moves, each a new position of the box: the canvas follows, the database does not.
        const QPoint start = editor_test::at(e.canvas, 80, 70);
        QTest::mouseMove(e.canvas, start);
        QTest::mousePress(e.canvas, Qt::LeftButton, {}, start);
        const QPoint end = editor_test::at(e.canvas, 200, 150);
        constexpr int kMoves = 60;
        double shownX1 = drawn.x1;
        int shownChanges = 0;
        for (int step = 1; step <= kMoves; ++step) {
            QTest::mouseMove(e.canvas, start + (end - start) * step / kMoves);
            const double x1 = e.session->findBox(id)->x1;
            shownChanges += x1 != shownX1 ? 1 : 0;
            shownX1 = x1;
            QCOMPARE(writes.dataVersion(), versionBefore);
        }
        QVERIFY2(shownChanges >= kMoves / 2, qPrintable(QString::number(shownChanges)));
        QCOMPARE(writes.boxUpdates(), std::int64_t(0));
        QCOMPARE(documentWrites.count(), 0);
        QCOMPARE(e.undoSteps(), steps);
        checkBox(storedBox(e.stored(), id), drawn);

        // The release: one command on the undo stack, one transaction, one update of the box, and the
        // stored box is where the canvas showed it.
        QTest::mouseRelease(e.canvas, Qt::LeftButton, {}, end);
        const QPointF d = e.canvas->toImage(QPointF(end)) - e.canvas->toImage(QPointF(start));
        const Rect moved{drawn.x1 + std::round(d.x()), drawn.y1 + std::round(d.y()),
                         drawn.x2 + std::round(d.x()), drawn.y2 + std::round(d.y())};
        QVERIFY(moved.x1 > drawn.x1 + 50 && moved.y1 > drawn.y1 + 30); // it did move, about (120, 80)
        QCOMPARE(e.undoSteps(), steps + 1);
        QCOMPARE(e.session->undoStack()->index(), steps + 1);
        QCOMPARE(documentWrites.count(), 1);
        QCOMPARE(writes.boxUpdates(), std::int64_t(1));
        QVERIFY(writes.dataVersion() != versionBefore);
        checkBox(storedBox(e.stored(), id), moved);
        checkBox(*e.session->findBox(id), moved);

        // Undo writes the original back, again as one transaction.
        const std::int64_t versionAfter = writes.dataVersion();
        e.session->undo();
        QCOMPARE(documentWrites.count(), 2);
        QCOMPARE(writes.boxUpdates(), std::int64_t(2));
        QVERIFY(writes.dataVersion() != versionAfter);
        checkBox(storedBox(e.stored(), id), drawn);
        checkBox(*e.session->findBox(id), drawn);
        QCOMPARE(e.session->undoStack()->index(), steps);
    }

    void cyclingPicksTheOverlappingBoxToEdit() {
        Editor e;
        QVERIFY(e.open());
        const std::int64_t big = e.draw({20, 20, 220, 220});
        e.key(Qt::Key_W); // draw even though the drag starts over a box
        const std::int64_t middle = e.draw({50, 50, 150, 150});
        e.key(Qt::Key_W);
        const std::int64_t small = e.draw({70, 70, 110, 110});
        QVERIFY(big && middle && small);
        e.key(Qt::Key_Escape);

        // Clicks on the spot under all three go smallest first, then cycle through the stack.
        const QPoint spot = editor_test::at(e.canvas, 90, 90);
        const std::vector<std::int64_t> order{small, middle, big, small};
        for (const std::int64_t expected : order) {
            QTest::mouseClick(e.canvas, Qt::LeftButton, {}, spot);
            QCOMPARE(e.canvas->selection(), std::vector<std::int64_t>{expected});
        }
        // Cycle on to the middle box and drag it from that spot: only it moves.
        QTest::mouseClick(e.canvas, Qt::LeftButton, {}, spot);
        QCOMPARE(e.canvas->selection(), std::vector<std::int64_t>{middle});
        drag(e.canvas, {90, 90}, {100, 95});
        auto boxes = e.stored();
        checkBox(storedBox(boxes, middle), {60, 55, 160, 155});
        checkBox(storedBox(boxes, small), {70, 70, 110, 110});
        checkBox(storedBox(boxes, big), {20, 20, 220, 220});
        // Cycle on to the big box and delete it: the two inside stay.
        QTest::mouseClick(e.canvas, Qt::LeftButton, {}, spot);
        QCOMPARE(e.canvas->selection(), std::vector<std::int64_t>{big});
        e.key(Qt::Key_Delete);
        boxes = e.stored();
        QCOMPARE(boxes.size(), size_t(2));
        QVERIFY(storedBox(boxes, big).id == 0);
        QVERIFY(storedBox(boxes, small).id != 0 && storedBox(boxes, middle).id != 0);
    }
};

QTEST_MAIN(TestCanvasGestures)
#include "tst_canvas_gestures.moc"
