// Training speed on this machine: the data pipeline alone (decode + mosaic + augment on N workers) and
// one yolov8n training step at 320 split into data conversion, forward + loss, backward and optimiser
// (clip, step, EMA), at 1 thread and at all cores, each with OpenBLAS's own pool left at all cores (as
// before) and pinned to one thread (as the trainer runs now), side by side. Run it once plainly and once
// with OMP_WAIT_POLICY=PASSIVE (what osprey-cli sets) to compare OpenMP's wait policies.
//
// Usage: bench_train [images=64] [imgsz=320] [batch=16] [steps=8] [modes: only the compute modes]
#include <torch/torch.h>

#include "demo/demo_dataset.h"
#include "job/project_data.h"
#include "malloc_policy.h"
#include "model/compat_torch_impl.h"
#include "model/detector_torch_impl.h"
#include "model/predictor.h"
#include "system/cpu_features.h"
#include "train/data_loader.h"
#include "train/detection_loss_impl.h"
#include "train/optimizer_impl.h"
#include "train/trainer_impl.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>
#include <thread>

#include <dlfcn.h>

using namespace osprey;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

double loaderImagesPerS(const std::vector<train::Sample>& samples, int imgsz, int batch, int workers,
                        int batches) {
    train::LoaderOptions options;
    options.imgsz = imgsz;
    options.batch = batch;
    options.workers = workers;
    train::DataLoader loader(samples, options);
    loader.startEpoch({0, true, true});
    const auto start = Clock::now();
    long long images = 0;
    for (int i = 0; i < batches; ++i) {
        auto b = loader.next();
        if (!b)
            break;
        images += b->count;
    }
    return static_cast<double>(images) / since(start);
}

