// bench_assist: single-image suggestion latency and batch auto-label throughput with the Darknet model:
// decode-ahead and two single-threaded workers against a sequential decode -> infer -> store loop, in the
// same run.
// Uses the shared Darknet fixture models/yolo-fastest-1.1 and the FastestDet sample images.
#include "assist/auto_labeler.h"
#include "assist/inference_threads.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace osprey;

int main(int argc, char** argv) {
    const fs::path fixtures = fs::path(OSPREY_SHARED_DIR) / "fixtures" / "models";
    const fs::path model = fixtures / "yolo-fastest-1.1";
    if (!fs::exists(model / "yolo-fastest-1.1.weights") || !fs::exists(fixtures / "fastestdet" / "images")) {
        std::printf("bench_assist: shared fixtures models/yolo-fastest-1.1 and models/fastestdet not found; "
                    "skipped\n");
        return 0;
    }
    const int copies = argc > 1 ? std::max(1, std::atoi(argv[1])) : 12;
    auto predictor = assist::BoxPredictor::open(
        {model / "yolo-fastest-1.1.cfg", model / "yolo-fastest-1.1.weights", model / "coco.names", "cpu"});
    if (!predictor) {
        std::fprintf(stderr, "error: %s\n", predictor.message().c_str());
        return 1;
    }
    // Single image: request (decoded image in memory) to proposals ready, median of 30 after warm-up.
    auto image = imaging::decodeImage(fixtures / "fastestdet" / "images" / "2.jpg");
    if (!image)
        return 1;
    std::vector<double> times;
    for (int i = 0; i < 35; ++i) {
        const auto start = std::chrono::steady_clock::now();
        auto proposals = (*predictor)->predict(*image, {});
        if (!proposals)
            return 1;
        if (i >= 5)
            times.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    std::printf(
        "suggest latency (yolo-fastest-1.1 Darknet, 320, CPU, 640x480 image): median %.1f ms, p90 %.1f ms\n",
        times[times.size() / 2], times[times.size() * 9 / 10]);

    // Sequential and decode-ahead with OpenCV's threads on all cores; then two workers with one thread each.
    const char* names[3] = {"sequential", "pipelined", "2 workers"};
    double rate[3] = {0, 0, 0};
    for (int slot = 0; slot < 3; ++slot) {
        const fs::path folder =
            fs::temp_directory_path() / ("osprey_bench_assist_" + std::to_string(::getpid()));
        fs::remove_all(folder);
        auto project = project::Project::create(folder);
        if (!project)
            return 1;
        // Distinct files (the project keeps one record per path), copied so the page cache sees them all.
        std::vector<project::NewImage> images;
        for (int c = 0; c < copies; ++c)
            for (int i = 0; i < 5; ++i) {
                const fs::path copy =
                    folder / ("img_" + std::to_string(c) + "_" + std::to_string(i) + ".jpg");
                fs::copy_file(fixtures / "fastestdet" / "images" / (std::to_string(i) + ".jpg"), copy);
                images.push_back(
                    {copy.string(), 0, 0, {}, project::ImageStatus::New, project::Split::None, false});
            }
        if (auto added = (*project)->images().addAll(images); !added) {
            std::fprintf(stderr, "error: %s\n", added.message().c_str());
            return 1;
        }
        assist::AutoLabelOptions options;
        options.pipelining = slot == 0 ? assist::Pipelining::Sequential : assist::Pipelining::Pipelined;
        options.workers = slot == 2 ? 2 : 1;
        options.openPredictor = [&] {
            return assist::BoxPredictor::open({model / "yolo-fastest-1.1.cfg",
                                               model / "yolo-fastest-1.1.weights", model / "coco.names",
                                               "cpu"});
        };
        assist::setInferenceThreads(
            slot == 2 ? 1 : static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
        auto report = assist::autoLabel(**project, **predictor, options);
        if (!report) {
            std::fprintf(stderr, "error: %s\n", report.message().c_str());
            return 1;
        }
        rate[slot] = report->images / report->seconds;
        std::printf("autolabel %-10s: %d images, %d boxes, %.2f s, %.1f images/s\n", names[slot],
                    report->images, report->boxes, report->seconds, rate[slot]);
        project->reset();
        fs::remove_all(folder);
    }
    std::printf("throughput relative to sequential: pipelined %.2fx, 2 workers x 1 thread %.2fx\n",
                rate[1] / rate[0], rate[2] / rate[0]);
    return 0;
}
