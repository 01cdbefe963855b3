// Resume: 2 epochs, a stop, then resume=true for epochs 3 and 4 must give the same losses and metrics
// as 4 uninterrupted epochs (same seed: the loader, the optimiser state, the EMA and the schedule are
// all restored from last.pt).
#include "job/project_training.h"
#include "train_test_util.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace osprey;
using run::TrainEvent;

class TestTrainResume : public QObject {
    Q_OBJECT
private slots:
    void resumedRunMatchesUninterrupted() {
        QTemporaryDir dir;
        const std::filesystem::path project = std::filesystem::path(dir.path().toStdString()) / "demo";
        QVERIFY(test::makeDemo(project, 32, 96));
        run::TrainConfig config;
        config.epochs = 4;
        config.imgsz = 96;
        config.batch = 8;
        config.workers = 2;
        config.warmupEpochs = 1; // 100 warmup iterations: the resumed epochs are still in warmup
        config.closeMosaic = 1;  // and the last one switches mosaic off
        config.name = "straight";
        test::CollectingSink straightSink;
        auto straight = job::trainProject(project, config, straightSink);
        QVERIFY2(straight, straight ? "" : straight.message().c_str());

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
        for (size_t row = 0; row < 4; ++row) {
            QCOMPARE(b.at(row, "epoch"), double(row + 1));
            for (const char* column : {"train/box_loss", "train/cls_loss", "train/dfl_loss", "val/box_loss",
                                       "val/cls_loss", "metrics/mAP50(B)", "lr/pg0", "lr/pg2"}) {
                const double x = a.at(row, column), y = b.at(row, column);
                QVERIFY2(std::abs(x - y) <= 2e-3 * std::max(1.0, std::abs(x)),
                         qPrintable(QString("epoch %1 %2: %3 vs %4").arg(row + 1).arg(column).arg(x).arg(y)));
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
