// Out-of-memory recovery in the training loop on the CPU, with the error injected before a forward pass
// (the engine's test hook throws what the CUDA allocator throws): the first error halves the images per
// forward pass and the run goes on with the same batch and optimiser steps; an error at one image ends
// the run with a plain message naming the model, imgsz, batch and free memory, and the last checkpoint
// stays as it was.
#include <torch/torch.h>

#include "model/weights_torch_impl.h"
#include "synthetic_source.h"
#include "train/trainer.h"
#include "train_test_util.h"

#include <QTemporaryDir>
#include <QtTest>

#include <array>

using namespace osprey;
using namespace osprey::train;
using run::TrainEvent;

namespace {

run::TrainConfig tinyConfig(int batch, int epochs) {
    run::TrainConfig config;
    config.model = "yolov8n";
    config.imgsz = 64;
    config.batch = batch;
    config.nominalBatch = 8;
    config.epochs = epochs;
    config.device = "cpu";
    config.threads = 2;
    config.warmupEpochs = 0;
    config.validate = false;
    return config;
}

void throwOutOfMemory() {
    TORCH_CHECK_WITH(OutOfMemoryError, false, "CUDA out of memory. Tried to allocate 1.50 GiB (injected)");
}

std::vector<std::string> logLines(test::CollectingSink& sink) {
    std::vector<std::string> lines;
    for (const auto& event : sink.ofType(TrainEvent::Type::Log))
        lines.push_back(event.message);
    return lines;
}

} // namespace

class TestTrainOom : public QObject {
    Q_OBJECT

private slots:
    void firstOutOfMemoryHalvesTheBatchAndGoesOn_data() {
        QTest::addColumn<QString>("model");
        QTest::newRow("yolov8n") << "yolov8n";
        QTest::newRow("yolo26n") << "yolo26n";
    }
    void firstOutOfMemoryHalvesTheBatchAndGoesOn() {
        QFETCH(QString, model);
        QTemporaryDir dir;
        test::SyntheticSource source(12, 4);
        test::CollectingSink sink;
        std::vector<StepInfo> steps;
        bool thrown = false;
        TrainInputs inputs;
        inputs.train = &source;
        inputs.dataset.classNames = {"a", "b"};
        inputs.runDir = std::filesystem::path(dir.path().toStdString()) / "run";
        inputs.events = &sink;
        inputs.beforeStep = [&](const StepInfo& step) {
            steps.push_back(step);
            if (step.iteration == 1 && !thrown) {
                thrown = true;
                throwOutOfMemory();
            }
        };
        auto config = tinyConfig(4, 2);
        config.model = model.toStdString();
        const auto result = runTraining(config, inputs);
        QVERIFY2(result, result ? "" : result.message().c_str());
        QCOMPARE(result->status, std::string("finished"));
        QCOMPARE(result->epochsCompleted, 2);
        // Iteration 0 at 4 images, the failed try of iteration 1, then every batch as two forwards of 2.
        QCOMPARE(steps.size(), size_t(1 + 1 + 2 * 5));
        QCOMPARE(steps[0].images, 4);
        QCOMPARE(steps[1].images, 4);
        for (size_t i = 2; i < steps.size(); ++i)
            QCOMPARE(steps[i].images, 2);
        QCOMPARE(steps[2].iteration, 1LL); // the failed batch is trained again
        QCOMPARE(steps.back().iteration, 5LL);
        QCOMPARE(result->phases.images, 24LL); // every image trained once per epoch
        bool said = false;
        for (const auto& line : logLines(sink))
            if (line.find(
                    "Out of memory at batch 4 (epoch 1, iteration 1): freed the cache and continuing at "
                    "batch 2 (2 forward passes per batch of 4, so the nominal batch of 8") == 0)
                said = true;
        QVERIFY(said);
        QVERIFY(sink.ofType(TrainEvent::Type::Failed).empty());
        const auto losses = sink.ofType(TrainEvent::Type::Epoch);
        QCOMPARE(losses.size(), size_t(2));
        QVERIFY(std::isfinite(losses.back().metrics.boxLoss) && losses.back().metrics.boxLoss > 0);
        // On the CPU there is no CUDA allocator peak: the epoch event says null.
        QVERIFY(std::isnan(losses.back().gpuPeakMemMb));
        QVERIFY(run::toJson(losses.back()).find("\"gpu_peak_mem_mb\":null") != std::string::npos);
    }

