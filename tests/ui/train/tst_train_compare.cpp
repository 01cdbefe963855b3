// Overlaying runs: two recorded runs (one events.jsonl, one results.csv only) selected together in the
// runs table are drawn in the same charts, each in its own colour with train solid and val dashed, with
// the right values at the right epochs; opening one run again leaves the comparison.

#include "ui/main/main_window.h"
#include "ui/project/project_document.h"
#include "ui/train/train_panel.h"
#include "ui/train/training_charts.h"
#include "ui/train/training_run_model.h"
#include "ui/train/training_view.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <qcustomplot.h>

using namespace osprey::ui;

namespace {

constexpr int kEpochsA = 60; // recorded as events.jsonl
constexpr int kEpochsB = 80; // recorded as results.csv only (an older run)

// Distinct, deterministic curves per run and column, so a point taken from the wrong run is caught.
double trainBox(int run, int epoch) {
    return (run == 0 ? 2.4 : 2.1) / (1.0 + (run == 0 ? 0.04 : 0.06) * epoch) + 0.3;
}
double valBox(int run, int epoch) {
    return trainBox(run, epoch) * 1.12 + 0.05;
}
double map5095(int run, int epoch) {
    return (run == 0 ? 0.48 : 0.56) * (1.0 - std::exp(-epoch / (run == 0 ? 18.0 : 25.0)));
}
double lr(int run, int epoch) {
    return 0.01 * (1.0 - epoch / (run == 0 ? 61.0 : 81.0)) + 0.0001;
}

QJsonObject metrics(int run, int epoch) {
    return {{"epoch", epoch},
            {"time", epoch * 12.0},
            {"train/box_loss", trainBox(run, epoch)},
            {"train/cls_loss", 1.6 * trainBox(run, epoch)},
            {"train/dfl_loss", 0.9 + 0.4 * trainBox(run, epoch)},
            {"metrics/precision(B)", 0.3 + map5095(run, epoch)},
            {"metrics/recall(B)", 0.25 + map5095(run, epoch)},
            {"metrics/mAP50(B)", std::min(1.0, map5095(run, epoch) * 1.45)},
            {"metrics/mAP50-95(B)", map5095(run, epoch)},
            {"val/box_loss", valBox(run, epoch)},
            {"val/cls_loss", 1.5 * valBox(run, epoch)},
            {"val/dfl_loss", 1.0 + 0.4 * valBox(run, epoch)},
            {"lr/pg0", lr(run, epoch)},
            {"lr/pg1", lr(run, epoch)},
            {"lr/pg2", lr(run, epoch) * 1.5},
            {"fitness", map5095(run, epoch)}};
}

QByteArray eventsFile(int epochs) {
    QByteArray out = QJsonDocument(QJsonObject{{"type", "run_started"},
                                               {"v", 1},
                                               {"t", 0.0},
                                               {"epochs", epochs},
                                               {"run_dir", "/p/runs/a"},
                                               {"model", QJsonObject{{"name", "yolov8n"}}}})
                         .toJson(QJsonDocument::Compact) +
                     '\n';
    for (int epoch = 1; epoch <= epochs; ++epoch)
        out += QJsonDocument(QJsonObject{{"type", "epoch"},
                                         {"v", 1},
                                         {"t", epoch * 12.0},
                                         {"epoch", epoch},
                                         {"epochs", epochs},
                                         {"metrics", metrics(0, epoch)},
                                         {"best", true}})
                   .toJson(QJsonDocument::Compact) +
               '\n';
    out += R"({"type":"finished","v":1,"t":720,"status":"finished","epochs_completed":60,"message":"done"})"
           "\n";
    return out;
}

QByteArray resultsCsv(int epochs) {
    const QStringList columns = {"epoch",
                                 "time",
                                 "train/box_loss",
                                 "train/cls_loss",
                                 "train/dfl_loss",
                                 "metrics/precision(B)",
                                 "metrics/recall(B)",
                                 "metrics/mAP50(B)",
                                 "metrics/mAP50-95(B)",
                                 "val/box_loss",
                                 "val/cls_loss",
                                 "val/dfl_loss",
                                 "lr/pg0",
                                 "lr/pg1",
                                 "lr/pg2"};
    QByteArray out = columns.join(',').toUtf8() + '\n';
    for (int epoch = 1; epoch <= epochs; ++epoch) {
        const QJsonObject row = metrics(1, epoch);
        QStringList cells;
        for (const QString& column : columns)
            cells << QString::number(row.value(column).toDouble(), 'g', 17);
        out += cells.join(',').toUtf8() + '\n';
    }
    return out;
}

void writeFile(const QString& path, const QByteArray& data) {
    QVERIFY(QDir().mkpath(QFileInfo(path).path()));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(data), data.size());
}

// The value at `epoch` of a graph, or -1 when the point there does not have that epoch as its key.
double valueAt(QCPGraph* graph, int epoch) {
    const auto it = graph->data()->constBegin() + (epoch - 1);
    return it->key == double(epoch) ? it->value : -1.0;
}

} // namespace

class TestTrainCompare : public QObject {
    Q_OBJECT
private slots:
    void overlaysTwoRecordedRuns();
};

