// Training speed on this machine: the data pipeline alone (decode + mosaic + augment on N workers) and
// one yolov8n training step at 320 split into data conversion, forward + loss, backward and optimiser
// (clip, step, EMA), at 1 thread and at all cores, each with OpenBLAS's own pool left at all cores (as
// before) and pinned to one thread (as the trainer runs now), side by side. Run it once plainly and once
// with OMP_WAIT_POLICY=PASSIVE (what osprey-cli sets) to compare OpenMP's wait policies.
//
// Usage: bench_train [images=64] [imgsz=320] [batch=16] [steps=8]
#include <torch/torch.h>

#include "demo/demo_dataset.h"
#include "model/detector_torch_impl.h"
#include "model/predictor.h"
#include "train/data_loader.h"
#include "train/detection_loss_impl.h"
#include "train/optimizer_impl.h"
#include "train/train_dataset.h"
#include "train/trainer_impl.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
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
double trainSteps(const std::vector<train::HostBatch>& batches, int threads, int steps, bool pinBlas) {
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
    net->train();
    train::ModelEma emaUpdater(ema, ema->stateDict(), net->stateDict());
    train::RecipeOptimizer optimizer(*net, {run::OptimizerKind::AdamW, 0.00125, 0.9}, 5e-4);
    train::DetectionLoss loss(4, net->strides());
    double data = 0, forward = 0, backward = 0, step = 0;
    long long images = 0;
    for (int i = 0; i < steps + 2; ++i) {
        const auto t0 = Clock::now();
        const auto batch = train::toDevice(batches[static_cast<size_t>(i) % batches.size()], torch::kCPU);
        const auto t1 = Clock::now();
        auto value = loss(net->forwardRaw(batch.images), batch.targets);
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
        data += std::chrono::duration<double>(t1 - t0).count();
        forward += std::chrono::duration<double>(t2 - t1).count();
        backward += std::chrono::duration<double>(t3 - t2).count();
        step += std::chrono::duration<double>(t4 - t3).count();
        images += batch.count;
    }
    const double total = data + forward + backward + step;
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
    auto data = train::readProjectData(folder);
    if (!data) {
        std::fprintf(stderr, "%s\n", data.message().c_str());
        return 1;
    }
    const auto& samples = data->train.samples;
    std::printf("Data pipeline (decode + mosaic + affine + HSV + flip, imgsz %d, batch %d):\n", imgsz, batch);
    for (const int workers : {1, 2})
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
        const double before = trainSteps(batches, threads, steps, false);
        const double now = trainSteps(batches, threads, steps, true);
        std::printf("  threads=%d: pinned / pool = %.2fx\n", threads, now / before);
    }
    std::printf("(OMP_WAIT_POLICY=%s)\n",
                std::getenv("OMP_WAIT_POLICY") ? std::getenv("OMP_WAIT_POLICY") : "unset");
    std::filesystem::remove_all(folder);
    return 0;
}
