// ONNX export figures for issue 16: the time `model export` takes for yolov8n and yolo11n (goal for
// yolov8n: <= 2 s), and the CPU latency of the exported yolov8n at 640 in OpenCV DNN next to Osprey's
// LibTorch path (fused, decode included on both sides) at the same thread count, on the same input.
// Usage: bench_export [threads=2] [repeats=10]
#include "export/onnx_export.h"
#include "model/detector_torch_impl.h"
#include "model/weights.h"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

using namespace osprey;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

template <typename Fn> double medianMs(int repeats, Fn fn) {
    std::vector<double> times;
    for (int i = 0; i < repeats + 2; ++i) {
        const auto start = Clock::now();
        fn();
        if (i >= 2) // warm-up: allocators, thread pools, OpenCV's layer setup
            times.push_back(msSince(start));
    }
    return median(times);
}

} // namespace

int main(int argc, char** argv) {
    const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 10;
    torch::set_num_threads(threads);
    cv::setNumThreads(threads);
    const auto folder = std::filesystem::temp_directory_path() / "osprey-bench-export";
    std::filesystem::create_directories(folder);
    std::printf("threads %d (torch and OpenCV), %d timed runs each (median)\n\n", threads, repeats);

    std::printf("%-8s %5s %10s %10s %10s %10s %8s\n", "model", "imgsz", "total ms", "build ms", "check ms",
                "verify ms", "MB");
    std::filesystem::path yolov8nOnnx, yolov8nPt;
    for (const char* name : {"yolov8n", "yolo11n"}) {
        auto detector = model::Detector::create(model::parseModelName(name).value()).value();
        const auto weights = folder / (std::string(name) + ".pt");
        if (auto saved = model::saveWeights(detector, {}, weights); !saved) {
            std::fprintf(stderr, "%s\n", saved.message().c_str());
            return 1;
        }
        exporter::OnnxExportOptions options;
        std::vector<double> total, build, check, verify;
        exporter::OnnxExportReport last;
        for (int i = 0; i < 3; ++i) {
            auto report = exporter::exportOnnx(weights, options);
            if (!report) {
                std::fprintf(stderr, "%s\n", report.message().c_str());
                return 1;
            }
            total.push_back(report->totalMs);
            build.push_back(report->buildMs);
            check.push_back(report->checkMs);
            verify.push_back(report->verifyMs);
            last = *report;
        }
        std::printf("%-8s %5d %10.0f %10.0f %10.0f %10.0f %8.1f\n", name, options.imgsz, median(total),
                    median(build), median(check), median(verify), last.bytes / 1e6);
        if (std::string(name) == "yolov8n") {
            yolov8nOnnx = last.file;
            yolov8nPt = weights;
            std::printf("  yolov8n export goal <= 2000 ms: %s\n", median(total) <= 2000 ? "met" : "NOT met");
        }
    }

    // Latency: the same [1, 3, 640, 640] input through both runtimes.
    auto detector = model::loadDetector(yolov8nPt).value();
    detector.fuse();
    auto& network = *detector.impl().model;
    network.eval();
    torch::NoGradGuard noGrad;
    const auto input = torch::rand({1, 3, 640, 640});
    const double torchMs = medianMs(repeats, [&] { network.forwardDecoded(input); });

    auto net = cv::dnn::readNetFromONNX(yolov8nOnnx.string());
    const int sizes[] = {1, 3, 640, 640};
    const cv::Mat blob(4, sizes, CV_32F, input.data_ptr<float>());
    const double opencvMs = medianMs(repeats, [&] {
        net.setInput(blob);
        net.forward();
    });
    std::printf("\nyolov8n 640, batch 1, CPU, %d threads (network + decode, no NMS):\n", threads);
    std::printf("  %-28s %8.1f ms\n", "Osprey LibTorch (fused)", torchMs);
    std::printf("  %-28s %8.1f ms\n", "exported ONNX in OpenCV DNN", opencvMs);
    std::printf("  OpenCV DNN / LibTorch        %8.2fx\n", opencvMs / torchMs);
    std::filesystem::remove_all(folder);
    return 0;
}
