// The GPU path on a real GPU (label gpu; skips with a message without one): a short bf16/fp16 training
// run on cuda:0 reports its peak memory, AutoBatch measures the CUDA allocator and chooses a batch in
// range, and a forward of the same weights on the CPU and the GPU (float32, no TF32) agrees to 1e-3.
#include <torch/torch.h>

#include "model/compat_torch_impl.h"
#include "model/detector_torch_impl.h"
#include "model/model_spec.h"
#include "synthetic_source.h"
#include "train/auto_batch.h"
#include "train/trainer.h"
#include "train_test_util.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace osprey;
using namespace osprey::train;

class TestTrainCuda : public QObject {
    Q_OBJECT

private slots:
    void init() {
        if (model::compat::cudaDeviceCount() == 0)
            QSKIP(model::compat::buildHasCuda() ? "LibTorch has CUDA but no GPU is visible"
                                                : "this LibTorch has no CUDA (a CPU build)");
    }

    void trainsWithAmpAndReportsPeakMemory() {
        QTemporaryDir dir;
        test::SyntheticSource source(32, 8, 128);
        test::CollectingSink sink;
        TrainInputs inputs;
        inputs.train = &source;
        inputs.dataset.classNames = {"a", "b"};
        inputs.runDir = std::filesystem::path(dir.path().toStdString()) / "run";
        inputs.events = &sink;
        run::TrainConfig config;
        config.model = "yolov8n";
        config.imgsz = 128;
        config.batch = 8;
        config.epochs = 2;
        config.device = "0";
        config.amp = true;
        config.validate = false;
        const auto result = runTraining(config, inputs);
        QVERIFY2(result, result ? "" : result.message().c_str());
        const auto epochs = sink.ofType(run::TrainEvent::Type::Epoch);
        QCOMPARE(epochs.size(), size_t(2));
        QVERIFY(epochs.back().gpuPeakMemMb > 1.0);
        QVERIFY(std::isfinite(epochs.back().metrics.boxLoss));
        bool amp = false;
        for (const auto& line : sink.ofType(run::TrainEvent::Type::Log))
            amp = amp || line.message.rfind("AMP: ", 0) == 0;
        QVERIFY(amp);
    }

    void autoBatchMeasuresTheAllocator() {
        run::TrainConfig config;
        config.model = "yolov8n";
        config.imgsz = 320;
        config.device = "0";
        config.batch = -1;
        config.batchFraction = 0.6;
        const auto plan = planAutoBatch(config, 2);
        QVERIFY2(plan, plan ? "" : plan.message().c_str());
        if (!model::compat::cudaMemoryStatsAvailable(0))
            QSKIP("this LibTorch has no allocator statistics (2.9 or newer needed)");
        QCOMPARE(plan->samples.size(), size_t(5));
        QVERIFY(plan->fit.bytesPerImage > 0);
        QVERIFY(plan->batch >= 1 && plan->batch <= 1024);
        QVERIFY2(plan->message.find("AutoBatch: batch=") == 0, plan->message.c_str());
    }

    void cpuAndGpuForwardsAgree() {
        torch::NoGradGuard noGrad;
        torch::manual_seed(0);
        auto spec = model::parseModelName("yolov8n", 80);
        QVERIFY(spec);
        auto network = std::make_shared<model::DetectionModel>(spec.value());
        network->eval();
        const auto images = torch::rand({2, 3, 320, 320});
        const auto cpu = network->forwardDecoded(images);
        model::compat::setCudaTf32(false);
        network->to(torch::Device(torch::kCUDA, 0));
        const auto gpu = network->forwardDecoded(images.to(torch::Device(torch::kCUDA, 0))).to(torch::kCPU);
        model::compat::setCudaTf32(true);
        const double scores = (cpu.slice(1, 4) - gpu.slice(1, 4)).abs().max().item<double>();
        const double boxes = (cpu.slice(1, 0, 4) - gpu.slice(1, 0, 4)).abs().max().item<double>() / 320.0;
        QVERIFY2(scores <= 1e-3 && boxes <= 1e-3,
                 (std::to_string(scores) + " / " + std::to_string(boxes)).c_str());
    }
};

QTEST_APPLESS_MAIN(TestTrainCuda)
#include "tst_train_cuda.moc"
