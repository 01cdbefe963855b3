// Overfitting 4 images: with augmentation off and the same images as the validation set, the engine must
// learn them to mAP50 >= 0.95. Exercises the loss, the assigner, the optimiser, the EMA, NMS and the
// scorer end to end.
#include "metrics/ultralytics_evaluator.h"
#include "train/data_loader.h"
#include "train/run_files.h"
#include "train/train_dataset.h"
#include "train/trainer.h"
#include "train_test_util.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace osprey;

namespace {

class Scorer : public train::DetectionScorer {
public:
    explicit Scorer(int classes) : m_evaluator(classes) {}
    void reset() override { m_evaluator.reset(); }
    void addImage(const std::vector<train::TargetBox>& truths,
                  const std::vector<train::ScoredBox>& found) override {
        std::vector<metrics::GroundTruthBox> gt;
        for (const auto& t : truths)
            gt.push_back({{t.x1, t.y1, t.x2, t.y2}, t.classId});
        std::vector<metrics::DetectionBox> dt;
        for (const auto& d : found)
            dt.push_back({{d.x1, d.y1, d.x2, d.y2}, d.classId, d.score});
        QVERIFY(m_evaluator.addImage(gt, dt));
    }
    train::ValMetrics compute() override {
        const auto m = m_evaluator.compute();
        return {m.precision, m.recall, m.map50, m.map50to95};
    }

private:
    metrics::UltralyticsEvaluator m_evaluator;
};

} // namespace

class TestTrainOverfit : public QObject {
    Q_OBJECT
private slots:
    void learnsFourImages() {
        QTemporaryDir dir;
        const std::filesystem::path project = std::filesystem::path(dir.path().toStdString()) / "demo";
        demo::DemoOptions demoOptions;
        demoOptions.images = 4;
        demoOptions.imageSizePx = 128;
        demoOptions.trainFraction = 1.0;
        QVERIFY(demo::createDemoProject(project, demoOptions));
        auto data = train::readProjectData(project);
        QVERIFY(data);
        QCOMPARE(data->train.samples.size(), size_t(4));

        train::TrainConfig config;
        config.epochs = 40;
        config.imgsz = 128;
        config.batch = 8;
        config.nominalBatch = 8;
        config.workers = 1;
        config.optimizer = train::OptimizerKind::AdamW;
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
        // The 4 images repeated 8 times: 4 optimiser steps per epoch, so validation and checkpoints (once per
        // epoch) stay a small part of the test's time.
        std::vector<train::Sample> repeated;
        for (int copy = 0; copy < 8; ++copy)
            repeated.insert(repeated.end(), data->train.samples.begin(), data->train.samples.end());
        train::DataLoader trainLoader(repeated, options);
        train::DataLoader valLoader(data->train.samples,
                                    train::LoaderOptions::fromConfig(config, train::LoaderMode::Val));
        Scorer scorer(static_cast<int>(data->classNames.size()));
        test::CollectingSink sink;
        train::TrainInputs inputs;
        inputs.train = &trainLoader;
        inputs.val = &valLoader;
        inputs.scorer = &scorer;
        inputs.dataset.classNames = data->classNames;
        inputs.dataset.trainImages = 32;
        inputs.runDir = std::filesystem::path(dir.path().toStdString()) / "run";
        inputs.events = &sink;
        auto result = train::runTraining(config, inputs);
        QVERIFY2(result, result ? "" : result.message().c_str());
        const auto csv = test::readCsv(inputs.runDir / "results.csv");
        double best = 0;
        for (size_t row = 0; row < csv.rows.size(); ++row)
            best = std::max(best, csv.at(row, "metrics/mAP50(B)"));
        qInfo("final mAP50 %.3f, mAP50-95 %.3f, best mAP50 %.3f", result->last.map50, result->last.map50to95,
              best);
        QVERIFY2(result->last.map50 >= 0.95, qPrintable(QString::number(result->last.map50)));
        QVERIFY(result->bestFitness > 0.5);
    }
};

QTEST_APPLESS_MAIN(TestTrainOverfit)
#include "tst_train_overfit.moc"