/// Sets OpenBLAS's own pool size, when OpenBLAS is the BLAS LibTorch loaded.
void setBlasThreads(int threads) {
    using SetThreads = void (*)(int);
    if (const auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
        set(threads);
}

/// Images per second of `steps` training steps at `threads` torch threads. `pinBlas`: as the trainer
/// runs now (model::setComputeThreads pins OpenBLAS to one thread); otherwise OpenBLAS keeps its default
/// pool of one thread per core, as before.
/// How the step computes: the memory format of the network and its inputs, and CPU bf16 autocast.
struct StepMode {
    bool channelsLast = false;
    bool bf16 = false;
    const char* name() const {
        return channelsLast ? (bf16 ? "bf16 autocast, channels-last" : "fp32, channels-last")
                            : (bf16 ? "bf16 autocast" : "fp32");
    }
};

double trainSteps(const std::vector<train::HostBatch>& batches, int threads, int steps, bool pinBlas,
                  StepMode mode = {}, bool quiet = false, double* imagesPerCpuSecond = nullptr) {
    if (pinBlas) {
        model::setComputeThreads(threads);
    } else {
        torch::set_num_threads(threads);
        setBlasThreads(static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
    }
    torch::manual_seed(0);
    auto spec = model::parseModelName("yolov8n", 4).value();
    auto net = std::make_shared<model::DetectionModel>(spec);
    auto ema = std::make_shared<model::DetectionModel>(spec);
    if (mode.channelsLast) {
        torch::NoGradGuard noGrad;
        for (auto& parameter : net->parameters())
            if (parameter.dim() == 4)
                parameter.set_data(parameter.contiguous(torch::MemoryFormat::ChannelsLast));
    }
    net->train();
    train::ModelEma emaUpdater(ema, ema->stateDict(), net->stateDict());
    train::RecipeOptimizer optimizer(*net, {run::OptimizerKind::AdamW, 0.00125, 0.9}, 5e-4);
    train::DetectionLoss loss(4, net->strides());
    double data = 0, forward = 0, backward = 0, step = 0, cpu = 0;
    long long images = 0;
    for (int i = 0; i < steps + 2; ++i) {
        const std::clock_t c0 = std::clock();
        const auto t0 = Clock::now();
        auto batch = train::toDevice(batches[static_cast<size_t>(i) % batches.size()], torch::kCPU);
        if (mode.channelsLast)
            batch.images = batch.images.contiguous(torch::MemoryFormat::ChannelsLast);
        const auto t1 = Clock::now();
        std::vector<torch::Tensor> raw;
        {
            model::compat::AutocastScope autocast(torch::kCPU, torch::kBFloat16, mode.bf16);
            raw = net->forwardRaw(batch.images);
        }
        if (mode.bf16)
            for (auto& map : raw)
                map = map.to(torch::kFloat);
        auto value = loss(raw, batch.targets);
        const auto t2 = Clock::now();
        value.total.backward();
        const auto t3 = Clock::now();
        auto parameters = optimizer.parameters();
        torch::nn::utils::clip_grad_norm_(parameters, 10.0);
        optimizer.get().step();
        optimizer.get().zero_grad();
        emaUpdater.update();
        const auto t4 = Clock::now();
        if (i < 2)
            continue; // warm-up: first-touch allocations
        cpu += static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
        data += std::chrono::duration<double>(t1 - t0).count();
        forward += std::chrono::duration<double>(t2 - t1).count();
        backward += std::chrono::duration<double>(t3 - t2).count();
        step += std::chrono::duration<double>(t4 - t3).count();
        images += batch.count;
    }
    const double total = data + forward + backward + step;
    if (imagesPerCpuSecond)
        *imagesPerCpuSecond = images / cpu;
    if (quiet)
        return images / total;
    std::printf("  threads=%d, OpenBLAS %s: %.2f images/s (per batch: convert %.0f ms, forward+loss %.0f ms, "
                "backward "
                "%.0f ms, optimiser+EMA %.0f ms)\n",
                threads, pinBlas ? "pinned to 1 (now)" : "pool of all cores (before)", images / total,
                1000 * data / steps, 1000 * forward / steps, 1000 * backward / steps, 1000 * step / steps);
    return images / total;
}

} // namespace

int main(int argc, char** argv) {
    const int images = argc > 1 ? std::atoi(argv[1]) : 64;
    const int imgsz = argc > 2 ? std::atoi(argv[2]) : 320;
    const int batch = argc > 3 ? std::atoi(argv[3]) : 16;
    const int steps = argc > 4 ? std::atoi(argv[4]) : 8;
    const bool modesOnly = argc > 5 && std::string(argv[5]) == "modes";
    // Freed memory stays in the process, as osprey-cli train runs (app/malloc_policy.h): without it the
    // step here was slower than the trainer's own.
    const bool keptMemory = osprey::app::keepFreedMemory();
    const auto folder =
        std::filesystem::temp_directory_path() / ("osprey_bench_train_" + std::to_string(::getpid()));
    demo::DemoOptions demoOptions;
    demoOptions.images = images;
    demoOptions.imageSizePx = imgsz;
    demoOptions.trainFraction = 1.0;
    if (auto status = demo::createDemoProject(folder, demoOptions); !status) {
        std::fprintf(stderr, "demo: %s\n", status.message().c_str());
        return 1;
    }
    auto data = job::readProjectData(folder);
    if (!data) {
        std::fprintf(stderr, "%s\n", data.message().c_str());
        return 1;
    }
    const auto& samples = data->train.samples;
    std::printf("Data pipeline (decode + mosaic + affine + HSV + flip, imgsz %d, batch %d):\n", imgsz, batch);
    for (const int workers : {1, 2})
        if (!modesOnly)
            std::printf("  %d worker(s): %.1f images/s\n", workers,
                        loaderImagesPerS(samples, imgsz, batch, workers, std::max(2, images / batch)));

    train::LoaderOptions options;
    options.imgsz = imgsz;
    options.batch = batch;
    options.workers = 2;
    train::DataLoader loader(samples, options);
    loader.startEpoch({0, true, true});
    std::vector<train::HostBatch> batches;
    while (auto b = loader.next())
        batches.push_back(std::move(*b));
    std::printf("Training step, yolov8n nc=4, imgsz %d, batch %d, AdamW:\n", imgsz, batch);
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    for (const int threads : {1, cores}) {
        if (modesOnly)
            break;
        const double before = trainSteps(batches, threads, steps, false);
        const double now = trainSteps(batches, threads, steps, true);
        std::printf("  threads=%d: pinned / pool = %.2fx\n", threads, now / before);
    }
    // Compute modes, interleaved (A B A B ...) so that a busy machine hurts both alike; images per CPU
    // second (process CPU time of the steps) is the figure that load from other programs disturbs least.
    // bf16 autocast only where the CPU computes bfloat16 natively (AVX512-BF16 or AMX); with Debian's
    // LibTorch 1.13 it was 0.3-0.65x fp32 on such a CPU, with LibTorch 2.x faster than fp32.
    std::vector<StepMode> modes = {{false, false}, {true, false}};
    if (system::cpuComputesBFloat16())
        modes.push_back({true, true});
    for (const int threads : {1, cores}) {
        std::printf(
            "Training step by memory format and precision, threads=%d (median of 3 interleaved rounds):\n",
            threads);
        std::vector<std::vector<double>> rates(modes.size()), work(modes.size());
        for (int round = 0; round < 3; ++round)
            for (size_t m = 0; m < modes.size(); ++m) {
                double perCpuSecond = 0;
                rates[m].push_back(trainSteps(batches, threads, steps, true, modes[m], true, &perCpuSecond));
                work[m].push_back(perCpuSecond);
            }
        for (size_t m = 0; m < modes.size(); ++m) {
            std::sort(rates[m].begin(), rates[m].end());
            std::sort(work[m].begin(), work[m].end());
            std::printf("  %-30s %.2f images/s (%.2fx), %.2f images per CPU second (%.2fx)\n",
                        modes[m].name(), rates[m][1], rates[m][1] / rates[0][1], work[m][1],
                        work[m][1] / work[0][1]);
        }
    }
    std::printf("(OMP_WAIT_POLICY=%s, malloc %s)\n",
                std::getenv("OMP_WAIT_POLICY") ? std::getenv("OMP_WAIT_POLICY") : "unset",
                keptMemory ? "keeping freed memory, as osprey-cli trains" : "glibc's default");
    std::filesystem::remove_all(folder);
    return 0;
}
