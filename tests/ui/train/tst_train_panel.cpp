// TrainPanel without a real trainer: the form built from the field table and the command line it makes,
// a trainer that dies without a final event (a clear crash message), the actions in the main menu, and
// the planner's table with every column in view at 1280 x 800.

#include "run/train_options.h"
#include "ui/project/project_document.h"
#include "ui/train/train_panel.h"
#include "ui/train/train_settings.h"
#include "ui/train/training_run_model.h"
#include "ui/train/training_view.h"

#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QHeaderView>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace osprey::ui;

namespace {

/// Writes an executable shell script that stands in for osprey-cli; false when it cannot.
bool writeTrainer(const QString& path, const QByteArray& body) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write("#!/bin/sh\n" + body) < 0)
        return false;
    file.close();
    return file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

} // namespace

class TestTrainPanel : public QObject {
    Q_OBJECT
private slots:
    void formComesFromTheFieldTable();
    void crashedTrainerGivesAClearMessage();
    void followsARunTrainingInAnotherProcess();
    void plannerTableFitsAt1280x800();
    void mlflowRowsAreRememberedPerProject();
};

void TestTrainPanel::mlflowRowsAreRememberedPerProject() {
    qunsetenv("MLFLOW_TRACKING_URI");
    QTemporaryDir dir;
    QString error;
    auto document = ProjectDocument::create(dir.filePath("p"), &error);
    QVERIFY2(document, qPrintable(error));
    const QString script = dir.filePath("fake-cli");
    QVERIFY(writeTrainer(script, "exit 0\n"));
    {
        TrainPanel panel(document.get());
        panel.setTrainerPath(script);
        auto* form = panel.findChild<TrainForm*>();
        QVERIFY(form);
        QVERIFY(!form->value("track").toBool());
        QVERIFY(!form->editor("mlflow")->isEnabled());
        // Off: the switch decides even when the environment names a server.
        QSignalSpy ended(&panel, &TrainPanel::runEnded);
        QVERIFY(panel.start(&error));
        QVERIFY(panel.lastArguments().contains("mlflow=none"));
        QVERIFY(ended.wait(10000));
        // On without a usable address: refused before anything starts, with the reason.
        form->setValue("track", true);
        QVERIFY(form->editor("mlflow")->isEnabled());
        for (const char* bad : {"", "mlflow.example:5000", "http://me:secret@mlflow.example"}) {
            form->setValue("mlflow", QString::fromLatin1(bad));
            QVERIFY2(!panel.start(&error), bad);
            QVERIFY(error.contains("MLflow server"));
        }
        form->setValue("mlflow", "http://127.0.0.1:5000");
        form->setValue("mlflow_experiment", "parts line 3");
        QVERIFY2(panel.start(&error), qPrintable(error));
        QVERIFY(panel.lastArguments().contains("mlflow=http://127.0.0.1:5000"));
        QVERIFY(panel.lastArguments().contains("mlflow_experiment=parts line 3"));
        QVERIFY(!panel.lastArguments().contains("mlflow=none"));
        QVERIFY(ended.wait(10000));
    }
    // A new panel on the same project shows the same choice.
    TrainPanel again(document.get());
    auto* form = again.findChild<TrainForm*>();
    QVERIFY(form->value("track").toBool());
    QCOMPARE(form->value("mlflow").toString(), QString("http://127.0.0.1:5000"));
    QCOMPARE(form->value("mlflow_experiment").toString(), QString("parts line 3"));
}

