// CPU inference figures for the Speed section: batch-1 latency of yolov8n and yolo11n at 320 and
// 640, unfused and fused, with pre- and postprocessing timed apart; then images/s at batch 8.
// Usage: bench_model [threads=2] [repeats=10]
#include "model/detector.h"
#include "model/predictor.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

using namespace osprey::model;

namespace {

struct Figures {
    double preMs, inferMs, postMs;
};

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

Figures latency(Predictor& predictor, const ImageView& image, int imgsz, int repeats) {
    NmsOptions nms;
    std::vector<double> pre, infer, post;
    for (int i = 0; i < repeats + 2; ++i) {
        PredictTiming timing;
        if (!predictor.predict({image}, imgsz, nms, &timing)) {
            std::fprintf(stderr, "prediction failed\n");
            std::exit(1);
        }
        if (i < 2)
            continue; // warm-up: allocator and thread pool
        pre.push_back(timing.preprocessMs);
        infer.push_back(timing.inferenceMs);
        post.push_back(timing.postprocessMs);
    }
    return {median(pre), median(infer), median(post)};
}

double throughput(Predictor& predictor, const ImageView& image, int imgsz, int batch, int repeats) {
    std::vector<ImageView> images(static_cast<size_t>(batch), image);
    NmsOptions nms;
    std::vector<double> perImageMs;
    for (int i = 0; i < repeats + 1; ++i) {
        PredictTiming timing;
        if (!predictor.predict(images, imgsz, nms, &timing))
            std::exit(1);
        if (i > 0)
            perImageMs.push_back((timing.preprocessMs + timing.inferenceMs + timing.postprocessMs) / batch);
    }
    return 1000.0 / median(perImageMs);
}

} // namespace

int main(int argc, char** argv) {
    const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 10;
    setComputeThreads(threads);
    std::printf("torch threads %d, %d timed runs each (median), source image 1280x720\n\n", threads, repeats);

    std::mt19937 rng(1);
    std::vector<std::uint8_t> pixels(1280 * 720 * 3);
    for (auto& p : pixels)
        p = static_cast<std::uint8_t>(rng());
    const ImageView image{pixels.data(), 1280, 720};

    std::printf("%-8s %5s %-8s %9s %9s %9s %9s\n", "model", "imgsz", "mode", "pre ms", "infer ms", "post ms",
                "total ms");
    for (const char* name : {"yolov8n", "yolo11n"}) {
        for (const int imgsz : {320, 640}) {
            double unfusedInfer = 0;
            for (const bool fuse : {false, true}) {
                auto detector = Detector::create(parseModelName(name).value());
                auto predictor =
                    Predictor::fromDetector(std::move(*detector), {}, PredictorOptions{"cpu", fuse});
                const auto f = latency(*predictor, image, imgsz, repeats);
                if (!fuse)
                    unfusedInfer = f.inferMs;
                std::printf("%-8s %5d %-8s %9.1f %9.1f %9.2f %9.1f%s\n", name, imgsz,
                            fuse ? "fused" : "unfused", f.preMs, f.inferMs, f.postMs,
                            f.preMs + f.inferMs + f.postMs,
                            fuse ? (" (fused/unfused inference " +
                                    std::to_string(f.inferMs / unfusedInfer).substr(0, 4) + ")")
                                       .c_str()
                                 : "");
            }
        }
    }
    std::printf("\nbatch 8, fused, end to end (letterbox + inference + NMS):\n");
    for (const char* name : {"yolov8n", "yolo11n"}) {
        for (const int imgsz : {320, 640}) {
            auto detector = Detector::create(parseModelName(name).value());
            auto predictor = Predictor::fromDetector(std::move(*detector), {}, PredictorOptions{"cpu", true});
            const double batch1 = throughput(*predictor, image, imgsz, 1, std::max(3, repeats / 2));
            const double batch8 = throughput(*predictor, image, imgsz, 8, std::max(2, repeats / 4));
            std::printf("%-8s %5d  %6.1f images/s at batch 8 (%.2fx batch 1: %.1f images/s)\n", name, imgsz,
                        batch8, batch8 / batch1, batch1);
        }
    }
    return 0;
}
