// Model proposals in the editor with a real predictor (the shared Darknet yolo-fastest-1.1 COCO model on a
// COCO photo with three persons), driven by real key and mouse events in the main window (offscreen):
// suggest, the sliders re-filter without running the model again, Tab/click select, accept one, reject
// one, accept all, undo, Esc, and a result for an image no longer shown is discarded. After each step the
// database is read through a second connection.
#include "fixtures.h"
#include "persons_photo.h"
#include "project_printers.h"
#include "run/run_curves.h"
#include "run/run_folder.h"
#include "ui/annotate/annotation_editor.h"
#include "ui/annotate/annotation_session.h"
#include "ui/annotate/box_canvas.h"
#include "ui/annotate/editor_actions.h"
#include "ui/annotate/editor_test_util.h"
#include "ui/annotate/shortcut_registry.h"
#include "ui/assist/assist_bar.h"
#include "ui/assist/assist_controller.h"
#include "ui/assist/auto_label_dialog.h"
#include "ui/main/main_window.h"
#include "ui/project/image_list_model.h"
#include "ui/project/project_document.h"

#include <QDoubleSpinBox>
#include <QProgressBar>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>

#include <fstream>

using namespace osprey;
using editor_test::storedBoxes;

namespace {

size_t modelBoxes(const std::vector<project::BoxRecord>& boxes) {
    return static_cast<size_t>(std::count_if(
        boxes.begin(), boxes.end(), [](const auto& box) { return box.source == project::BoxSource::Model; }));
}

} // namespace

class TestModelProposals : public QObject {
    Q_OBJECT
private:
    ui::MainWindow* m_window = nullptr;
    ui::AnnotationEditor* m_editor = nullptr;
    ui::AssistController* m_assist = nullptr;
    ui::BoxCanvas* m_canvas = nullptr;

