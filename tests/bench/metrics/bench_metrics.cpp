// COCO-style evaluation speed: 5,000 images x 100 detections x 80 classes of seeded synthetic data.
// Prints the time of core/metrics' evaluator (threads, one sort per class) and of the straightforward
// single-threaded pycocotools-shaped reference in the same run, their ratio, and checks they agree.
#include "core/metrics/coco_reference.h"
#include "core/metrics/synthetic_set.h"
#include "metrics/coco_evaluator.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <thread>

using namespace osprey;
using namespace osprey::metrics;

namespace {

// Wall-clock seconds; `cpuSeconds` receives the process CPU time, which is what to compare when other
// work shares the machine.
template <typename F> double secondsOf(F&& run, double& cpuSeconds) {
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpuStart = std::clock();
    run();
    cpuSeconds = static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main() {
    test::SyntheticSpec spec;
    spec.images = 5000;
    spec.classes = 80;
    spec.detectionsPerImage = 100;
    spec.truthsPerImage = 7;
    spec.seed = 2024;
    const auto set = test::makeSyntheticSet(spec);
    size_t truths = 0, detections = 0;
    for (const auto& image : set.images) {
        truths += image.truths.size();
        detections += image.detections.size();
    }
    std::printf("data: %d images, %zu ground truth boxes, %zu detections, %d classes\n", spec.images, truths,
                detections, spec.classes);

    CocoParams params;
    Expected<CocoResult> fast = fail("not run");
    double fastCpu = 0, fastSingleCpu = 0, naiveCpu = 0;
    const double fastSeconds = secondsOf([&] { fast = evaluateCoco(set, params); }, fastCpu);
    CocoParams single = params;
    single.threads = 1;
    Expected<CocoResult> fastSingle = fail("not run");
    const double fastSingleSeconds =
        secondsOf([&] { fastSingle = evaluateCoco(set, single); }, fastSingleCpu);
    CocoResult naive;
    const double naiveSeconds =
        secondsOf([&] { naive = reference::evaluateCocoReference(set, params); }, naiveCpu);
    if (!fast || !fastSingle) {
        std::fprintf(stderr, "evaluation failed\n");
        return 1;
    }
    const bool same = fast->precision == naive.precision && fast->recall == naive.recall &&
                      fastSingle->precision == naive.precision;
    std::printf("AP %.4f  AP50 %.4f  AR100 %.4f  (results identical to the reference: %s)\n", fast->stats[0],
                fast->stats[1], fast->stats[8], same ? "yes" : "NO");
    std::printf("core/metrics evaluateCoco, %u hardware threads: %.3f s wall, %.3f s CPU\n",
                std::thread::hardware_concurrency(), fastSeconds, fastCpu);
    std::printf("core/metrics evaluateCoco, 1 thread:            %.3f s wall, %.3f s CPU\n",
                fastSingleSeconds, fastSingleCpu);
    std::printf("straightforward single-threaded reference:      %.3f s wall, %.3f s CPU\n", naiveSeconds,
                naiveCpu);
    std::printf(
        "ratio reference / evaluateCoco: %.1fx wall (single-threaded evaluateCoco: %.1fx wall, %.1fx CPU)\n",
        naiveSeconds / fastSeconds, naiveSeconds / fastSingleSeconds, naiveCpu / fastSingleCpu);
    return same ? 0 : 1;
}
