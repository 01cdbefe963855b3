// osprey-gpu-check: the engine's measurements on a GPU machine (tools/gpu-check.sh runs it). Needs only
// the engine (OSPREY_ENGINE_ONLY builds it): trains on synthetic images from memory, so the figures are
// the GPU's and the engine's, not a disk's or a decoder's.
//
//   osprey-gpu-check train model=yolov8s imgsz=640 batch=128 epochs=3 images=1024 device=0 amp=true
//                          peak_tflops=989
//       trains, then prints one line of key=value figures: images/s of the last epoch, peak memory,
//       model FLOP utilisation against `peak_tflops` (the GPU's dense bf16 peak), the precision used.
//       batch=-1 or a fraction plans the batch with AutoBatch first and prints its message.
//       With the torchrun environment set (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT) it trains as that
//       rank of a data-parallel job: NCCL on a GPU, Gloo on the CPU (tools/gpu-check.sh: one NCCL rank).
//   osprey-gpu-check diff model=yolov8s imgsz=640 device=0 val_images=64
//       one forward of the same weights (seeded) on the CPU and on the GPU in float32 without TF32;
//       prints the max absolute difference of the decoded outputs (boxes in pixels, class scores 0..1);
//       then validates those weights on the GPU on `val_images` synthetic images in float32 and under the
//       autocast a run with amp=true uses there, and prints both passes' images/s and the relative difference
//       of their validation losses.
#include "model/compat_torch_impl.h"
#include "model/detector_torch_impl.h"
#include "model/model_spec.h"
#include "model/predictor.h"
#include "run/train_config.h"
#include "train/auto_batch.h"
#include "train/device_choice.h"
#include "train/distributed.h"
#include "train/grad_scaler_impl.h"
#include "train/trainer.h"
#include "train/trainer_impl.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <string>

using namespace osprey;

namespace {

/// `images` images per epoch drawn from a pool of 16 random ones, 4 boxes each, in batches of `batch`.
class SyntheticSource : public train::BatchSource {
public:
    SyntheticSource(int images, int batch, int side, int classes)
        : m_images(images), m_batch(batch), m_side(side), m_classes(classes) {
        std::mt19937 random(7);
        m_pool.resize(static_cast<size_t>(16) * side * side * 3);
        for (auto& value : m_pool)
            value = static_cast<std::uint8_t>(random() % 256);
    }
    int imageCount() const override { return m_images; }
    int batchesPerEpoch() const override { return (m_images + m_batch - 1) / m_batch; }
    void startEpoch(const train::EpochPlan&) override { m_next = 0; }
    std::optional<train::HostBatch> next() override {
        if (m_next >= m_images)
            return std::nullopt;
        train::HostBatch batch;
        batch.count = std::min(m_batch, m_images - m_next);
        batch.width = batch.height = m_side;
        const size_t bytes = static_cast<size_t>(m_side) * m_side * 3;
        batch.pixels.resize(bytes * batch.count);
        for (int i = 0; i < batch.count; ++i) {
            const auto source = m_pool.begin() + static_cast<std::ptrdiff_t>(bytes * ((m_next + i) % 16));
            std::copy(source, source + static_cast<std::ptrdiff_t>(bytes),
                      batch.pixels.begin() + static_cast<std::ptrdiff_t>(bytes * i));
            for (int b = 0; b < 4; ++b) {
                const float x = static_cast<float>(m_side) * (0.1f + 0.2f * b);
                batch.boxes.push_back({i, (i + b) % m_classes, x, x, x + 0.15f * m_side, x + 0.2f * m_side});
            }
        }
        m_next += batch.count;
        return batch;
    }

private:
    int m_images, m_batch, m_side, m_classes, m_next = 0;
    std::vector<std::uint8_t> m_pool;
};

class Collector : public run::EventSink {
public:
    void onEvent(const run::TrainEvent& event) override {
        std::lock_guard lock(m_mutex);
        if (event.type == run::TrainEvent::Type::Log)
            std::fprintf(stderr, "  log: %s\n", event.message.c_str());
        if (event.type == run::TrainEvent::Type::RunStarted)
            gflops = event.gflops;
        if (event.type == run::TrainEvent::Type::Epoch) {
            lastImagesPerS = event.imagesPerS;
            std::fprintf(stderr, "  epoch %d/%d: %.1f images/s, losses box %.3f cls %.3f dfl %.3f\n",
                         event.epoch, event.epochs, event.imagesPerS, event.metrics.boxLoss,
                         event.metrics.clsLoss, event.metrics.dflLoss);
        }
    }
    double gflops = 0, lastImagesPerS = 0;

private:
    std::mutex m_mutex;
};

std::map<std::string, std::string> parseArgs(int argc, char** argv) {
    std::map<std::string, std::string> args;
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto equals = arg.find('=');
        if (equals != std::string::npos)
            args[arg.substr(0, equals)] = arg.substr(equals + 1);
    }
    return args;
}

