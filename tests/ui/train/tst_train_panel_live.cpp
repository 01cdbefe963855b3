// A real tiny training run driven through the TrainPanel, offscreen: wait for two epoch events, check
// the chart data, the progress and the runs-table row, then Stop and check that the run was saved.

#include "demo/demo_dataset.h"
#include "ui/main/main_window.h"
#include "ui/project/project_document.h"
#include "ui/train/runs_table.h"
#include "ui/train/train_panel.h"
#include "ui/train/train_settings.h"
#include "ui/train/training_charts.h"
#include "ui/train/training_run_model.h"
#include "ui/train/training_view.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <qcustomplot.h>

using namespace osprey;
using namespace osprey::ui;

class TestTrainPanelLive : public QObject {
    Q_OBJECT
private slots:
    void trainsTwoEpochsThenStops_data();
    void trainsTwoEpochsThenStops();
};

void TestTrainPanelLive::trainsTwoEpochsThenStops_data() {
    QTest::addColumn<QString>("model");
    QTest::newRow("yolov8n") << "yolov8n";
    QTest::newRow("yolo26n") << "yolo26n"; // both head branches trained; its third loss is the L1 term
}

void TestTrainPanelLive::trainsTwoEpochsThenStops() {
    QFETCH(QString, model);
    QTemporaryDir dir;
    const QString folder = dir.filePath("demo");
    demo::DemoOptions options;
    options.images = 16;
    options.imageSizePx = 64;
    QVERIFY(demo::createDemoProject(folder.toStdString(), options).hasValue());
    QString error;
    auto document = ProjectDocument::open(folder, &error);
    QVERIFY2(document, qPrintable(error));

    if (!qEnvironmentVariable("OSPREY_SCREENSHOT_DIR").isEmpty())
        applyTheme(); // the screenshot shows the dashboard as users see it
    TrainPanel panel(document.get());
    panel.setTrainerPath(qEnvironmentVariable("OSPREY_TEST_CLI", OSPREY_CLI_PATH));
    panel.resize(1400, 800);
    panel.show();
    TrainForm* form = panel.form();
    QVERIFY(form->setValue("model", model));
    QVERIFY(form->setValue("epochs", 30));
    QVERIFY(form->setValue("imgsz", 64));
    QVERIFY(form->setValue("batch", 8));
    QVERIFY(form->setValue("workers", 1));
    QVERIFY(form->setValue("name", "gui"));
    QVERIFY2(panel.start(&error), qPrintable(error));
    QVERIFY(panel.isRunning());

    QElapsedTimer timer;
    timer.start();
    TrainingRunModel* live = panel.liveModel();
    QTRY_VERIFY_WITH_TIMEOUT(live->epochs().size() >= 2 || !panel.isRunning(), 240000);
    qInfo("two epochs after %lld ms", timer.elapsed());
    QVERIFY2(panel.isRunning(), qPrintable(live->statusMessage()));
    QCOMPARE(live->status(), TrainingRunModel::Status::Running);
    QCOMPARE(live->epochs().mid(0, 2), (QVector<double>{1, 2}));

    panel.view()->refresh();
    panel.view()->charts()->refresh();
    QCPGraph* box = panel.view()->charts()->graph("train/box_loss");
    QVERIFY(box->data()->size() >= 2);
    for (int i = 0; i < 2; ++i) {
        const double value = (box->data()->constBegin() + i)->value;
        QCOMPARE(value, live->series("train/box_loss")[i]);
        QVERIFY(std::isfinite(value) && value > 0);
        const double map = live->series("metrics/mAP50-95(B)")[i];
        QVERIFY(map >= 0 && map <= 1);
        QVERIFY(live->series("lr/pg0")[i] > 0);
    }
    QCOMPARE(live->progress().epochs, 30);
    QVERIFY(live->progress().epoch >= 2);
    QVERIFY(live->progress().imagesPerS > 0);
    QVERIFY(panel.view()->progressBar()->value() > 0);
    QVERIFY(panel.view()->progressText().contains("epoch"));
    QVERIFY(panel.view()->progressText().contains("images/s"));

    panel.reloadRuns();
    if (const QString shots = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR"); !shots.isEmpty()) {
        QTest::qWait(150); // a throttled refresh and the layout settle before the grab
        panel.grab().save(shots + "/dashboard-live-" + model + ".png");
    }
    QTableWidget* runs = panel.runsTable();
    QCOMPARE(runs->rowCount(), 1);
    QCOMPARE(runs->item(0, RunsTable::ColumnName)->text(), QString("gui"));
    QCOMPARE(runs->item(0, RunsTable::ColumnStatus)->text(), QString("running"));
    QCOMPARE(runs->item(0, RunsTable::ColumnModel)->text(), model);
    // The third loss chart names what the run logs there.
    const auto* third = qobject_cast<QCPTextElement*>(
        panel.view()->charts()->graph("train/dfl_loss")->parentPlot()->plotLayout()->element(0, 0));
    QVERIFY(third);
    QCOMPARE(third->text(), model.startsWith("yolo26") ? QString("L1 box loss") : QString("DFL loss"));
    QVERIFY(std::isfinite(live->series("train/dfl_loss")[0]) && live->series("train/dfl_loss")[0] > 0);
    QCOMPARE(runs->item(0, RunsTable::ColumnEpochs)->text(), QString("30"));

    QSignalSpy ended(&panel, &TrainPanel::runEnded);
    panel.stop();
    QVERIFY(ended.wait(120000));
    QCOMPARE(live->status(), TrainingRunModel::Status::Stopped);
    QVERIFY(QFileInfo::exists(folder + "/runs/gui/weights/last.pt"));
    QCOMPARE(runs->item(0, RunsTable::ColumnStatus)->text(), QString("stopped"));

    // The stopped run replays from its events.jsonl with the same epochs.
    QSignalSpy opened(&panel, &TrainPanel::runOpened);
    panel.openRun("gui");
    QVERIFY(opened.wait(10000));
    QCOMPARE(panel.view()->model(), panel.replayModel());
    QCOMPARE(panel.replayModel()->epochs(), live->epochs());
    QCOMPARE(panel.replayModel()->series("train/box_loss"), live->series("train/box_loss"));
    QCOMPARE(panel.replayModel()->status(), TrainingRunModel::Status::Stopped);
}

QTEST_MAIN(TestTrainPanelLive)
#include "tst_train_panel_live.moc"
