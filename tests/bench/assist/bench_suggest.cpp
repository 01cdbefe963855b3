// bench_suggest [runs=30]: single-image suggestion latency for yolov8n at 640 on CPU, from request (a decoded
// image in memory) to proposals ready, through core/assist's BoxPredictor with an Osprey checkpoint (fused
// on load), at 1 and 2 compute threads. Prints median and p90 of `runs` timed calls after 3 warm-up calls.
#include "assist/box_predictor.h"
#include "assist/inference_threads.h"
#include "bench_fixture.h"

#include <unistd.h>

namespace fs = std::filesystem;
using namespace osprey;

int main(int argc, char** argv) {
    const int runs = argc > 1 ? std::max(5, std::atoi(argv[1])) : 30;
    const fs::path folder =
        fs::temp_directory_path() / ("osprey_bench_suggest_" + std::to_string(::getpid()));
    fs::create_directories(folder);
    const fs::path weights = folder / "best.pt";
    if (!bench::writeFreshYolov8n(weights, 640))
        return 1;
    auto predictor = assist::BoxPredictor::open({weights, {}, {}, "cpu"});
    fs::remove_all(folder);
    if (!predictor) {
        std::fprintf(stderr, "error: %s\n", predictor.message().c_str());
        return 1;
    }
    // A 640x640 demo image: the letterbox is a plain copy, the network sees 640x640.
    demo::DemoOptions options;
    options.imageSizePx = 640;
    const auto rendered = demo::renderDemoImage(options, 0);
    const imaging::Image image{rendered.width, rendered.height, 3, rendered.rgb};
    assist::SuggestOptions suggest;
    suggest.imgsz = 640;
    for (const int threads : {1, 2}) {
        assist::setInferenceThreads(threads);
        std::vector<double> ms;
        const double cpuStart = bench::processCpuSeconds();
        for (int i = 0; i < runs + 3; ++i) {
            const auto start = std::chrono::steady_clock::now();
            auto proposals = (*predictor)->predict(image, suggest);
            if (!proposals) {
                std::fprintf(stderr, "error: %s\n", proposals.message().c_str());
                return 1;
            }
            if (i >= 3)
                ms.push_back(1000 * bench::secondsSince(start));
        }
        std::printf(
            "suggest yolov8n 640 CPU, %d thread%s: median %.1f ms, p90 %.1f ms (%d runs, %.0f ms CPU per "
            "call)\n",
            threads, threads == 1 ? "" : "s", bench::quantile(ms, 0.5), bench::quantile(ms, 0.9), runs,
            1000 * (bench::processCpuSeconds() - cpuStart) / (runs + 3));
    }
    return 0;
}