void TestTrainPanel::formComesFromTheFieldTable() {
    TrainForm form;
    QStringList shown;
    for (const osprey::run::OptionSpec& option : osprey::run::trainOptions()) {
        auto* editor = form.findChild<QWidget*>(QString::fromStdString(option.key));
        QCOMPARE(editor != nullptr, osprey::run::shows(option.shownIn, osprey::run::FrontEnd::Gui));
        if (!editor)
            continue;
        shown.append(QString::fromStdString(option.key));
        QVERIFY(!editor->toolTip().isEmpty());
    }
    // The table's GUI options in table order, then the platform rows, then the MLflow rows.
    QCOMPARE(form.keys(), shown + QStringList({"stream", "remote", "track", "mlflow", "mlflow_experiment"}));
    QStringList arguments = form.trainArguments();
    QCOMPARE(arguments.first(), QString("model=yolov8n"));
    QVERIFY(arguments.contains("epochs=100"));
    QVERIFY(arguments.contains("imgsz=640"));
    QVERIFY(arguments.contains("batch=16"));
    QVERIFY(arguments.contains("device=cpu"));
    QVERIFY(arguments.contains("lr0=0.01"));
    QVERIFY(arguments.contains("fliplr=0.5"));
    // An empty name is left to the trainer; the platform project only goes out when streaming.
    QVERIFY(!arguments.join(' ').contains("name="));
    QVERIFY(!arguments.join(' ').contains("remote="));
    QVERIFY(!arguments.join(' ').contains("mlflow"));
    QCOMPARE(form.findChild<QSpinBox*>("epochs")->minimum(), 1);
    QCOMPARE(form.findChild<QSpinBox*>("imgsz")->maximum(), 4096);
    // Numbers read as written: batch 16 (not 16.00), lr0 0.01 (not 0.01000), typing precision kept.
    QCOMPARE(form.findChild<QDoubleSpinBox*>("batch")->text(), QString("16"));
    QCOMPARE(form.findChild<QDoubleSpinBox*>("lr0")->text(), QString("0.01"));
    QCOMPARE(form.findChild<QDoubleSpinBox*>("lr0")->decimals(), 5);

    QVERIFY(form.setValue("model", "yolo11s"));
    QVERIFY(form.setValue("batch", 8));
    QVERIFY(form.setValue("name", "exp"));
    QVERIFY(!form.setValue("no_such_key", 1));
    if (const QString shots = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR"); !shots.isEmpty()) {
        QTemporaryDir dir;
        QString error;
        auto document = ProjectDocument::create(dir.filePath("p"), &error);
        QVERIFY(document);
        TrainPanel panel(document.get());
        panel.resize(1366, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTest::qWait(100);
        panel.grab().save(shots + "/train-panel.png");
        // The platform and MLflow rows at the end of the form.
        auto* panelForm = panel.findChild<TrainForm*>();
        panelForm->setValue("track", true);
        panelForm->setValue("mlflow", "http://mlflow.example:5000");
        for (auto* scroll : panel.findChildren<QScrollArea*>())
            if (scroll->widget() == panelForm)
                scroll->ensureWidgetVisible(panelForm->editor("mlflow_experiment"));
        QTest::qWait(100);
        panel.grab().save(shots + "/train-panel-tracking.png");
    }
    arguments = form.trainArguments();
    QCOMPARE(arguments.first(), QString("model=yolo11s"));
    QVERIFY(arguments.contains("batch=8"));
    QVERIFY(arguments.contains("name=exp"));
}

void TestTrainPanel::crashedTrainerGivesAClearMessage() {
    QTemporaryDir dir;
    QString error;
    auto document = ProjectDocument::create(dir.filePath("p"), &error);
    QVERIFY2(document, qPrintable(error));
    // A stand-in trainer that starts a run, prints to stderr and dies without `finished` or `failed`.
    const QString script = dir.filePath("fake-cli");
    QVERIFY(writeTrainer(
        script, "echo '{\"type\":\"run_started\",\"v\":1,\"t\":0,\"epochs\":5,\"run_dir\":\"x/runs/r\","
                "\"model\":{\"name\":\"yolov8n\"}}'\n"
                "echo 'out of memory in the data loader' >&2\n"
                "exit 3\n"));

    TrainPanel panel(document.get());
    panel.setTrainerPath(script);
    QSignalSpy ended(&panel, &TrainPanel::runEnded);
    QVERIFY(panel.start(&error));
    QVERIFY(panel.lastArguments().contains("events=jsonl"));
    QVERIFY(panel.lastArguments().contains("project=" + document->folder()));
    QVERIFY(ended.wait(10000));
    QCOMPARE(panel.liveModel()->status(), TrainingRunModel::Status::Crashed);
    QVERIFY(panel.liveModel()->statusMessage().contains("code 3"));
    QVERIFY(panel.liveModel()->statusMessage().contains("out of memory in the data loader"));
    panel.view()->refresh();
    QVERIFY(panel.view()->statusText().contains("crashed"));
    QVERIFY(!panel.isRunning());

    // A missing trainer is reported before anything starts.
    panel.setTrainerPath(dir.filePath("missing-cli"));
    QVERIFY(!panel.start(&error));
    QVERIFY(error.contains("missing-cli"));
    QCOMPARE(panel.runsTable()->rowCount(), 0);

    // An older run with only results.csv replays (on a worker thread) into the charts.
    QVERIFY(QDir(document->folder()).mkpath("runs/old"));
    QFile csv(document->folder() + "/runs/old/results.csv");
    QVERIFY(csv.open(QIODevice::WriteOnly));
    csv.write("epoch,train/box_loss,metrics/mAP50-95(B)\n1,2.5,0.1\n2,2.0,0.25\n");
    csv.close();
    QSignalSpy opened(&panel, &TrainPanel::runOpened);
    panel.openRun("old");
    QVERIFY(opened.wait(5000));
    QCOMPARE(panel.view()->model(), panel.replayModel());
    QCOMPARE(panel.replayModel()->epochs(), (QVector<double>{1, 2}));
    QCOMPARE(panel.replayModel()->series("metrics/mAP50-95(B)"), (QVector<double>{0.1, 0.25}));
    QCOMPARE(panel.replayModel()->thread(), panel.thread());
    // A run without files shows why.
    panel.openRun("gone");
    QVERIFY(opened.wait(5000));
    QCOMPARE(panel.replayModel()->status(), TrainingRunModel::Status::Crashed);
    QVERIFY(panel.replayModel()->statusMessage().contains("neither events.jsonl nor results.csv"));
}

void TestTrainPanel::followsARunTrainingInAnotherProcess() {
    // A run kept going in the background by an earlier session: its events.jsonl is still growing.
    QTemporaryDir dir;
    QString error;
    auto document = ProjectDocument::create(dir.filePath("p"), &error);
    QVERIFY2(document, qPrintable(error));
    QVERIFY(QDir(document->folder()).mkpath("runs/bg"));
    QFile events(document->folder() + "/runs/bg/events.jsonl");
    QVERIFY(events.open(QIODevice::WriteOnly | QIODevice::Unbuffered));
    const auto epoch = [](int n) {
        return QStringLiteral(R"({"type":"epoch","v":1,"t":%1,"epoch":%1,"epochs":3,"metrics":{"epoch":%1,)"
                              R"("train/box_loss":%2}})"
                              "\n")
            .arg(n)
            .arg(1.0 / n, 0, 'g', 17)
            .toUtf8();
    };
    events.write(
        R"({"type":"run_started","v":1,"t":0,"epochs":3,"run_dir":"runs/bg","model":{"name":"yolov8n"}})"
        "\n");
    events.write(epoch(1));
    events.write(R"({"type":"epoch","v":1,"t":2,"epo)"); // a line still being written
    QVERIFY(document->project().runs().add("bg", R"({"model":"yolov8n","epochs":"3"})").hasValue());

    TrainPanel panel(document.get());
    QSignalSpy opened(&panel, &TrainPanel::runOpened);
    panel.openRun("bg");
    QVERIFY(opened.wait(5000));
    QCOMPARE(panel.replayModel()->epochs(), (QVector<double>{1}));
    QCOMPARE(panel.replayModel()->status(), TrainingRunModel::Status::Running);

    // The writer finishes the line and goes on; the charts follow, then the run ends.
    events.write(R"(ch":2,"epochs":3,"metrics":{"epoch":2,"train/box_loss":0.5}})"
                 "\n");
    QTRY_COMPARE_WITH_TIMEOUT(panel.replayModel()->epochs(), (QVector<double>{1, 2}), 5000);
    events.write(epoch(3));
    events.write(
        R"({"type":"finished","v":1,"t":3,"status":"finished","epochs_completed":3,"message":"done"})"
        "\n");
    QTRY_COMPARE_WITH_TIMEOUT(panel.replayModel()->status(), TrainingRunModel::Status::Finished, 5000);
    QCOMPARE(panel.replayModel()->epochs(), (QVector<double>{1, 2, 3}));
    QCOMPARE(panel.replayModel()->series("train/box_loss"), (QVector<double>{1.0, 0.5, 1.0 / 3}));
}

