// Issue 20: clicking an epoch's point on a run's chart opens "Worst images at epoch N" as a queue in the
// editor, in the order of that epoch's per-image validation results; D walks it, the overlay draws the
// epoch's detections and marks, and edits stay undoable. The run is real: a short `osprey-cli train` on a
// demo project (from the pretrained shapes detector in ../shared/fixtures when present, so the chart has
// confident detections to draw; from scratch otherwise). OSPREY_SCREENSHOT_DIR keeps a screenshot.
#include "common/strings.h"
#include "demo/demo_dataset.h"
#include "planner/measurements.h"
#include "planner/planner_paths.h"
#include "run/run_folder.h"
#include "run/val_results.h"
#include "ui/annotate/annotation_editor.h"
#include "ui/annotate/annotation_session.h"
#include "ui/annotate/box_canvas.h"
#include "ui/annotate/editor_actions.h"
#include "ui/annotate/validation_queue.h"
#include "ui/main/main_window.h"
#include "ui/project/image_list_model.h"
#include "ui/train/confusion_matrix_dialog.h"
#include "ui/train/train_actions.h"
#include "ui/train/train_panel.h"
#include "ui/train/training_charts.h"
#include "ui/train/training_view.h"

#include "app/cli_process.h"

#include <QCheckBox>
#include <QDockWidget>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <qcustomplot.h>

using namespace osprey;
namespace fs = std::filesystem;

namespace {

/// Presses the left button on the points of `epoch` in the chart `plot`.
void clickEpoch(QCustomPlot* plot, int epoch) {
    const QPoint at(qRound(plot->xAxis->coordToPixel(epoch)), plot->axisRect()->center().y());
    QTest::mouseClick(plot, Qt::LeftButton, {}, at);
}

std::vector<std::int64_t> order(const ui::ImageListModel& model) {
    std::vector<std::int64_t> ids;
    for (int row = 0; row < model.rowCount(); ++row)
        ids.push_back(model.imageIdAt(row));
    return ids;
}

} // namespace

