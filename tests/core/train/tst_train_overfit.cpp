// Overfitting 4 images: with augmentation off and the same images as the validation set, the engine must
// learn them to mAP50 >= 0.95 (within its last 10 epochs, see below). Exercises the loss, the assigner, the
// optimiser, the EMA, NMS and the scorer end to end.
//
// The 4 images are the first demo images whose objects are all at least 16 px on a side at imgsz 128 (the
// demo draws objects down to 6 % of the side, 8 px here). Measured: 8-12 px objects at a 128 px input
// were still missed after 320 optimiser steps (recall stuck at 0.61 while the losses kept falling), so
// they would make this a test of small-object learning speed rather than of fitting.
//
// 40 epochs of 8 steps: on an Intel CPU with AMX, 24 epochs reached mAP50 0.995 from epoch 20; on an AMD
// EPYC (AVX512-BF16, no AMX) the same 24 epochs ended at 0.935 with one object still missed (float32
// rounding differs between the CPUs' oneDNN kernels, and a run of 192 steps from scratch amplifies it).
// With 40 epochs that CPU holds 0.995 from epoch 30 on. On a Zen 2 EPYC (float32, the Winograd
// convolutions of core/model/winograd_conv.cpp) seed 0 reached 0.995 at epochs 26-34 and then ended at
// 0.928, one object short, while seeds 1-3 ended at 0.995, and all four did with OSPREY_WINOGRAD=0: a
// rounding-level change moves which epoch the last object flickers in. So the test asks that the run
// reach 0.95 within its last 10 epochs and end above 0.9, not that its very last epoch be the best.
#include "job/project_data.h"
#include "run/run_files.h"
#include "train/data_loader.h"
#include "train/trainer.h"
#include "train/ultralytics_scorer.h"
#include "train_test_util.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace osprey;

class TestTrainOverfit : public QObject {
    Q_OBJECT
private slots:
    void learnsFourImages() {
        QTemporaryDir dir;
        const std::filesystem::path project = std::filesystem::path(dir.path().toStdString()) / "demo";
        demo::DemoOptions demoOptions;
        demoOptions.images = 16;
        demoOptions.imageSizePx = 128;
        demoOptions.trainFraction = 1.0;
        QVERIFY(demo::createDemoProject(project, demoOptions));
        auto data = job::readProjectData(project);
        QVERIFY(data);
        QCOMPARE(data->train.samples.size(), size_t(16));
        std::vector<train::Sample> four;
        for (const auto& sample : data->train.samples) {
            bool large = !sample.boxes.empty();
            for (const auto& box : sample.boxes)
                large = large && box.x2 - box.x1 >= 16 && box.y2 - box.y1 >= 16;
            if (large && four.size() < 4)
                four.push_back(sample);
        }
        QCOMPARE(four.size(), size_t(4));

        run::TrainConfig config;
        config.epochs = 40;
        config.imgsz = 128;
        config.batch = 4;
        config.nominalBatch = 4;
        config.workers = 1;
        config.optimizer = run::OptimizerKind::AdamW;
        config.lr0 = 0.002;
        config.warmupEpochs = 0;
        config.mosaic = 0;
        config.closeMosaic = 0;
        config.translate = 0;
        config.scale = 0;
        config.fliplr = 0;
        config.hsvH = config.hsvS = config.hsvV = 0;
        config.patience = 1000;
        auto options = train::LoaderOptions::fromConfig(config, train::LoaderMode::Train);
        // The 4 images repeated 8 times: 8 optimiser steps per epoch, so validation and checkpoints (once per
        // epoch) stay a small part of the test's time.
        std::vector<train::Sample> repeated;
        for (int copy = 0; copy < 8; ++copy)
            repeated.insert(repeated.end(), four.begin(), four.end());
        train::DataLoader trainLoader(repeated, options);
        train::DataLoader valLoader(four, train::LoaderOptions::fromConfig(config, train::LoaderMode::Val));
        const auto scorer = train::makeUltralyticsScorer(static_cast<int>(data->classNames.size()));
        test::CollectingSink sink;
        train::TrainInputs inputs;
        inputs.train = &trainLoader;
        inputs.val = &valLoader;
        inputs.scorer = scorer.get();
        inputs.dataset.classNames = data->classNames;
        inputs.dataset.trainImages = 32;
        inputs.runDir = std::filesystem::path(dir.path().toStdString()) / "run";
        inputs.events = &sink;
        auto result = train::runTraining(config, inputs);
        QVERIFY2(result, result ? "" : result.message().c_str());
        const auto csv = test::readCsv(inputs.runDir / "results.csv");
        double best = 0, bestLate = 0;
        for (size_t row = 0; row < csv.rows.size(); ++row) {
            best = std::max(best, csv.at(row, "metrics/mAP50(B)"));
            if (row + 10 >= csv.rows.size())
                bestLate = std::max(bestLate, csv.at(row, "metrics/mAP50(B)"));
            qInfo("epoch %zu: box %.3f cls %.3f dfl %.3f  P %.3f R %.3f mAP50 %.3f mAP50-95 %.3f", row + 1,
                  csv.at(row, "train/box_loss"), csv.at(row, "train/cls_loss"), csv.at(row, "train/dfl_loss"),
                  csv.at(row, "metrics/precision(B)"), csv.at(row, "metrics/recall(B)"),
                  csv.at(row, "metrics/mAP50(B)"), csv.at(row, "metrics/mAP50-95(B)"));
        }
        qInfo("final mAP50 %.3f, mAP50-95 %.3f, best mAP50 %.3f", result->last.map50, result->last.map50to95,
              best);
        QCOMPARE(csv.rows.size(), size_t(config.epochs));
        QVERIFY2(bestLate >= 0.95, qPrintable(QString::number(bestLate)));
        QVERIFY2(result->last.map50 >= 0.9, qPrintable(QString::number(result->last.map50)));
        QVERIFY(result->bestFitness > 0.5);
    }
};

QTEST_APPLESS_MAIN(TestTrainOverfit)
#include "tst_train_overfit.moc"