std::string value(const std::map<std::string, std::string>& args, const std::string& key,
                  const std::string& fallback) {
    const auto it = args.find(key);
    return it == args.end() ? fallback : it->second;
}

int trainCommand(const std::map<std::string, std::string>& args) {
    run::TrainConfig config;
    std::map<std::string, std::string> options = {{"model", value(args, "model", "yolov8n")},
                                                  {"imgsz", value(args, "imgsz", "640")},
                                                  {"batch", value(args, "batch", "64")},
                                                  {"epochs", value(args, "epochs", "3")},
                                                  {"device", value(args, "device", "0")},
                                                  {"amp", value(args, "amp", "true")},
                                                  {"warmup_epochs", "0"}};
    if (auto status = run::applyArgs(config, options); !status) {
        std::fprintf(stderr, "gpu-check: %s\n", status.message().c_str());
        return 2;
    }
    config.validate = false;
    const int classes = std::stoi(value(args, "classes", "80"));
    const int images = std::stoi(value(args, "images", "1024"));
    const double peakTflops = std::stod(value(args, "peak_tflops", "989"));
    if (config.batch < 1) {
        auto plan = train::planAutoBatch(config, classes);
        if (!plan) {
            std::fprintf(stderr, "gpu-check: %s\n", plan.message().c_str());
            return 1;
        }
        std::fprintf(stderr, "  %s\n", plan->message.c_str());
        config.batch = plan->batch;
        config.batchFraction = 0;
    }
    if (auto status = config.check(); !status) {
        std::fprintf(stderr, "gpu-check: %s\n", status.message().c_str());
        return 2;
    }
    auto devices = train::chooseDevices(config.device, train::probeDevices());
    if (!devices) {
        std::fprintf(stderr, "gpu-check: %s\n", devices.message().c_str());
        return 2;
    }
    const int index = devices->cuda ? devices->indices.front() : -1; // the CPU: a dry run of this tool
    SyntheticSource source(images, config.batch, config.imgsz, classes);
    Collector events;
    train::TrainInputs inputs;
    inputs.train = &source;
    inputs.dataset.classNames.resize(classes);
    for (int c = 0; c < classes; ++c)
        inputs.dataset.classNames[c] = "class" + std::to_string(c);
    inputs.runDir = std::filesystem::temp_directory_path() / ("osprey-gpu-check-" + config.model);
    std::filesystem::remove_all(inputs.runDir);
    inputs.events = &events;
    // Data parallel when a launcher's environment says so (issue 18's 1-rank NCCL check).
    auto rank = train::rankInfoFromEnvironment();
    if (!rank) {
        std::fprintf(stderr, "gpu-check: %s\n", rank.message().c_str());
        return 2;
    }
    std::unique_ptr<train::DistributedContext> context;
    if (rank.value()) {
        auto connected = train::DistributedContext::connect(**rank, 60);
        if (!connected) {
            std::fprintf(stderr, "gpu-check: %s\n", connected.message().c_str());
            return 1;
        }
        context = std::move(connected.value());
        const auto backend = index >= 0 ? train::CommBackend::Nccl : train::CommBackend::Gloo;
        if (auto status = context->startGroup(backend, index, 300); !status) {
            std::fprintf(stderr, "gpu-check: %s\n", status.message().c_str());
            return 1;
        }
        inputs.distributed = context.get();
    }
    model::compat::resetCudaPeak(index);
    auto result = train::runTraining(config, inputs);
    if (!result) {
        std::fprintf(stderr, "gpu-check: %s\n", result.message().c_str());
        return 1;
    }
    const auto peak = model::compat::cudaPeakMemory(index);
    // Training costs about 3 forward passes (forward, and backward for activations and weights).
    const double flopsPerImage = 3.0 * events.gflops * 1e9 * (config.imgsz / 640.0) * (config.imgsz / 640.0);
    const double mfu = flopsPerImage * events.lastImagesPerS / (peakTflops * 1e12);
    const auto precision = train::choosePrecision(
        config.amp, index >= 0,
        train::fastBFloat16(index >= 0 ? torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(index))
                                       : torch::Device(torch::kCPU)));
    std::printf(
        "model=%s imgsz=%d batch=%d precision=%s images_per_s=%.1f peak_alloc_gib=%.2f "
        "peak_reserved_gib=%.2f gflops_640=%.1f mfu_percent=%.1f peak_tflops=%.0f torch=%s%s\n",
        config.model.c_str(), config.imgsz, config.batch, train::toString(precision), events.lastImagesPerS,
        peak ? peak->allocatedBytes / 1073741824.0 : -1.0, peak ? peak->reservedBytes / 1073741824.0 : -1.0,
        events.gflops, 100.0 * mfu, peakTflops, model::compat::torchVersion().c_str(),
        context ? (" world_size=" + std::to_string(context->worldSize()) +
                   (context->backend() == train::CommBackend::Nccl ? " backend=nccl" : " backend=gloo"))
                      .c_str()
                : "");
    std::filesystem::remove_all(inputs.runDir);
    return 0;
}

