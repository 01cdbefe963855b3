// The validation after each epoch runs in the run's precision (a GPU run validates under its autocast, as
// Ultralytics validates in half precision during training); bf16 autocast on the CPU stands in for it here.
// On the Ultralytics-trained shapes detector and 48 demo val images at 320 px, the bf16 pass must score the
// same mAP as float32 within 0.01 and the same losses within 2 %, and must really have run in bf16 (its
// losses differ from float32's). Skipped without the fixture.
#include <torch/torch.h>

#include "job/project_data.h"
#include "model/predictor.h"
#include "model/weights_torch_impl.h"
#include "run/train_config.h"
#include "train/data_loader.h"
#include "train/trainer_impl.h"
#include "train/ultralytics_scorer.h"
#include "train_test_util.h"

#include "../../fixtures.h"

#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <cmath>
#include <cstdio>

using namespace osprey;
using namespace osprey::train;

namespace {

const char* const kPretrained = "models/ultralytics-trained/yolov8n-shapes-best.pt";

double relative(double a, double b) {
    return std::abs(a - b) / std::max(1e-12, std::abs(b));
}

} // namespace

class TestValidationPrecision : public QObject {
    Q_OBJECT
private slots:
    void bf16ScoresLikeFloat32() {
        OSPREY_REQUIRE_FIXTURE(kPretrained);
        QTemporaryDir dir;
        const std::filesystem::path project = dir.filePath("shapes").toStdString();
        demo::DemoOptions demoOptions;
        demoOptions.images = 64;
        demoOptions.imageSizePx = 320;
        demoOptions.seed = 3;
        demoOptions.trainFraction = 0.25;
        QVERIFY(demo::createDemoProject(project, demoOptions));
        auto data = job::readProjectData(project);
        QVERIFY2(data, data ? "" : data.message().c_str());
        QCOMPARE(data->val.samples.size(), size_t(48));

        run::TrainConfig config;
        config.imgsz = 320;
        config.batch = 16;
        config.workers = 0;
        model::setComputeThreads(2);
        DataLoader val(data->val.samples, LoaderOptions::fromConfig(config, LoaderMode::Val),
                       [](const std::string& message) { qWarning("%s", message.c_str()); });
        auto checkpoint = model::loadCheckpoint(test::fixture(kPretrained));
        QVERIFY2(checkpoint, checkpoint ? "" : checkpoint.message().c_str());
        auto network = model::modelFromCheckpoint(checkpoint.value(), /*preferEma=*/true);
        QVERIFY2(network, network ? "" : network.message().c_str());
        auto& net = *network.value();
        const int classes = static_cast<int>(data->classNames.size());
        QCOMPARE(net.numClasses(), classes);
        const Criterion loss(net, config.epochs, LossGains{config.boxGain, config.clsGain, config.dflGain});
        const auto scorer = makeUltralyticsScorer(classes);

        const torch::Device cpu(torch::kCPU);
        const auto pass = [&](Precision precision) {
            const auto start = std::chrono::steady_clock::now();
            auto result = validateEpoch(net, val, loss, scorer.get(), config, cpu, precision, 0);
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            std::printf("%-7s mAP50-95 %.4f mAP50 %.4f P %.4f R %.4f; val losses %.5f %.5f %.5f; %.2f s\n",
                        toString(precision), result.metrics.map50to95, result.metrics.map50,
                        result.metrics.precision, result.metrics.recall, result.boxLoss, result.clsLoss,
                        result.dflLoss, seconds);
            return result;
        };
        pass(Precision::Float32); // warm-up: oneDNN's first calls
        const auto full = pass(Precision::Float32);
        const auto bf16 = pass(Precision::BFloat16);
        const auto again = pass(Precision::Float32);

        QVERIFY2(full.metrics.map50to95 > 0.5, "the fixture detects the demo shapes");
        // float32 after bf16: autocast was switched off again and the network left as it was.
        QCOMPARE(again.metrics.map50to95, full.metrics.map50to95);
        QCOMPARE(again.boxLoss, full.boxLoss);
        // bf16 really ran: its losses are not float32's ...
        QVERIFY2(bf16.boxLoss != full.boxLoss && bf16.clsLoss != full.clsLoss, "bf16 gave float32's losses");
        // ... and it scores the same.
        QVERIFY2(std::abs(bf16.metrics.map50to95 - full.metrics.map50to95) <= 0.01,
                 std::to_string(bf16.metrics.map50to95 - full.metrics.map50to95).c_str());
        QVERIFY2(std::abs(bf16.metrics.map50 - full.metrics.map50) <= 0.01,
                 std::to_string(bf16.metrics.map50 - full.metrics.map50).c_str());
        QVERIFY2(relative(bf16.boxLoss, full.boxLoss) <= 0.02, std::to_string(bf16.boxLoss).c_str());
        QVERIFY2(relative(bf16.clsLoss, full.clsLoss) <= 0.02, std::to_string(bf16.clsLoss).c_str());
        QVERIFY2(relative(bf16.dflLoss, full.dflLoss) <= 0.02, std::to_string(bf16.dflLoss).c_str());
    }
};

QTEST_GUILESS_MAIN(TestValidationPrecision)
#include "tst_validation_precision.moc"
