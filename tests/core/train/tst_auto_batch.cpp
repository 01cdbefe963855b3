// AutoBatch on the CPU with an injected memory model: the same profiling path as on a GPU (real forward,
// loss and backward steps of yolov8n) with a probe whose peaks follow a known line, so the fit and the
// chosen batch are checked against hand-computed values; plus an out-of-memory profile, clamping, the
// fraction, the CPU fallback and the batch option's AutoBatch spellings.
#include <torch/torch.h>

#include "run/train_config.h"
#include "train/auto_batch.h"
#include "train/grad_scaler_impl.h"

#include <QtTest>

#include <cmath>

using namespace osprey;
using namespace osprey::train;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

/// Peak = fixed + perImage x batch; optionally "runs out of memory" from some batch on.
class ModelProbe : public MemoryProbe {
public:
    ModelProbe(double freeB, double fixedB, double perImageB, int oomFrom = 0)
        : m_free(freeB), m_fixed(fixedB), m_perImage(perImageB), m_oomFrom(oomFrom) {}
    std::string deviceName() const override { return "model:0"; }
    double freeBytes() override { return m_free; }
    double totalBytes() override { return 2 * m_free; }
    void beginStep(int batch) override {
        begun.push_back(batch);
        m_batch = batch;
        if (m_oomFrom && batch >= m_oomFrom)
            TORCH_CHECK_WITH(OutOfMemoryError, false, "CUDA out of memory. Tried to allocate 20.00 MiB");
    }
    double peakBytes() override {
        ++measured;
        return m_fixed + m_perImage * m_batch;
    }
    std::vector<int> begun;
    int measured = 0;

private:
    double m_free, m_fixed, m_perImage;
    int m_oomFrom;
    int m_batch = 0;
};

run::TrainConfig smallConfig() {
    run::TrainConfig config;
    config.model = "yolov8n";
    config.imgsz = 64;
    config.device = "cpu";
    config.batch = -1;
    config.batchFraction = run::kAutoBatchFraction;
    return config;
}

} // namespace

