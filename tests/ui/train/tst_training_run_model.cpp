// TrainingRunModel and the dashboard views fed from recorded events: a synthetic 300-epoch events.jsonl
// replays in under 2 s into graphs holding the right values; results.csv, resume, crash and the throttle.

#include "ui/train/training_charts.h"
#include "ui/train/training_run_model.h"
#include "ui/train/training_view.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <qcustomplot.h>

using namespace osprey::ui;

namespace {

constexpr int kEpochs = 300;
constexpr int kBatches = 20;

// Deterministic, distinct values per epoch and column so a misplaced point is caught.
double boxLoss(int epoch) {
    return 3.0 / (1.0 + 0.05 * epoch);
}
double valBoxLoss(int epoch) {
    return 3.2 / (1.0 + 0.04 * epoch);
}
double map5095(int epoch) {
    return 0.6 * (1.0 - std::exp(-epoch / 60.0));
}
double lr0(int epoch) {
    return 0.01 * (1.0 - epoch / 301.0);
}

QByteArray line(const QJsonObject& object) {
    return QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
}

QByteArray epochEvent(int epoch, int epochs, double t) {
    QJsonObject metrics{{"epoch", epoch},
                        {"time", t},
                        {"train/box_loss", boxLoss(epoch)},
                        {"train/cls_loss", 2.0 * boxLoss(epoch)},
                        {"train/dfl_loss", 1.5},
                        {"metrics/precision(B)", 0.5 + epoch / 1000.0},
                        {"metrics/recall(B)", 0.4 + epoch / 1000.0},
                        {"metrics/mAP50(B)", map5095(epoch) + 0.2},
                        {"metrics/mAP50-95(B)", map5095(epoch)},
                        {"val/box_loss", valBoxLoss(epoch)},
                        {"val/cls_loss", QJsonValue::Null},
                        {"val/dfl_loss", 1.6},
                        {"lr/pg0", lr0(epoch)},
                        {"lr/pg1", lr0(epoch)},
                        {"lr/pg2", 2 * lr0(epoch)},
                        {"fitness", map5095(epoch)}};
    return line({{"type", "epoch"},
                 {"v", 1},
                 {"t", t},
                 {"epoch", epoch},
                 {"epochs", epochs},
                 {"metrics", metrics},
                 {"best", true},
                 {"images_per_s", 40.0},
                 {"eta_s", (epochs - epoch) * 2.0}});
}

QByteArray syntheticRun(int epochs) {
    QByteArray out;
    out += line({{"type", "run_started"},
                 {"v", 1},
                 {"t", 0.0},
                 {"epochs", epochs},
                 {"start_epoch", 1},
                 {"run_dir", "/p/runs/train"},
                 {"model", QJsonObject{{"name", "yolov8n"}}},
                 {"dataset", QJsonObject{{"train_images", 160}, {"val_images", 40}}}});
    double t = 0.0;
    for (int epoch = 1; epoch <= epochs; ++epoch) {
        for (int batch = 1; batch <= kBatches; ++batch) {
            t += 0.1;
            out += line({{"type", "batch"},
                         {"v", 1},
                         {"t", t},
                         {"epoch", epoch},
                         {"epochs", epochs},
                         {"batch", batch},
                         {"batches", kBatches},
                         {"box_loss", boxLoss(epoch)},
                         {"cls_loss", 1.0},
                         {"dfl_loss", 1.0},
                         {"instances", 30},
                         {"images_per_s", 40.0},
                         {"eta_s", 100.0}});
        }
        out += line({{"type", "system"},
                     {"v", 1},
                     {"t", t},
                     {"cpu_percent", 55.0},
                     {"ram_used_mb", 8000.0},
                     {"ram_total_mb", 16000.0},
                     {"process_rss_mb", 900.0},
                     {"gpu", QJsonObject{{"name", "RTX 4090"},
                                         {"util_percent", 97.0},
                                         {"mem_used_mb", 6000.0},
                                         {"mem_total_mb", 24000.0},
                                         {"temp_c", 71.0}}}});
        out += line({{"type", "log"},
                     {"v", 1},
                     {"t", t},
                     {"level", "info"},
                     {"message", QStringLiteral("epoch %1 done").arg(epoch)}});
        out += epochEvent(epoch, epochs, t);
    }
    out += line({{"type", "finished"},
                 {"v", 1},
                 {"t", t},
                 {"status", "finished"},
                 {"epochs_completed", epochs},
                 {"best_epoch", epochs},
                 {"best_fitness", map5095(epochs)},
                 {"message", "done"}});
    return out;
}

void writeFile(const QString& path, const QByteArray& data) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(data), data.size());
}

} // namespace

