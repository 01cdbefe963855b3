// Resume: 2 epochs, a stop, then resume=true for epochs 3 and 4 must give the same losses and metrics
// as 4 uninterrupted epochs (same seed: the loader, the optimiser state, the EMA and the schedule are
// all restored from last.pt). YOLOv8 with the recipe's SGD, and YOLO26 with MuSGD: its two momentum
// buffers per weight and the branch weights of its end-to-end loss must come back too.
#include "job/project_training.h"
#include "run/run_files.h"
#include "run/train_options.h"
#include "train_test_util.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace osprey;
using run::TrainEvent;

class TestTrainResume : public QObject {
    Q_OBJECT
private slots:
    void resumedRunMatchesUninterrupted_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("optimizer");
        QTest::newRow("yolov8n") << "yolov8n"
                                 << "auto";
        QTest::newRow("yolo26n MuSGD") << "yolo26n"
                                       << "MuSGD";
    }

    void resumedRunMatchesUninterrupted() {
        QFETCH(QString, model);
        QFETCH(QString, optimizer);
        const bool endToEnd = model.startsWith("yolo26");
        QTemporaryDir dir;
        const std::filesystem::path project = std::filesystem::path(dir.path().toStdString()) / "demo";
        QVERIFY(test::makeDemo(project, 32, 96));
        run::TrainConfig config;
        config.model = model.toStdString();
        QVERIFY(run::setOptionValue(config, "optimizer", optimizer.toStdString()));
        config.epochs = 4;
        config.imgsz = 96;
        config.batch = 8;
        // YOLO26 follows 8.4.190's warmup (3 iterations here, not 100), after which nbs=64 accumulates 8
        // batches: a window spans epochs, and the gradients of a window cut by the stop are not in last.pt
        // (nor in Ultralytics' checkpoints). nbs=8 steps every batch, so the runs can be compared exactly.
        if (endToEnd)
            config.nominalBatch = config.batch;
        config.workers = 2;
        config.warmupEpochs = 1; // 100 warmup iterations: the resumed epochs are still in warmup
        config.closeMosaic = 1;  // and the last one switches mosaic off
        config.name = "straight";
        test::CollectingSink straightSink;
        auto straight = job::trainProject(project, config, straightSink);
        QVERIFY2(straight, straight ? "" : straight.message().c_str());
        if (endToEnd) {
            bool muon = false;
            for (const auto& event : straightSink.ofType(TrainEvent::Type::Log))
                muon |= event.message.find("optimizer: MuSGD(lr=0.01) with parameter groups") == 0 &&
                        event.message.find("the class branches at lr x3") != std::string::npos;
            QVERIFY2(muon || optimizer != "MuSGD", "no MuSGD optimiser line in the log");
        }

        std::atomic<bool> stop{false};
        test::CollectingSink firstSink;
        firstSink.hook = [&](const TrainEvent& event) {
            if (event.type == TrainEvent::Type::Epoch && event.epoch == 2)
                stop = true;
        };
        config.name = "split";
        auto first = job::trainProject(project, config, firstSink, &stop);
        QVERIFY2(first, first ? "" : first.message().c_str());
        QCOMPARE(first->status, std::string("stopped"));
        QCOMPARE(first->epochsCompleted, 2);

        run::TrainConfig resume;
        resume.name = "split";
        resume.resume = true;
        resume.workers = 2;
        test::CollectingSink secondSink;
        auto second = job::trainProject(project, resume, secondSink);
        QVERIFY2(second, second ? "" : second.message().c_str());
        QCOMPARE(second->status, std::string("finished"));
        QCOMPARE(second->epochsCompleted, 4);
        const auto started = secondSink.ofType(TrainEvent::Type::RunStarted);
        QCOMPARE(started.size(), size_t(1));
        QCOMPARE(started[0].startEpoch, 3);

        const auto a = test::readCsv(project / "runs" / "straight" / "results.csv");
        const auto b = test::readCsv(project / "runs" / "split" / "results.csv");
        QCOMPARE(a.rows.size(), size_t(4));
        QCOMPARE(b.rows.size(), size_t(4));
        // YOLO26 logs its L1 box term under Ultralytics 8.4.190's name.
        QCOMPARE(b.header, endToEnd ? run::endToEndResultsCsvColumns() : run::resultsCsvColumns());
        const std::string third = endToEnd ? "train/l1_loss" : "train/dfl_loss";
        for (size_t row = 0; row < 4; ++row) {
            QCOMPARE(b.at(row, "epoch"), double(row + 1));
            for (const std::string column :
                 {"train/box_loss", "train/cls_loss", third.c_str(), "val/box_loss", "val/cls_loss",
                  "metrics/mAP50(B)", "lr/pg0", "lr/pg2"}) {
                const double x = a.at(row, column), y = b.at(row, column);
                QVERIFY2(std::abs(x - y) <= 2e-3 * std::max(1.0, std::abs(x)),
                         qPrintable(QString("epoch %1 %2: %3 vs %4")
                                        .arg(row + 1)
                                        .arg(QString::fromStdString(column))
                                        .arg(x)
                                        .arg(y)));
            }
        }
        QVERIFY(b.at(3, "time") > b.at(1, "time"));
        // The resumed process appended to the same events file: two run_started, one finished.
        const auto lines = test::readJsonl(project / "runs" / "split" / "events.jsonl");
        int startedCount = 0, finishedCount = 0;
        for (const auto& line : lines) {
            QVERIFY2(test::checkEventSchema(line).empty(), test::checkEventSchema(line).c_str());
            startedCount += line["type"] == "run_started";
            finishedCount += line["type"] == "finished" && line["status"] == "finished";
        }
        QCOMPARE(startedCount, 2);
        QCOMPARE(finishedCount, 1);
    }
};

QTEST_APPLESS_MAIN(TestTrainResume)
#include "tst_train_resume.moc"