class TestAutoBatch : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { torch::set_num_threads(2); }

    void fitAndBudget() {
        const std::vector<BatchMemorySample> samples = {
            {1, 120 * kMiB}, {2, 140 * kMiB}, {4, 180 * kMiB}, {8, 260 * kMiB}};
        const auto fit = fitMemory(samples);
        QVERIFY(std::abs(fit.fixedBytes - 100 * kMiB) < 1);
        QVERIFY(std::abs(fit.bytesPerImage - 20 * kMiB) < 1e-3);
        // (0.6 x 1000 - 100) / 20 = 25 images.
        QCOMPARE(batchForBudget(fit, 1000 * kMiB, 0.6), 25);
        QCOMPARE(batchForBudget(fit, 1000 * kMiB, 0.7), 30);
        QCOMPARE(batchForBudget(fit, 1e15, 0.6), 1024);
        QCOMPARE(batchForBudget(fit, 50 * kMiB, 0.6), 1);
        QCOMPARE(batchForBudget(MemoryFit{100 * kMiB, 0}, 1000 * kMiB, 0.6), 16); // no growth: default
    }

    void profilesRealStepsThroughTheProbe_data() {
        QTest::addColumn<QString>("model");
        QTest::newRow("yolov8n") << "yolov8n";
        QTest::newRow("yolo26n") << "yolo26n"; // its end-to-end loss on both heads in the profiled steps
    }
    void profilesRealStepsThroughTheProbe() {
        QFETCH(QString, model);
        auto config = smallConfig();
        config.model = model.toStdString();
        ModelProbe probe(2048 * kMiB, 300 * kMiB, 20 * kMiB);
        const auto plan = planAutoBatch(config, 2, &probe);
        QVERIFY2(plan, plan ? "" : plan.message().c_str());
        QCOMPARE(probe.begun, autoBatchProfileSizes());
        QCOMPARE(probe.measured, 5); // one measurement after each completed step
        QCOMPARE(plan->samples.size(), size_t(5));
        QVERIFY(std::abs(plan->fit.bytesPerImage - 20 * kMiB) < 1e-3);
        // (0.6 x 2048 - 300) / 20 = 46.44 -> 46.
        QCOMPARE(plan->batch, 46);
        QVERIFY(std::abs(plan->predictedBytes - (300 + 20 * 46) * kMiB) < 1);
        QVERIFY2(plan->message.find("AutoBatch: batch=46 for 60% of the 2.00 GiB free on model:0") == 0,
                 plan->message.c_str());
        // The profile's precision is the run's on this CPU: bf16 where it computes bf16 fast (LibTorch 2.x).
        const std::string precision = toString(choosePrecision(true, false, fastBFloat16(torch::kCPU)));
        QVERIFY2(plan->message.find(config.model + " " + precision + " at imgsz 64") != std::string::npos,
                 plan->message.c_str());
        QVERIFY2(plan->message.find("20.0 MiB per image") != std::string::npos, plan->message.c_str());
    }

    void fractionAndClamp() {
        auto config = smallConfig();
        config.batchFraction = 0.7;
        ModelProbe probe(2048 * kMiB, 300 * kMiB, 20 * kMiB);
        auto plan = planAutoBatch(config, 2, &probe);
        QVERIFY(plan);
        QCOMPARE(plan->batch, 56); // (0.7 x 2048 - 300) / 20 = 56.68
        ModelProbe huge(1e15, 300 * kMiB, 1 * kMiB);
        plan = planAutoBatch(smallConfig(), 2, &huge);
        QVERIFY(plan);
        QCOMPARE(plan->batch, 1024);
        QVERIFY(plan->message.find("clamped to [1, 1024]") != std::string::npos);
    }

    void outOfMemoryWhileProfiling() {
        // Plenty of memory by the line, but batch 8 fails: the choice stays below it.
        ModelProbe probe(100000 * kMiB, 300 * kMiB, 20 * kMiB, 8);
        auto plan = planAutoBatch(smallConfig(), 2, &probe);
        QVERIFY2(plan, plan ? "" : plan.message().c_str());
        QCOMPARE(probe.begun, (std::vector<int>{1, 2, 4, 8}));
        QCOMPARE(plan->samples.size(), size_t(3));
        QCOMPARE(plan->failedBatch, 8);
        QCOMPARE(plan->batch, 4);
        QVERIFY(plan->message.find("batch 8 ran out of memory") != std::string::npos);
        // Even batch 1 fails: a plain error naming the model, imgsz and the memory.
        ModelProbe none(100 * kMiB, 300 * kMiB, 20 * kMiB, 1);
        plan = planAutoBatch(smallConfig(), 2, &none);
        QVERIFY(!plan);
        QVERIFY2(plan.message().find("yolov8n at imgsz=64 with batch 1 runs out of memory on model:0") !=
                     std::string::npos,
                 plan.message().c_str());
    }

    void cpuWithoutProbeUsesTheDefault() {
        const auto plan = planAutoBatch(smallConfig(), 2);
        QVERIFY(plan);
        QCOMPARE(plan->batch, 16);
        QCOMPARE(plan->message,
                 std::string("AutoBatch needs a CUDA device to measure memory; on cpu it uses batch=16"));
    }

    void batchOptionSpellings() {
        run::TrainConfig config;
        QVERIFY(run::applyArgs(config, {{"batch", "-1"}}));
        QCOMPARE(config.batch, -1);
        QCOMPARE(config.batchFraction, run::kAutoBatchFraction);
        QVERIFY(config.check());
        QCOMPARE(config.toMap().at("batch"), std::string("-1"));
        QVERIFY(run::applyArgs(config, {{"batch", "0.7"}}));
        QCOMPARE(config.batch, -1);
        QCOMPARE(config.batchFraction, 0.7);
        QCOMPARE(config.toMap().at("batch"), std::string("0.7"));
        QVERIFY(run::applyArgs(config, {{"batch", "32"}}));
        QCOMPARE(config.batch, 32);
        QCOMPARE(config.toMap().at("batch"), std::string("32"));
        for (const char* bad : {"1.5", "-0.5", "0"}) {
            QVERIFY(run::applyArgs(config, {{"batch", bad}}));
            const auto status = config.check();
            QVERIFY2(!status, bad);
            QVERIFY2(status.message().find(std::string("batch: ") + bad + " is out of range") == 0,
                     status.message().c_str());
        }
        QVERIFY(!run::applyArgs(config, {{"batch", "-2"}}));
    }
};

QTEST_APPLESS_MAIN(TestAutoBatch)
#include "tst_auto_batch.moc"