    void key(int keyCode, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
        QTest::keyClick(m_canvas, Qt::Key(keyCode), modifiers);
    }
    bool waitForImage(qint64 id) {
        return QTest::qWaitFor([&] { return m_editor->session()->imageId() == id && m_canvas->hasImage(); },
                               5000);
    }
    int shown() const { return static_cast<int>(m_assist->visible().size()); }
    /// Presses `keyCode` `times` times on `slider`.
    static void press(QSlider* slider, Qt::Key keyCode, int times = 1) {
        for (int i = 0; i < times; ++i)
            QTest::keyClick(slider, keyCode);
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void suggestAcceptRejectUndo() {
        OSPREY_REQUIRE_FIXTURE("models/yolo-fastest-1.1/yolo-fastest-1.1.weights");
        OSPREY_REQUIRE_FIXTURE("models/fastestdet/images/2.jpg");
        QTemporaryDir dir;
        const QString folder = editor_test::makeDemo(dir, 2, 160);
        QVERIFY(!folder.isEmpty());

        // The COCO photo with three persons, and the class "person", join the demo project.
        qint64 photoId = 0;
        {
            auto project = project::Project::open(folder.toStdString());
            QVERIFY(project);
            QVERIFY((*project)->classes().add("person"));
            photoId = test::addPersonsPhoto(**project, folder);
            QVERIFY(photoId != 0);
        }

        ui::MainWindow window;
        m_window = &window;
        window.resize(1400, 900);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(window.openProject(folder, true));
        m_editor = window.editor();
        m_canvas = m_editor->canvas();
        m_assist = m_editor->assist();
        QVERIFY(m_assist);
        auto* actions = m_editor->findChild<ui::EditorActions*>();
        QVERIFY(actions);

        // The new keys are registered (menu, cheat sheet, editable) and conflict with none.
        QCOMPARE(actions->action("assist.suggest")->shortcut(), QKeySequence(Qt::Key_I));
        QCOMPARE(actions->action("assist.reject")->shortcut(), QKeySequence(Qt::Key_X));
        QVERIFY(ui::ShortcutRegistry::conflicts(actions->registry()->current()).isEmpty());

        // Walk to the photo with D.
        m_canvas->setFocus();
        for (int i = 0; i < 4 && m_editor->session()->imageId() != photoId; ++i) {
            key(Qt::Key_D);
            QTest::qWait(50);
        }
        QVERIFY(waitForImage(photoId));
        const size_t before = storedBoxes(folder, photoId).size();

        const auto dirModel = test::fixture("models/yolo-fastest-1.1");
        m_assist->setModel({dirModel / "yolo-fastest-1.1.cfg", dirModel / "yolo-fastest-1.1.weights",
                            dirModel / "coco.names", "cpu"});
        {
            auto project = project::Project::open(folder.toStdString());
            QVERIFY(QString::fromStdString((*project)->settings().get("assist.model").value())
                        .startsWith(QString::fromStdString((dirModel / "yolo-fastest-1.1.cfg").string())));
        }

        // I runs the model off the GUI thread: the busy indicator shows until the proposals are ready.
        key(Qt::Key_I);
        QVERIFY(m_assist->busy());
        QVERIFY(m_editor->assistBar()->busyIndicator()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!m_assist->busy(), 60000);
        QVERIFY(!m_editor->assistBar()->busyIndicator()->isVisible());
        QCOMPARE(m_assist->predictionCount(), 1);
        const int atDefault = shown();
        QVERIFY2(atDefault >= 3, qPrintable(QString::number(atDefault)));
        for (const int index : m_assist->visible())
            QVERIFY(m_assist->candidates()[static_cast<size_t>(index)].score >= 0.25f);
        QCOMPARE(storedBoxes(folder, photoId).size(), before); // proposals are not boxes yet

        // The sliders re-filter the cached candidates live; the model does not run again.
        QSlider* conf = m_editor->assistBar()->confidenceSlider();
        QSlider* iou = m_editor->assistBar()->iouSlider();
        conf->setFocus();
        press(conf, Qt::Key_End); // 0.95
        const int strict = shown();
        QVERIFY2(strict < atDefault, qPrintable(QStringLiteral("%1 vs %2").arg(strict).arg(atDefault)));
        press(conf, Qt::Key_Home); // 0.01
        const int loose = shown();
        QVERIFY2(loose > atDefault, qPrintable(QStringLiteral("%1 vs %2").arg(loose).arg(atDefault)));
        press(conf, Qt::Key_Right, 24); // back to 0.25
        QCOMPARE(conf->value(), 25);
        QCOMPARE(shown(), atDefault);
        iou->setFocus();
        press(iou, Qt::Key_Home); // 0.05: any overlap within a class suppresses
        QVERIFY(shown() <= atDefault);
        press(iou, Qt::Key_PageUp, 13); // back to 0.70
        QCOMPARE(iou->value(), 70);
        QCOMPARE(shown(), atDefault);
        QCOMPARE(m_assist->predictionCount(), 1);

        // Tab selects the next proposal; Enter accepts it as a model box with its score.
        m_canvas->setFocus();
        if (const QString png = qEnvironmentVariable("OSPREY_PROPOSALS_PNG"); !png.isEmpty()) {
            QTest::qWait(100);
            QVERIFY(window.grab().save(png)); // for a look under xvfb-run
        }
        QCOMPARE(m_assist->selected(), m_assist->visible()[0]);
        key(Qt::Key_Tab);
        const int second = m_assist->visible()[1];
        QCOMPARE(m_assist->selected(), second);
        const auto accepted = m_assist->candidates()[static_cast<size_t>(second)];
        key(Qt::Key_Return);
        auto stored = storedBoxes(folder, photoId);
        QCOMPARE(stored.size(), before + 1);
        QCOMPARE(modelBoxes(stored), size_t(1));
        const auto& box = stored.back();
        OSPREY_COMPARE_ENUM(box.source, project::BoxSource::Model);
        QVERIFY(box.score.has_value());
        QVERIFY(qAbs(*box.score - double(accepted.score)) < 1e-6);
        QVERIFY(qAbs(box.x1 - accepted.rect.left()) < 1e-3 && qAbs(box.y2 - accepted.rect.bottom()) < 1e-3);
        QCOMPARE(shown(), atDefault - 1);

        // A click on a proposal selects it; X rejects it: gone from the view, nothing stored.
        // (The smallest proposal: a click inside a big one that holds a smaller one picks the smaller.)
        const auto area = [this](int i) {
            const QRectF r = m_assist->candidates()[static_cast<size_t>(i)].rect;
            return r.width() * r.height();
        };
        const int target = *std::min_element(m_assist->visible().begin(), m_assist->visible().end(),
                                             [&](int a, int b) { return area(a) < area(b); });
        if (m_assist->selected() == target)
            key(Qt::Key_Tab);
        QVERIFY(m_assist->selected() != target);
        const QPointF centre = m_assist->candidates()[static_cast<size_t>(target)].rect.center();
        QTest::mouseClick(m_canvas, Qt::LeftButton, {}, editor_test::at(m_canvas, centre.x(), centre.y()));
        QCOMPARE(m_assist->selected(), target);
        key(Qt::Key_X);
        QCOMPARE(shown(), atDefault - 2);
        QCOMPARE(storedBoxes(folder, photoId).size(), before + 1);

        // Shift+Enter accepts the rest in one undo step.
        const int undoBefore = m_editor->session()->undoStack()->count();
        const int rest = shown();
        key(Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(shown(), 0);
        stored = storedBoxes(folder, photoId);
        QCOMPARE(modelBoxes(stored), size_t(1 + rest));
        for (const auto& b : stored)
            if (b.source == project::BoxSource::Model)
                QVERIFY(b.score && *b.score >= 0.25);
        QCOMPARE(m_editor->session()->undoStack()->count(), undoBefore + 1);

        // Undo takes back the accept-all in one step (its proposals show again), then the single accept;
        // the rejected proposal stays hidden. Redo hides them again.
        key(Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(modelBoxes(storedBoxes(folder, photoId)), size_t(1));
        QCOMPARE(shown(), rest);
        key(Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(storedBoxes(folder, photoId).size(), before);
        QCOMPARE(modelBoxes(storedBoxes(folder, photoId)), size_t(0));
        QCOMPARE(shown(), atDefault - 1);
        QCOMPARE(m_assist->selected(), second);
        key(Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(modelBoxes(storedBoxes(folder, photoId)), size_t(1));
        QCOMPARE(shown(), atDefault - 2);
        key(Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(modelBoxes(storedBoxes(folder, photoId)), size_t(0));

        // Suggest again, Esc clears the proposals without storing anything.
        key(Qt::Key_I);
        QTRY_VERIFY_WITH_TIMEOUT(!m_assist->busy(), 60000);
        QCOMPARE(m_assist->predictionCount(), 2);
        QCOMPARE(shown(), atDefault);
        key(Qt::Key_Escape);
        QCOMPARE(shown(), 0);
        QCOMPARE(storedBoxes(folder, photoId).size(), before);

        // A result for an image that is no longer shown is discarded.
        key(Qt::Key_I);
        QVERIFY(m_assist->busy());
        key(Qt::Key_A);
        QVERIFY(m_editor->session()->imageId() != photoId);
        QTRY_VERIFY_WITH_TIMEOUT(!m_assist->busy(), 60000);
        QCOMPARE(m_assist->predictionCount(), 3);
        QCOMPARE(shown(), 0);

        // Shift+I: suggest on every image, this one at once and the photo when D opens it.
        key(Qt::Key_I, Qt::ShiftModifier);
        QVERIFY(actions->action("assist.everyImage")->isChecked());
        QTRY_VERIFY_WITH_TIMEOUT(!m_assist->busy(), 60000);
        QCOMPARE(m_assist->predictionCount(), 4);
        key(Qt::Key_D);
        QVERIFY(waitForImage(photoId));
        QTRY_VERIFY_WITH_TIMEOUT(!m_assist->busy() && shown() > 0, 60000);
        QCOMPARE(m_assist->predictionCount(), 5);
        QCOMPARE(shown(), atDefault);
    }

    void aRunsModelBringsItsBestF1Confidence() {
        // A best.pt in a run folder whose curves.json found the best F1 at 0.43: choosing it moves the
        // confidence slider there, and the auto-label dialog starts from it. A model outside a run leaves
        // the slider where the user put it.
        QTemporaryDir dir;
        const QString folder = editor_test::makeDemo(dir, 2, 160);
        QVERIFY(!folder.isEmpty());
        const std::filesystem::path runDir = folder.toStdString() + "/runs/r1";
        std::filesystem::create_directories(runDir / "weights");
        std::ofstream(runDir / "weights" / "best.pt") << "weights";
        run::RunCurves curves;
        curves.classNames = {"circle"};
        curves.confusionMatrix.assign(4, 0.0);
        curves.bestConfidence = 0.43;
        QVERIFY(run::writeRunCurves(run::RunFolder(runDir).curves(), curves).hasValue());

        ui::MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openProject(folder, true));
        auto* assist = window.editor()->assist();
        QSlider* conf = window.editor()->assistBar()->confidenceSlider();
        conf->setValue(30);
        assist->setModel({folder.toStdString() + "/elsewhere.pt", {}, {}, "cpu"});
        QCOMPARE(conf->value(), 30);
        assist->setModel({runDir / "weights" / "best.pt", {}, {}, "cpu"});
        QCOMPARE(conf->value(), 43);
        QCOMPARE(assist->confidence(), 0.43f);
        ui::AutoLabelDialog dialog(window.document(), assist->source(), &window);
        QCOMPARE(dialog.findChild<QDoubleSpinBox*>(QStringLiteral("conf"))->value(), 0.43);
    }

    void projectWithoutClassesTakesTheModelClasses() {
        OSPREY_REQUIRE_FIXTURE("models/yolo-fastest-1.1/yolo-fastest-1.1.weights");
        OSPREY_REQUIRE_FIXTURE("models/fastestdet/images/2.jpg");
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("empty"));
        qint64 photoId = 0;
        {
            auto project = project::Project::create(folder.toStdString());
            QVERIFY(project);
            photoId = test::addPersonsPhoto(**project, folder);
            QVERIFY(photoId != 0);
        }
        ui::MainWindow window;
        window.resize(1200, 800);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(window.openProject(folder, true));
        m_editor = window.editor();
        m_canvas = m_editor->canvas();
        m_assist = m_editor->assist();
        QVERIFY(window.document()->classes().empty());
        QVERIFY(QTest::qWaitFor([&] { return m_editor->session()->imageId() == photoId; }, 5000));
        const auto dirModel = test::fixture("models/yolo-fastest-1.1");
        m_assist->setModel({dirModel / "yolo-fastest-1.1.cfg", dirModel / "yolo-fastest-1.1.weights",
                            dirModel / "coco.names", "cpu"});
        m_canvas->setFocus();
        key(Qt::Key_I);
        QTRY_VERIFY_WITH_TIMEOUT(!m_assist->busy(), 60000);
        QCOMPARE(window.document()->classes().size(), size_t(80));
        QCOMPARE(window.document()->classes()[0].name, std::string("person"));
        const int proposals = shown();
        QVERIFY(proposals >= 3);
        key(Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(modelBoxes(storedBoxes(folder, photoId)), static_cast<size_t>(proposals));

        // The project remembers its model: opened again, the editor suggests with it at once.
        QVERIFY(window.openProject(folder, true));
        m_editor = window.editor();
        m_canvas = m_editor->canvas();
        m_assist = m_editor->assist();
        QCOMPARE(m_assist->modelName(), QStringLiteral("yolo-fastest-1.1.cfg"));
        QVERIFY(QTest::qWaitFor([&] { return m_editor->session()->imageId() == photoId; }, 5000));
        m_canvas->setFocus();
        key(Qt::Key_I);
        QTRY_VERIFY_WITH_TIMEOUT(!m_assist->busy(), 60000);
        QCOMPARE(shown(), proposals);
    }
};

QTEST_MAIN(TestModelProposals)
#include "tst_model_proposals.moc"