class TestWorstImagesQueue : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void chartPointOpensTheQueueAtThatEpoch() {
        QTemporaryDir dir;
        const fs::path folder = fs::path(dir.path().toStdString()) / "demo";
        const fs::path weights =
            OSPREY_SHARED_DIR "/fixtures/models/ultralytics-trained/yolov8n-shapes-best.pt";
        const bool pretrained = fs::exists(weights);
        demo::DemoOptions options;
        options.images = 40;
        options.imageSizePx = pretrained ? 320 : 96;
        options.seed = 5;
        QVERIFY(demo::createDemoProject(folder, options).hasValue());
        // The planner's measured points live in a cache of the test's own (the trainer inherits it): one
        // point for this run's model, imgsz and batch, so its start records an estimate (issue 19).
        qputenv("XDG_CACHE_HOME", dir.filePath("cache").toUtf8());
        planner::Measurement point;
        point.machine = planner::machineId();
        point.device = "cpu";
        point.model = "yolov8n";
        point.imgsz = options.imageSizePx;
        point.batch = 16;
        point.trainImagesPerS = 5;
        point.valImagesPerS = 15;
        point.epochOverheadS = 0.5;
        point.startupS = 3;
        point.date = osprey::utcNowIso8601();
        QVERIFY(planner::recordMeasurement(planner::measurementsPath(), point));
        QStringList args{"train",     test::pathArg("project", folder),
                         "epochs=2",  QString("imgsz=%1").arg(options.imageSizePx),
                         "batch=16",  "workers=1",
                         "threads=2", "device=cpu",
                         "name=w",    "model=yolov8n"};
        if (pretrained)
            args << test::pathArg("weights", weights);
        auto run = test::runCli(args, 600000);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.right(3000)));
        auto epochs = run::readValidationFile(run::RunFolder(folder / "runs" / "w").validation());
        QVERIFY2(epochs && epochs->size() == 2, epochs ? "not 2 epochs" : epochs.message().c_str());

        ui::MainWindow window;
        window.resize(1500, 950);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openProject(QString::fromStdString(folder.string()), true));
        window.trainActions()->showDashboard();
        ui::TrainPanel* panel = window.trainActions()->panel();
        QVERIFY(panel);
        QSignalSpy runOpened(panel, &ui::TrainPanel::runOpened);
        panel->openRun("w");
        QVERIFY(runOpened.wait(10000));
        // "estimated X, took Y" after the run (issue 19): 3 s + 2 x (32 / 5 + 8 / 15 + 0.5) s = 0:18.
        const QString status = panel->view()->statusText();
        QVERIFY2(status.contains("Planner: estimated 0:18 (") && status.contains("), took "),
                 qPrintable(status));
        ui::TrainingCharts* charts = panel->view()->charts();
        charts->refresh();
        QCustomPlot* plot = charts->plots()[3]; // mAP50 and mAP50-95
        ui::ValidationQueue* queue = window.validationQueue();
        QSignalSpy opened(queue, &ui::ValidationQueue::opened);

        // A click between two epochs' points opens nothing.
        const QPoint between(qRound((plot->xAxis->coordToPixel(1) + plot->xAxis->coordToPixel(2)) / 2),
                             plot->axisRect()->center().y());
        QCOMPARE(charts->epochAt(3, between), 0);

        for (const int epoch : {2, 1}) {
            clickEpoch(plot, epoch);
            QVERIFY(opened.wait(10000));
            QVERIFY(opened.last().at(0).toInt() > 0);
            QVERIFY(queue->isOpen());
            QCOMPARE(queue->validation()->epoch, epoch);
            const auto expected = run::findEpoch(*epochs, epoch);
            QVERIFY(expected);
            std::vector<std::int64_t> ids;
            for (const auto& image : expected->worst)
                ids.push_back(image.imageId);
            QCOMPARE(order(*window.imageModel()), ids);
            QVERIFY(window.imageModel()->imageOrderTitle().contains(QString("epoch %1").arg(epoch)));
            QCOMPARE(window.editor()->canvas()->overlay(), static_cast<ui::CanvasOverlay*>(queue));
            ui::AnnotationSession* session = window.editor()->session();
            QTRY_COMPARE_WITH_TIMEOUT(session->imageId(), ids.front(), 5000);
            QVERIFY(queue->resultFor(ids.front()) != nullptr);
        }

        // D walks the queue; an edit is undoable as always.
        ui::AnnotationSession* session = window.editor()->session();
        const auto ids = order(*window.imageModel());
        QVERIFY(ids.size() >= 2);
        QAction* next = window.editorActions()->action("image.next");
        QAction* previous = window.editorActions()->action("image.previous");
        QCOMPARE(next->shortcut(), QKeySequence(Qt::Key_D));
        QCOMPARE(previous->shortcut(), QKeySequence(Qt::Key_A));
        next->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(session->imageId(), ids[1], 5000);
        QTRY_VERIFY_WITH_TIMEOUT(window.editor()->canvas()->hasImage(), 5000);
        const size_t boxes = session->boxes().size();
        QVERIFY(boxes > 0);
        window.editor()->canvas()->selectAll();
        window.editor()->deleteSelection();
        QCOMPARE(session->boxes().size(), size_t(0));
        session->undoStack()->undo();
        QCOMPARE(session->boxes().size(), boxes);
        previous->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(session->imageId(), ids[0], 5000);
        QTRY_VERIFY_WITH_TIMEOUT(window.editor()->canvas()->hasImage(), 5000);

        const QString shots = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            QTest::qWait(300);
            QVERIFY(window.grab().save(shots + "/worst_images_queue.png"));
            QVERIFY(window.trainActions()->dock()->grab().save(shots + "/worst_images_dashboard.png"));
        }

        // The confusion matrix at epoch 2: counts as recorded, rows normalised on demand, and a click on the
        // cell with the most images opens them as a queue.
        ui::ConfusionMatrixDialog* matrix = panel->showConfusionMatrix(2);
        QVERIFY(matrix);
        QSignalSpy loaded(matrix, &ui::ConfusionMatrixDialog::loaded);
        QVERIFY(loaded.wait(5000));
        QCOMPARE(matrix->epoch(), 2);
        const auto second = run::findEpoch(*epochs, 2);
        const int side = static_cast<int>(second->classNames.size()) + 1;
        QCOMPARE(matrix->table()->rowCount(), side);
        const run::ValCell* busiest = nullptr;
        for (int actual = 0; actual < side; ++actual)
            for (int detected = 0; detected < side; ++detected) {
                QCOMPARE(matrix->cellText(actual, detected),
                         QString::number(second->matrixCount(detected, actual)));
                const run::ValCell* cell = second->cell(detected, actual);
                if (cell && (!busiest || cell->imageIds.size() > busiest->imageIds.size()))
                    busiest = cell;
            }
        QVERIFY(busiest);
        matrix->normalised()->setChecked(true);
        double rowSum = 0;
        for (int detected = 0; detected < side; ++detected)
            rowSum += matrix->cellText(busiest->actual, detected).toDouble();
        QVERIFY2(std::abs(rowSum - 1.0) < 0.03, qPrintable(QString::number(rowSum)));
        if (!shots.isEmpty())
            QVERIFY(matrix->grab().save(shots + "/confusion_matrix.png"));
        QTableWidgetItem* item = matrix->table()->item(busiest->actual, busiest->detected);
        QTest::mouseClick(matrix->table()->viewport(), Qt::LeftButton, {},
                          matrix->table()->visualItemRect(item).center());
        QVERIFY(opened.wait(10000));
        QCOMPARE(order(*window.imageModel()), busiest->imageIds);
        QVERIFY(window.imageModel()->imageOrderTitle().contains("Confusion matrix, epoch 2"));
        QTRY_COMPARE_WITH_TIMEOUT(session->imageId(), busiest->imageIds.front(), 5000);
        matrix->close();

        // Clearing the list's order ends the queue and gives the canvas back.
        window.imageModel()->clearImageOrder();
        QVERIFY(!queue->isOpen());
        QVERIFY(window.editor()->canvas()->overlay() != static_cast<ui::CanvasOverlay*>(queue));
    }
};

QTEST_MAIN(TestWorstImagesQueue)
#include "tst_worst_images_queue.moc"