    // Validation runs a batch that does not fit in halves, and the pass gives the same losses.
    void outOfMemoryInValidationRunsSmallerPieces() {
        const auto train = [](bool inject, std::vector<int>* pieces) {
            QTemporaryDir dir;
            test::SyntheticSource source(8, 4), val(8, 4);
            test::CollectingSink sink;
            TrainInputs inputs;
            inputs.train = &source;
            inputs.val = &val;
            inputs.dataset.classNames = {"a", "b"};
            inputs.runDir = std::filesystem::path(dir.path().toStdString()) / "run";
            inputs.events = &sink;
            bool thrown = false;
            inputs.beforeValidationForward = [&](int images) {
                if (pieces)
                    pieces->push_back(images);
                if (inject && !thrown && images > 2) {
                    thrown = true;
                    throwOutOfMemory();
                }
            };
            auto config = tinyConfig(4, 1);
            config.validate = true;
            const auto result = runTraining(config, inputs);
            if (!result)
                qWarning("%s", result.message().c_str());
            const auto epochs = sink.ofType(TrainEvent::Type::Epoch);
            return epochs.empty()
                       ? std::array<double, 3>{-1, -1, -1}
                       : std::array<double, 3>{epochs[0].metrics.valBoxLoss, epochs[0].metrics.valClsLoss,
                                               epochs[0].metrics.valDflLoss};
        };
        std::vector<int> plain, pieces;
        const auto reference = train(false, &plain);
        const auto recovered = train(true, &pieces);
        // Two validation batches of 4, one forward each without the error; with it, the failed try at 4,
        // then pieces of 2 for the rest of the pass.
        QCOMPARE(plain, (std::vector<int>{4, 4}));
        QCOMPARE(pieces, (std::vector<int>{4, 2, 2, 2, 2}));
        QVERIFY(reference[0] > 0);
        for (size_t i = 0; i < 3; ++i)
            QVERIFY2(std::abs(reference[i] - recovered[i]) <= 1e-5 * std::abs(reference[i]),
                     qPrintable(QString("%1 vs %2").arg(reference[i]).arg(recovered[i])));
    }

    // The optimiser step cannot be halved or retried (it updates parameter after parameter): the run ends
    // with a plain message, the checkpoint of the epoch before kept.
    void outOfMemoryInTheOptimiserStepEndsPlainly() {
        QTemporaryDir dir;
        test::SyntheticSource source(8, 4);
        test::CollectingSink sink;
        TrainInputs inputs;
        inputs.train = &source;
        inputs.dataset.classNames = {"a", "b"};
        inputs.runDir = std::filesystem::path(dir.path().toStdString()) / "run";
        inputs.events = &sink;
        int steps = 0;
        inputs.beforeOptimizerStep = [&](const StepInfo& step) {
            ++steps;
            if (step.epoch == 2)
                throwOutOfMemory();
        };
        auto config = tinyConfig(4, 2);
        config.nominalBatch = 4; // a step after every batch
        const auto result = runTraining(config, inputs);
        QVERIFY(!result);
        QCOMPARE(steps, 3); // two in epoch 1, the failing one in epoch 2
        for (const char* part :
             {"out of memory in the optimiser step", "yolov8n at imgsz=64", "does not fit on cpu",
              "configured batch=4", "(epoch 1) is kept; resume with resume=true"})
            QVERIFY2(result.message().find(part) != std::string::npos,
                     (std::string(part) + " in: " + result.message()).c_str());
        QCOMPARE(sink.ofType(TrainEvent::Type::Failed).size(), size_t(1));
        QVERIFY(std::filesystem::exists(inputs.runDir / "weights" / "last.pt"));
    }

    void outOfMemoryAtOneImageEndsPlainlyAndKeepsTheCheckpoint() {
        QTemporaryDir dir;
        test::SyntheticSource source(4, 2);
        test::CollectingSink sink;
        std::vector<StepInfo> failing;
        TrainInputs inputs;
        inputs.train = &source;
        inputs.dataset.classNames = {"a", "b"};
        inputs.runDir = std::filesystem::path(dir.path().toStdString()) / "run";
        inputs.events = &sink;
        inputs.beforeStep = [&](const StepInfo& step) {
            if (step.epoch == 2) {
                failing.push_back(step);
                throwOutOfMemory();
            }
        };
        const auto last = inputs.runDir / "weights" / "last.pt";
        std::filesystem::file_time_type savedAt;
        sink.hook = [&](const TrainEvent& event) {
            if (event.type == TrainEvent::Type::Checkpoint && event.kind == "last")
                savedAt = std::filesystem::last_write_time(last);
        };
        const auto result = runTraining(tinyConfig(2, 3), inputs);
        QVERIFY(!result);
        QCOMPARE(failing.size(), size_t(2)); // at 2 images, then at 1
        QCOMPARE(failing[0].images, 2);
        QCOMPARE(failing[1].images, 1);
        const auto& message = result.message();
        for (const char* part :
             {"out of memory at batch 1", "yolov8n at imgsz=64", "does not fit on cpu", "of RAM free",
              "configured batch=2", "(epoch 1) is kept; resume with resume=true"})
            QVERIFY2(message.find(part) != std::string::npos,
                     (std::string(part) + " in: " + message).c_str());
        const auto failed = sink.ofType(TrainEvent::Type::Failed);
        QCOMPARE(failed.size(), size_t(1));
        QCOMPARE(failed[0].message, message);
        // last.pt is the one the first epoch wrote, untouched, and still loads.
        QVERIFY(std::filesystem::exists(last));
        QVERIFY(std::filesystem::last_write_time(last) == savedAt);
        const auto meta = model::readCheckpointMeta(last);
        QVERIFY2(meta, meta ? "" : meta.message().c_str());
        QVERIFY(model::loadCheckpoint(last));
    }
};

QTEST_APPLESS_MAIN(TestTrainOom)
#include "tst_train_oom.moc"