int diffCommand(const std::map<std::string, std::string>& args) {
    const int imgsz = std::stoi(value(args, "imgsz", "640"));
    auto spec = model::parseModelName(value(args, "model", "yolov8s"), 80);
    auto devices = train::chooseDevices(value(args, "device", "0"), train::probeDevices());
    if (!spec || !devices) {
        std::fprintf(stderr, "gpu-check: %s\n", !spec ? spec.message().c_str() : devices.message().c_str());
        return 2;
    }
    torch::NoGradGuard noGrad;
    torch::manual_seed(0);
    auto network = std::make_shared<model::DetectionModel>(spec.value());
    network->eval();
    // Two images: random pixels, so that every class score and box takes part.
    const auto images = torch::rand({2, 3, imgsz, imgsz});
    const auto cpu = network->forwardDecoded(images);
    // device=cpu compares the CPU with itself: a dry run of this tool on a machine without a GPU.
    const torch::Device device =
        devices->cuda ? torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(devices->indices.front()))
                      : torch::Device(torch::kCPU);
    model::compat::setCudaTf32(false);
    network->to(device);
    const auto gpu = network->forwardDecoded(images.to(device)).to(torch::kCPU);
    model::compat::setCudaTf32(true);
    const auto gpuTf32 = network->forwardDecoded(images.to(device)).to(torch::kCPU);
    const auto boxes = (cpu.slice(1, 0, 4) - gpu.slice(1, 0, 4)).abs().max().item<double>();
    const auto scores = (cpu.slice(1, 4) - gpu.slice(1, 4)).abs().max().item<double>();
    const auto scoresTf32 = (cpu.slice(1, 4) - gpuTf32.slice(1, 4)).abs().max().item<double>();
    std::printf("model=%s imgsz=%d max_abs_diff_scores=%.3g max_abs_diff_boxes_px=%.3g "
                "max_rel_diff_boxes=%.3g max_abs_diff_scores_tf32=%.3g",
                spec->name().c_str(), imgsz, scores, boxes, boxes / imgsz, scoresTf32);

    // The validation after each epoch, as the trainer runs it (losses only: no scorer in the engine).
    const auto amp = train::choosePrecision(true, device.is_cuda(), train::fastBFloat16(device));
    const run::TrainConfig config;
    const train::Criterion loss(*network, config.epochs, train::LossGains{});
    const int valImages = std::max(1, std::stoi(value(args, "val_images", "64")));
    const auto validate = [&](train::Precision precision) {
        SyntheticSource source(valImages, 16, imgsz, spec->numClasses);
        // A warm-up pass (cuDNN's choices), then the timed one; each ends reading its losses to the host.
        train::validateEpoch(*network, source, loss, nullptr, config, device, precision, 0);
        const auto start = std::chrono::steady_clock::now();
        const auto result =
            train::validateEpoch(*network, source, loss, nullptr, config, device, precision, 0);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return std::pair{result, valImages / seconds};
    };
    const auto [full, fullRate] = validate(train::Precision::Float32);
    const auto [lower, lowerRate] = validate(amp);
    const auto lossOf = [](const train::ValidationResult& r) { return r.boxLoss + r.clsLoss + r.dflLoss; };
    std::printf(" val_images_per_s_float32=%.1f val_images_per_s_%s=%.1f val_loss_rel_diff_%s=%.3g\n",
                fullRate, train::toString(amp), lowerRate, train::toString(amp),
                std::abs(lossOf(lower) - lossOf(full)) / std::max(1e-12, std::abs(lossOf(full))));
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    const std::string command = argc > 1 ? argv[1] : "";
    const auto args = parseArgs(argc, argv);
    try {
        if (command == "train")
            return trainCommand(args);
        if (command == "diff")
            return diffCommand(args);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "gpu-check: %s\n", error.what());
        return 1;
    }
    std::fprintf(stderr,
                 "usage: osprey-gpu-check train|diff key=value ... (see tools/gpu_check/gpu_check.cpp)\n");
    return 2;
}