void TestTrainPanel::plannerTableFitsAt1280x800() {
    // The planner's GPU table with every column in view, price and cost included, in the panel of a
    // 1280 x 800 window (the menu bar and status bar take about 60 px of it).
    QTemporaryDir dir;
    QString error;
    auto document = ProjectDocument::create(dir.filePath("p"), &error);
    QVERIFY(document);
    TrainPanel panel(document.get());
    panel.resize(1280, 740);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    auto* view = panel.findChild<TrainingView*>();
    auto* planner = panel.findChild<QWidget*>(QStringLiteral("plannerPanel"));
    QVERIFY(view && planner);
    view->tabs()->setCurrentWidget(planner);
    auto* table = planner->findChild<QTableWidget*>(QStringLiteral("plannerTable"));
    QVERIFY(table);
    QTRY_VERIFY(table->rowCount() > 0);
    QTest::qWait(50);
    if (const QString shots = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR"); !shots.isEmpty())
        panel.grab().save(shots + "/train-panel-planner.png");
    QVERIFY2(table->horizontalHeader()->length() <= table->viewport()->width(),
             qPrintable(QString("columns %1 px, table %2 px")
                            .arg(table->horizontalHeader()->length())
                            .arg(table->viewport()->width())));
    for (int column = 0; column < table->columnCount(); ++column)
        QVERIFY2(table->columnViewportPosition(column) + table->columnWidth(column) <=
                     table->viewport()->width(),
                 qPrintable(table->horizontalHeaderItem(column)->text()));
    // Nor does the planner's own scroll area scroll sideways.
    for (auto* area : planner->findChildren<QAbstractScrollArea*>())
        QVERIFY2(!area->horizontalScrollBar()->isVisible(), area->metaObject()->className());
}

QTEST_MAIN(TestTrainPanel)
#include "tst_train_panel.moc"
