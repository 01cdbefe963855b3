// bench_autolabel [images=40]: batch auto-label throughput with an untrained yolov8n checkpoint on a 640 px
// demo project, at imgsz 320 and 640, side by side:
//   sequential 2 thr  decode -> infer -> store on one thread, inference on 2 compute threads (the reference)
//   sequential 1 thr  the same loop with 1 compute thread
//   decode-ahead      one thread decodes ahead, inference on 2 compute threads
//   2 workers x 1 thr two images in flight, each decoded and inferred on its own predictor and thread
// Each configuration runs twice (in mirrored order, so that load from other processes spreads over all of
// them) after one unmeasured pass; the better run counts. The untrained model proposes nothing above
// conf 0.25, so storing costs next to nothing here (one transaction per 16 images). Wall time, images/s and
// process CPU seconds are printed.
#include "assist/auto_labeler.h"
#include "assist/inference_threads.h"
#include "bench_fixture.h"

#include <map>
#include <string>
#include <unistd.h>
#include <utility>

namespace fs = std::filesystem;
using namespace osprey;

namespace {

struct Config {
    std::string name;
    assist::Pipelining pipelining;
    int workers;
    int threads;
};

} // namespace

int main(int argc, char** argv) {
    const int count = argc > 1 ? std::max(4, std::atoi(argv[1])) : 40;
    const fs::path folder =
        fs::temp_directory_path() / ("osprey_bench_autolabel_" + std::to_string(::getpid()));
    fs::remove_all(folder);
    demo::DemoOptions demoOptions;
    demoOptions.images = count;
    demoOptions.imageSizePx = 640;
    if (auto created = demo::createDemoProject(folder / "project", demoOptions); !created) {
        std::fprintf(stderr, "error: %s\n", created.message().c_str());
        return 1;
    }
    const fs::path weights = folder / "best.pt";
    if (!bench::writeFreshYolov8n(weights, 640))
        return 1;
    auto project = project::Project::open(folder / "project");
    const assist::ModelSource source{weights, {}, {}, "cpu"};
    auto predictor = assist::BoxPredictor::open(source);
    if (!project || !predictor) {
        std::fprintf(stderr, "error: cannot open the project or the model\n");
        return 1;
    }
    const std::vector<Config> configs{{"sequential 2 thr", assist::Pipelining::Sequential, 1, 2},
                                      {"sequential 1 thr", assist::Pipelining::Sequential, 1, 1},
                                      {"decode-ahead 2 thr", assist::Pipelining::Pipelined, 1, 2},
                                      {"2 workers x 1 thr", assist::Pipelining::Pipelined, 2, 1}};
    std::printf("%d demo images of 640x640, untrained yolov8n (fused), CPU\n", count);
    for (const int imgsz : {320, 640}) {
        std::map<std::string, double> best;
        std::vector<size_t> order(configs.size() * 2);
        for (size_t i = 0; i < configs.size(); ++i)
            order[i] = i, order[order.size() - 1 - i] = i;
        // One unmeasured pass first: the first inferences at a new size allocate and are slower.
        order.insert(order.begin(), 0);
        bool warmUp = true;
        for (const size_t c : order) {
            const auto& config = configs[c];
            assist::setInferenceThreads(config.threads);
            assist::AutoLabelOptions options;
            options.images = assist::ImageSelection::All;
            options.mode = assist::WriteMode::Replace;
            options.suggest.imgsz = imgsz;
            options.pipelining = config.pipelining;
            options.workers = config.workers;
            options.openPredictor = [&] { return assist::BoxPredictor::open(source); };
            const double cpuStart = bench::processCpuSeconds();
            auto report = assist::autoLabel(**project, **predictor, options);
            if (!report) {
                std::fprintf(stderr, "error: %s\n", report.message().c_str());
                return 1;
            }
            if (std::exchange(warmUp, false))
                continue;
            const double rate = report->images / report->seconds;
            std::printf("imgsz %d  %-20s %5.2f s  %6.2f images/s  %6.2f CPU s  (%d boxes)\n", imgsz,
                        config.name.c_str(), report->seconds, rate, bench::processCpuSeconds() - cpuStart,
                        report->boxes);
            best[config.name] = std::max(best[config.name], rate);
        }
        const double reference = best[configs[0].name];
        std::printf("imgsz %d best of two, relative to sequential 2 thr:", imgsz);
        for (const auto& config : configs)
            std::printf("  %s %.2fx", config.name.c_str(), best[config.name] / reference);
        std::printf("\n");
    }
    project->reset();
    fs::remove_all(folder);
    return 0;
}