class TestTrainingRunModel : public QObject {
    Q_OBJECT
private slots:
    void replays300EpochsFast();
    void loadsResultsCsv();
    void resumeReplacesRepeatedEpochs();
    void crashAndFailure();
    void liveEventsAreThrottled();
    void dataParallelRanks();
};

void TestTrainingRunModel::replays300EpochsFast() {
    QTemporaryDir dir;
    const QString path = dir.filePath("events.jsonl");
    writeFile(path, syntheticRun(kEpochs));
    TrainingRunModel model;
    TrainingView view;
    view.resize(1200, 800);
    view.setModel(&model);
    view.show();

    QElapsedTimer timer;
    timer.start();
    QVERIFY(model.loadEventsFile(path));
    view.refresh();
    view.charts()->refresh();
    const qint64 elapsedMs = timer.elapsed();
    qInfo("replayed %d epochs (%d events) into the dashboard in %lld ms", kEpochs,
          kEpochs * (kBatches + 3) + 2, elapsedMs);
    QVERIFY2(elapsedMs < 2000, qPrintable(QString("replay took %1 ms").arg(elapsedMs)));

    if (const QString shots = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR"); !shots.isEmpty())
        view.grab().save(shots + "/dashboard-replay.png");
    QCOMPARE(model.status(), TrainingRunModel::Status::Finished);
    QCOMPARE(model.epochs().size(), kEpochs);
    const QStringList columns = {"train/box_loss", "val/box_loss", "metrics/mAP50-95(B)", "lr/pg0",
                                 "val/cls_loss"};
    for (const QString& column : columns) {
        QCPGraph* graph = view.charts()->graph(column);
        QVERIFY2(graph, qPrintable(column));
        QCOMPARE(graph->data()->size(), kEpochs);
    }
    // The point's key must be its epoch; a mismatch returns a value no check accepts.
    const auto at = [&](const QString& column, int epoch) {
        auto it = view.charts()->graph(column)->data()->constBegin() + (epoch - 1);
        return it->key == double(epoch) ? it->value : -1.0;
    };
    for (int epoch : {1, 2, 150, 299, 300}) {
        QCOMPARE(at("train/box_loss", epoch), boxLoss(epoch));
        QCOMPARE(at("val/box_loss", epoch), valBoxLoss(epoch));
        QCOMPARE(at("metrics/mAP50-95(B)", epoch), map5095(epoch));
        QCOMPARE(at("metrics/mAP50(B)", epoch), map5095(epoch) + 0.2);
        QCOMPARE(at("lr/pg2", epoch), 2 * lr0(epoch));
        QVERIFY(std::isnan(at("val/cls_loss", epoch))); // null in the file: a gap, not zero
    }
    QVERIFY(view.charts()->graph("val/box_loss")->pen().style() == Qt::DashLine);
    QVERIFY(view.charts()->graph("train/box_loss")->pen().style() == Qt::SolidLine);

    QCOMPARE(model.progress().epoch, kEpochs);
    QCOMPARE(model.progress().completedEpochs, kEpochs);
    QCOMPARE(model.bestEpoch(), kEpochs);
    QCOMPARE(model.modelName(), QString("yolov8n"));
    QVERIFY(model.system().hasGpu);
    QCOMPARE(model.system().gpuTempC, 71.0);
    QVERIFY(view.systemText().contains("RTX 4090"));
    QVERIFY(view.systemText().contains("71 °C"));
    QCOMPARE(view.progressBar()->value(), view.progressBar()->maximum());
    QVERIFY(view.statusText().contains("Finished"));
    // The console shows the latest lines; the model keeps at most kMaxLogLines.
    QVERIFY(view.console()->toPlainText().contains("epoch 300 done"));
    QVERIFY(model.logLines().last().contains("done"));

    // Hovering near epoch 150 on the mAP chart names the epoch and both exact values.
    const QString tip = view.charts()->tooltipText(3, 150.3);
    QVERIFY2(tip.startsWith("epoch 150\n"), qPrintable(tip));
    QVERIFY(tip.contains(QString("mAP50-95: %1").arg(map5095(150), 0, 'g', 5)));
    QVERIFY(tip.contains(QString("mAP50: %1").arg(map5095(150) + 0.2, 0, 'g', 5)));

    // Log scale keeps the data and changes the axis.
    view.charts()->setLogScale(true);
    QCOMPARE(view.charts()->plots()[0]->yAxis->scaleType(), QCPAxis::stLogarithmic);
    QVERIFY(view.charts()->plots()[0]->yAxis->range().lower > 0);
    QCOMPARE(view.charts()->plots()[3]->yAxis->scaleType(), QCPAxis::stLinear);

    const QString png = dir.filePath("map.png");
    QVERIFY(view.charts()->exportPng(3, png));
    QImage image(png);
    QVERIFY(image.width() > 200);
}

void TestTrainingRunModel::loadsResultsCsv() {
    QTemporaryDir dir;
    writeFile(dir.filePath("results.csv"),
              "                  epoch,         train/box_loss,   metrics/mAP50-95(B),  lr/pg0\n"
              "                      1,                 2.5,      0.1,  0.001\n"
              "                      2,                 2.0,      0.2,  0.002\n"
              "                      3,                 nan,      0.3,  0.003\n");
    TrainingRunModel model;
    QVERIFY(model.loadRunFolder(dir.path()));
    QCOMPARE(model.epochs(), (QVector<double>{1, 2, 3}));
    QCOMPARE(model.series("metrics/mAP50-95(B)"), (QVector<double>{0.1, 0.2, 0.3}));
    QCOMPARE(model.series("train/box_loss")[1], 2.0);
    QVERIFY(std::isnan(model.series("train/box_loss")[2]));
    QCOMPARE(model.progress().epochs, 3);
    QString error;
    QVERIFY(!model.loadRunFolder(dir.filePath("missing"), &error));
    QVERIFY(error.contains("neither events.jsonl nor results.csv"));
}

void TestTrainingRunModel::resumeReplacesRepeatedEpochs() {
    TrainingRunModel model;
    for (int epoch = 1; epoch <= 4; ++epoch)
        QVERIFY(model.ingestLine(epochEvent(epoch, 6, epoch)));
    // Resumed from the checkpoint after epoch 2: epochs 3.. come again and replace the old points.
    QVERIFY(model.ingestLine(epochEvent(3, 6, 10)));
    QCOMPARE(model.epochs(), (QVector<double>{1, 2, 3}));
    QCOMPARE(model.series("train/box_loss").size(), 3);
    QVERIFY(!model.ingestLine("not json"));
    QVERIFY(!model.ingestLine("[1,2]"));
}

void TestTrainingRunModel::crashAndFailure() {
    TrainingRunModel model;
    TrainingView view;
    view.setModel(&model);
    QSignalSpy ended(&model, &TrainingRunModel::ended);
    model.ingestLine(
        R"({"type":"failed","v":1,"t":0.5,"epoch":0,"reason":"no train images: split the dataset"})");
    QCOMPARE(model.status(), TrainingRunModel::Status::Failed);
    QCOMPARE(ended.count(), 1);
    view.refresh();
    QVERIFY(view.statusText().contains("no train images: split the dataset"));
    model.clear();
    model.markCrashed("exit code 139");
    QCOMPARE(model.status(), TrainingRunModel::Status::Crashed);
    view.refresh();
    QVERIFY(view.statusText().contains("crashed"));
    QVERIFY(view.statusText().contains("exit code 139"));
    QVERIFY(view.systemText().contains("No system samples"));
}

void TestTrainingRunModel::liveEventsAreThrottled() {
    TrainingRunModel model;
    TrainingView view;
    view.setModel(&model);
    const int before = view.charts()->replotCount();
    QElapsedTimer timer;
    timer.start();
    // 200 epochs arriving as fast as possible over ~0.5 s of event loop: at most ~10 replots a second.
    for (int epoch = 1; epoch <= 200; ++epoch) {
        model.ingestLine(epochEvent(epoch, 200, epoch));
        if (epoch % 10 == 0)
            QTest::qWait(25);
    }
    QTest::qWait(150);
    const double seconds = timer.elapsed() / 1000.0;
    const int replots = view.charts()->replotCount() - before;
    qInfo("%d replots in %.2f s for 200 epoch events", replots, seconds);
    QVERIFY(replots >= 1);
    QVERIFY(replots <= int(std::ceil(seconds * 10)) + 1);
    QCOMPARE(view.charts()->graph("train/box_loss")->data()->size(), 200);
}

// A data-parallel run's events (two ranks, then eight): the dashboard's progress line shows the total and
// each rank's images/s, and the System tab one row per rank. With OSPREY_SCREENSHOT_DIR set the view is
// saved as dashboard-ranks.png.
void TestTrainingRunModel::dataParallelRanks() {
    TrainingRunModel model;
    TrainingView view;
    view.resize(1000, 600);
    view.setModel(&model);
    view.show();
    QByteArray lines = line({{"type", "run_started"},
                             {"v", 1},
                             {"t", 0.0},
                             {"epochs", 30},
                             {"config", QJsonObject{{"world_size", "2"}}},
                             {"model", QJsonObject{{"name", "yolov8n"}}}});
    lines += epochEvent(1, 30, 20.0);
    lines += line({{"type", "system"},
                   {"v", 1},
                   {"t", 20.5},
                   {"cpu_percent", 95.0},
                   {"ram_used_mb", 8000.0},
                   {"ram_total_mb", 16000.0},
                   {"process_rss_mb", 900.0},
                   {"gpu", QJsonValue::Null}});
    lines += line({{"type", "batch"},
                   {"v", 1},
                   {"t", 21.0},
                   {"epoch", 2},
                   {"epochs", 30},
                   {"batch", 7},
                   {"batches", 25},
                   {"box_loss", 2.0},
                   {"cls_loss", 3.0},
                   {"dfl_loss", 1.5},
                   {"instances", 40},
                   {"images_per_s", 6.0},
                   {"eta_s", 900.0},
                   {"rank_images_per_s", QJsonArray{3.1, 2.9}}});
    for (const QByteArray& one : lines.split('\n'))
        if (!one.isEmpty())
            QVERIFY(model.ingestLine(one));
    QCOMPARE(model.progress().rankImagesPerS, (QVector<double>{3.1, 2.9}));
    view.refresh();
    QLabel* progress = nullptr;
    for (auto* label : view.findChildren<QLabel*>())
        if (label->text().startsWith(QStringLiteral("epoch 2/30")))
            progress = label;
    QVERIFY(progress);
    QVERIFY2(progress->text().contains(QStringLiteral("· 6.0 images/s (2 ranks: 3.1 + 2.9) ·")),
             qPrintable(progress->text()));
    const QString system = view.systemText();
    QVERIFY2(system.contains(QStringLiteral("2 ranks, 6.0 images/s in total")), qPrintable(system));
    QVERIFY(system.contains(QStringLiteral("<b>Rank 0</b></td><td>3.1 images/s")));
    QVERIFY(system.contains(QStringLiteral("<b>Rank 1</b></td><td>2.9 images/s")));
    if (const QString shots = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR"); !shots.isEmpty()) {
        view.grab().save(shots + "/dashboard-ranks.png");
        view.tabs()->setCurrentIndex(1);
        view.grab().save(shots + "/dashboard-ranks-system.png");
    }

    // Eight ranks: the range, not eight figures. One process's batch (no per-rank key) shows none.
    QVERIFY(model.ingestLine(R"({"type":"batch","t":22,"epoch":2,"epochs":30,"batch":8,"batches":25,)"
                             R"("images_per_s":48.0,"rank_images_per_s":[6,6.2,5.8,6,6,6,6,6]})"));
    view.refresh();
    QVERIFY2(progress->text().contains(QStringLiteral("· 48.0 images/s (8 ranks: 5.8–6.2 each) ·")),
             qPrintable(progress->text()));
    QVERIFY(model.ingestLine(R"({"type":"batch","t":23,"epoch":2,"epochs":30,"batch":9,"batches":25,)"
                             R"("images_per_s":6.5})"));
    view.refresh();
    QVERIFY2(!progress->text().contains(QStringLiteral("ranks")), qPrintable(progress->text()));
    QVERIFY(!view.systemText().contains(QStringLiteral("Rank 0")));
}

QTEST_MAIN(TestTrainingRunModel)
#include "tst_training_run_model.moc"
