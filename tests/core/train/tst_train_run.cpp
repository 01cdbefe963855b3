// A real (tiny) training run through trainProject: 2 epochs on 32 images of 96 px. Checks that the loss
// falls, the run folder holds every file with the documented columns and events, the runs table is
// updated, and a stop request ends the run cleanly with last.pt saved.
#include "job/project_training.h"
#include "model/detector.h"
#include "model/weights.h"
#include "project/project.h"
#include "run/run_curves.h"
#include "run/run_files.h"
#include "run/run_folder.h"
#include "train_test_util.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace osprey;
using run::TrainEvent;

namespace {

run::TrainConfig tinyConfig() {
    run::TrainConfig config;
    config.model = "yolov8n";
    config.epochs = 2;
    config.imgsz = 96;
    config.batch = 8;
    config.nominalBatch = 8; // an optimiser step per batch, so that 2 short epochs learn something
    config.workers = 2;
    config.warmupEpochs = 0;
    config.optimizer = run::OptimizerKind::AdamW;
    config.lr0 = 0.002;
    config.closeMosaic = 0;
    return config;
}

} // namespace

class TestTrainRun : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_project = std::filesystem::path(m_dir.path().toStdString()) / "demo";
        QVERIFY(test::makeDemo(m_project, 32, 96));
    }

    void twoEpochs() {
        test::CollectingSink sink;
        auto result = job::trainProject(m_project, tinyConfig(), sink);
        QVERIFY2(result, result ? "" : result.message().c_str());
        QCOMPARE(result->status, std::string("finished"));
        QCOMPARE(result->epochsCompleted, 2);
        const auto runDir = m_project / "runs" / "train";
        for (const char* file :
             {"args.yaml", "results.csv", "events.jsonl", "weights/last.pt", "weights/best.pt"})
            QVERIFY2(std::filesystem::file_size(runDir / file) > 0, file);
        // At the end best.pt is an inference file (EMA weights in float16); last.pt keeps what resume needs.
        const auto bestMeta = model::readCheckpointMeta(runDir / "weights/best.pt");
        const auto lastMeta = model::readCheckpointMeta(runDir / "weights/last.pt");
        QVERIFY(bestMeta && lastMeta);
        QVERIFY(!bestMeta->hasEma && bestMeta->blobs.empty() && bestMeta->groups.empty());
        QVERIFY(lastMeta->hasEma && !lastMeta->blobs.empty());
        QVERIFY(std::filesystem::file_size(runDir / "weights/best.pt") * 6 <
                std::filesystem::file_size(runDir / "weights/last.pt"));
        QVERIFY(model::loadDetector(runDir / "weights/best.pt"));

        const auto batches = sink.ofType(TrainEvent::Type::Batch);
        QVERIFY(batches.size() >= 2);
        QCOMPARE(batches.back().epoch, 2);

        // results.csv: the Ultralytics 8.4 columns, epochs from 1, cumulative time, losses that fall.
        const auto csv = test::readCsv(runDir / "results.csv");
        QCOMPARE(csv.header, run::resultsCsvColumns());
        const std::vector<std::string> expected{"epoch",
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
        QCOMPARE(csv.header, expected);
        QCOMPARE(csv.rows.size(), size_t(2));
        QCOMPARE(csv.at(0, "epoch"), 1.0);
        QCOMPARE(csv.at(1, "epoch"), 2.0);
        QVERIFY(csv.at(1, "time") > csv.at(0, "time") && csv.at(0, "time") > 0);
        const double loss1 =
            csv.at(0, "train/box_loss") + csv.at(0, "train/cls_loss") + csv.at(0, "train/dfl_loss");
        const double loss2 =
            csv.at(1, "train/box_loss") + csv.at(1, "train/cls_loss") + csv.at(1, "train/dfl_loss");
        QVERIFY2(loss2 < loss1, qPrintable(QString("%1 -> %2").arg(loss1).arg(loss2)));
        const double val1 = csv.at(0, "val/box_loss") + csv.at(0, "val/cls_loss") + csv.at(0, "val/dfl_loss");
        const double val2 = csv.at(1, "val/box_loss") + csv.at(1, "val/cls_loss") + csv.at(1, "val/dfl_loss");
        QVERIFY2(val2 < val1, qPrintable(QString("val %1 -> %2").arg(val1).arg(val2)));
        QVERIFY(csv.at(0, "val/box_loss") > 0);
        // Linear schedule without warmup: epoch 2's lr is lr0 * ((1 - 1/2) * 0.99 + 0.01).
        QVERIFY(std::abs(csv.at(1, "lr/pg0") - 0.002 * 0.505) < 1e-7);

        // Every event line validates; the stream starts, reports each epoch and finishes.
        const auto lines = test::readJsonl(runDir / "events.jsonl");
        QVERIFY(lines.size() > 5);
        std::map<std::string, int> counts;
        for (const auto& line : lines) {
            const auto problem = test::checkEventSchema(line);
            QVERIFY2(problem.empty(), problem.c_str());
            ++counts[line["type"].get<std::string>()];
        }
        QCOMPARE(counts["run_started"], 1);
        QCOMPARE(counts["epoch"], 2);
        QCOMPARE(counts["finished"], 1);
        QVERIFY(counts["system"] >= 1);
        QVERIFY(counts["checkpoint"] >= 3);
        QCOMPARE(lines.back()["type"].get<std::string>(), std::string("finished"));
        const auto& started = *std::find_if(lines.begin(), lines.end(),
                                            [](const auto& j) { return j["type"] == "run_started"; });
        QCOMPARE(started["dataset"]["names"].size(), size_t(4));
        QCOMPARE(started["model"]["name"].get<std::string>(), std::string("yolov8n"));
        QCOMPARE(started["pid"].get<qint64>(), QCoreApplication::applicationPid()); // trained in this process
        QVERIFY(started["dataset"]["train_images"].get<int>() + started["dataset"]["val_images"].get<int>() ==
                32);

        // Batch events are throttled to at most 5 per second within an epoch (the last one always comes).
        double previous = -1;
        int previousEpoch = 0;
        for (const auto& line : lines) {
            if (line["type"] != "batch")
                continue;
            const bool lastOfEpoch = line["batch"] == line["batches"];
            if (line["epoch"].get<int>() == previousEpoch && !lastOfEpoch)
                QVERIFY(line["t"].get<double>() - previous >= 0.199);
            previous = line["t"].get<double>();
            previousEpoch = line["epoch"].get<int>();
        }

        // curves.json: the best epoch's curves at 101 points, one count row per val image, read back whole.
        const auto curves = run::readRunCurves(run::RunFolder(runDir).curves());
        QVERIFY2(curves, curves ? "" : curves.message().c_str());
        const int bestEpochs = static_cast<int>(std::count_if(lines.begin(), lines.end(), [](const auto& j) {
            return j["type"] == "epoch" && j.value("best", false);
        }));
        QVERIFY(bestEpochs >= 1); // so the file was written
        QVERIFY(curves->epoch >= 1 && curves->epoch <= 2);
        QCOMPARE(curves->classNames.size(), size_t(4));
        QCOMPARE(curves->x.size(), size_t(101));
        QVERIFY(!curves->classes.empty());
        QCOMPARE(curves->f1.size(), curves->classes.size());
        QCOMPARE(curves->ap.front().size(), size_t(10));
        QCOMPARE(curves->confusionMatrix.size(), size_t(25));
        QCOMPARE(static_cast<int>(curves->images.size()), started["dataset"]["val_images"].get<int>());
        QVERIFY(curves->bestConfidence >= 0 && curves->bestConfidence <= 1);

        // The runs table.
        auto project = project::Project::open(m_project);
        QVERIFY(project);
        auto runs = project.value()->runs().list();
        QVERIFY(runs);
        QCOMPARE(runs->size(), size_t(1));
        const auto& run = runs->front();
        QCOMPARE(run.name, std::string("train"));
        QVERIFY(run.status == project::RunStatus::Finished);
        QVERIFY(run.bestEpoch.has_value());
        QVERIFY(run.finishedAt.has_value());
        QVERIFY(std::filesystem::exists(run.weightsPath));

        // args.yaml reads back into the same configuration.
        auto config = job::readRunConfig(runDir / "args.yaml");
        QVERIFY(config);
        QCOMPARE(config->imgsz, 96);
        QCOMPARE(config->batch, 8);
        QVERIFY(config->optimizer == run::OptimizerKind::AdamW);
    }

    void stopRequestSavesAndEnds() {
        std::atomic<bool> stop{false};
        test::CollectingSink sink;
        sink.hook = [&](const TrainEvent& event) {
            if (event.type == TrainEvent::Type::Batch)
                stop = true;
        };
        auto config = tinyConfig();
        config.name = "stopped";
        auto result = job::trainProject(m_project, config, sink, &stop);
        QVERIFY2(result, result ? "" : result.message().c_str());
        QCOMPARE(result->status, std::string("stopped"));
        QCOMPARE(result->epochsCompleted, 0);
        QVERIFY(std::filesystem::exists(m_project / "runs" / "stopped" / "weights" / "last.pt"));
        const auto finished = sink.ofType(TrainEvent::Type::Finished);
        QCOMPARE(finished.size(), size_t(1));
        QCOMPARE(finished[0].status, std::string("stopped"));
        QVERIFY(finished[0].message.find("resume=true") != std::string::npos);
        // No temporary files are left behind.
        for (const auto& entry :
             std::filesystem::directory_iterator(m_project / "runs" / "stopped" / "weights"))
            QVERIFY2(entry.path().extension() == ".pt", entry.path().c_str());
        auto project = project::Project::open(m_project);
        auto runs = project.value()->runs().list();
        bool found = false;
        for (const auto& run : runs.value())
            if (run.name == "stopped") {
                found = true;
                QVERIFY(run.status == project::RunStatus::Stopped);
            }
        QVERIFY(found);
    }

    void badConfigFailsWithEvent() {
        test::CollectingSink sink;
        auto config = tinyConfig();
        config.imgsz = 50;
        config.name = "bad";
        auto result = job::trainProject(m_project, config, sink);
        QVERIFY(!result);
        QVERIFY(result.message().find("imgsz") != std::string::npos);
        const auto failed = sink.ofType(TrainEvent::Type::Failed);
        QCOMPARE(failed.size(), size_t(1));
    }

private:
    QTemporaryDir m_dir;
    std::filesystem::path m_project;
};

QTEST_APPLESS_MAIN(TestTrainRun)
#include "tst_train_run.moc"