void TestTrainCompare::overlaysTwoRecordedRuns() {
    QTemporaryDir dir;
    QString error;
    auto document = ProjectDocument::create(dir.filePath("p"), &error);
    QVERIFY2(document, qPrintable(error));
    writeFile(document->folder() + "/runs/a/events.jsonl", eventsFile(kEpochsA));
    writeFile(document->folder() + "/runs/b/results.csv", resultsCsv(kEpochsB));
    QVERIFY(document->project().runs().add("a", R"({"model":"yolov8n","epochs":"60"})").hasValue());
    QVERIFY(document->project().runs().add("b", R"({"model":"yolov8s","epochs":"80"})").hasValue());
    // Both ended, as recorded runs do.
    for (auto run : document->project().runs().list().value()) {
        run.status = osprey::project::RunStatus::Finished;
        run.finishedAt = run.startedAt + (run.name == "a" ? 720 : 960);
        run.bestFitness = run.name == "a" ? map5095(0, kEpochsA) : map5095(1, kEpochsB);
        run.bestEpoch = run.name == "a" ? kEpochsA : kEpochsB;
        QVERIFY(document->project().runs().update(run).hasValue());
    }
    if (!qEnvironmentVariable("OSPREY_SCREENSHOT_DIR").isEmpty())
        applyTheme();

    TrainPanel panel(document.get());
    panel.resize(1500, 900);
    panel.show();
    QTableWidget* runs = panel.runsTable();
    QCOMPARE(runs->rowCount(), 2);
    runs->selectAll();
    QCOMPARE(panel.selectedRuns().size(), 2);
    auto* open = panel.findChild<QPushButton*>("showCharts");
    QVERIFY(open);
    QCOMPARE(open->text(), QString("Compare 2 Runs"));
    QSignalSpy compared(&panel, &TrainPanel::runsCompared);
    QTest::mouseClick(open, Qt::LeftButton);
    QVERIFY(compared.wait(10000));
    const QStringList names = compared.first().first().toStringList();
    QCOMPARE(panel.comparedModels().size(), 2);

    TrainingCharts* charts = panel.view()->charts();
    charts->refresh();
    QVERIFY(charts->isComparing());
    QVERIFY(panel.view()->isComparing());
    QCOMPARE(panel.view()->model(), nullptr);
    const int a = int(names.indexOf("a")), b = int(names.indexOf("b"));
    QVERIFY(a >= 0 && b >= 0);
    const int runOf[2] = {a, b}; // fixture run index -> chart run index

    // Each run's series, at the right epochs with the right values.
    for (int run = 0; run < 2; ++run) {
        const int epochs = run == 0 ? kEpochsA : kEpochsB;
        QCPGraph* train = charts->graph("train/box_loss", runOf[run]);
        QCPGraph* val = charts->graph("val/box_loss", runOf[run]);
        QCPGraph* map = charts->graph("metrics/mAP50-95(B)", runOf[run]);
        QCPGraph* pg0 = charts->graph("lr/pg0", runOf[run]);
        QVERIFY(train && val && map && pg0);
        QCOMPARE(train->data()->size(), epochs);
        QCOMPARE(map->data()->size(), epochs);
        for (int epoch : {1, 2, 30, epochs - 1, epochs}) {
            QCOMPARE(valueAt(train, epoch), trainBox(run, epoch));
            QCOMPARE(valueAt(val, epoch), valBox(run, epoch));
            QCOMPARE(valueAt(map, epoch), map5095(run, epoch));
            QCOMPARE(valueAt(pg0, epoch), lr(run, epoch));
        }
        // Colour per run; train solid, val dashed kept.
        QCOMPARE(train->pen().color(), TrainingCharts::runColor(runOf[run]));
        QCOMPARE(val->pen().color(), train->pen().color());
        QCOMPARE(train->pen().style(), Qt::SolidLine);
        QCOMPARE(val->pen().style(), Qt::DashLine);
        QCOMPARE(train->name(), QString("%1 · train").arg(names[runOf[run]]));
        QVERIFY(charts->runLegend()->text().contains(QString("<b>%1</b>").arg(names[runOf[run]])));
    }
    QVERIFY(charts->graph("train/box_loss", a)->pen().color() !=
            charts->graph("train/box_loss", b)->pen().color());
    QVERIFY(charts->runLegend()->isVisible());
    // The epoch axis spans the longer run.
    QCOMPARE(charts->plots()[0]->xAxis->range().upper, double(kEpochsB));
    // Hovering names both runs' exact values at that epoch.
    const QString tip = charts->tooltipText(3, 40.2);
    QVERIFY2(tip.startsWith("epoch 40\n"), qPrintable(tip));
    QVERIFY(tip.contains(QString("a · mAP50-95: %1").arg(map5095(0, 40), 0, 'g', 5)));
    QVERIFY(tip.contains(QString("b · mAP50-95: %1").arg(map5095(1, 40), 0, 'g', 5)));
    // Past the shorter run only the longer one has a value.
    const QString late = charts->tooltipText(3, 75);
    QVERIFY(late.contains("b · mAP50-95"));
    QVERIFY(!late.contains("a · mAP50-95"));
    panel.view()->refresh();
    QVERIFY(panel.view()->statusText().contains("Comparing runs: a, b"));
    QVERIFY(panel.view()->progressBar()->isHidden());

    if (const QString shots = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR"); !shots.isEmpty()) {
        QTest::qWait(50); // let the layout settle before the grab
        panel.grab().save(shots + "/dashboard-compare.png");
    }

    // One run again: single-run colours, no second run's graphs.
    QSignalSpy opened(&panel, &TrainPanel::runOpened);
    panel.openRun("b");
    QVERIFY(opened.wait(10000));
    QVERIFY(!charts->isComparing());
    QVERIFY(charts->graph("train/box_loss", 1) == nullptr);
    QCOMPARE(charts->graph("train/box_loss")->data()->size(), kEpochsB);
    QCOMPARE(charts->graph("train/box_loss")->name(), QString("train"));
    QVERIFY(charts->runLegend()->isHidden());
}

QTEST_MAIN(TestTrainCompare)
#include "tst_train_compare.moc"
