#pragma once
// Shared by the assist benchmarks: a freshly created (untrained) yolov8n saved as an Osprey checkpoint,
// and small timing helpers. Random weights cost the same to run as trained ones.

#include "demo/demo_dataset.h"
#include "model/detector.h"
#include "model/weights.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sys/resource.h>
#include <vector>

namespace osprey::bench {

/// Writes an untrained yolov8n for the demo classes to `path`; false on failure (printed).
inline bool writeFreshYolov8n(const std::filesystem::path& path, int imgsz) {
    auto spec = model::parseModelName("yolov8n", static_cast<int>(demo::demoClassNames().size()));
    if (!spec)
        return std::fprintf(stderr, "error: %s\n", spec.message().c_str()), false;
    auto detector = model::Detector::create(*spec);
    if (!detector)
        return std::fprintf(stderr, "error: %s\n", detector.message().c_str()), false;
    model::CheckpointMeta meta;
    meta.names = demo::demoClassNames();
    meta.imgsz = imgsz;
    if (auto saved = model::saveWeights(*detector, meta, path); !saved)
        return std::fprintf(stderr, "error: %s\n", saved.message().c_str()), false;
    return true;
}

inline double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// CPU seconds used by the whole process so far (all threads).
inline double processCpuSeconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
}

/// The value at fraction q (0..1) of the sorted samples.
inline double quantile(std::vector<double> samples, double q) {
    std::sort(samples.begin(), samples.end());
    return samples[std::min(samples.size() - 1,
                            static_cast<size_t>(q * static_cast<double>(samples.size())))];
}

} // namespace osprey::bench
