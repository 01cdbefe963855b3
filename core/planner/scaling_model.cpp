#include "planner/scaling_model.h"

#include "common/strings.h"
#include "planner/model_figures.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace osprey::planner {

namespace {

/// Seconds of one image's compute part (F / P) and memory part (A / B), before e and k.
struct ImageCost {
    double compute = 0;
    double memory = 0;
};

ImageCost imageCost(const GpuSpec& gpu, const Workload& workload) {
    return {workload.trainFlopsPerImage() / (gpu.bf16Tflops * 1e12),
            activationGbPerImage(workload) / gpu.bandwidthGbs};
}

double relativeRms(const std::vector<TimingPoint>& points, const ScalingFit& fit) {
    double sum = 0, weights = 0;
    for (const auto& p : points) {
        const double r = modelSecondsPerImage(p.gpu, p.workload, fit) / p.secondsPerImage - 1.0;
        sum += p.weight * r * r;
        weights += p.weight;
    }
    return weights > 0 ? std::sqrt(sum / weights) : 0.3;
}

} // namespace

double activationGbPerImage(const Workload& workload) {
    const double side = workload.imgsz / 640.0;
    const double gflops = std::max(workload.gflops640, 0.1);
    return 0.14 * std::pow(gflops / 8.9, 0.535) * side * side;
}

double fixedMemoryGb(const Workload& workload) {
    return static_cast<double>(workload.params) * 20.0 / 1e9 + 0.6;
}

VramFit fitVram(const GpuSpec& gpu, const Workload& workload, double activationGb) {
    const double perImage = activationGb > 0 ? activationGb : activationGbPerImage(workload);
    const double fixed = fixedMemoryGb(workload);
    const double usable = gpu.vramGb * kUsableVramShare;
    VramFit fit;
    fit.neededGb = fixed + perImage * std::max(workload.batch, 0);
    fit.maxBatch = usable > fixed ? static_cast<int>(std::floor((usable - fixed) / perImage)) : 0;
    fit.fits = workload.batch <= fit.maxBatch;
    return fit;
}

double modelSecondsPerImage(const GpuSpec& gpu, const Workload& workload, const ScalingFit& fit) {
    const ImageCost cost = imageCost(gpu, workload);
    return cost.compute / fit.computeEfficiency + fit.memoryTrafficFactor * cost.memory;
}

ScalingFit fitScaling(const std::vector<TimingPoint>& points) {
    ScalingFit fit;
    fit.points = static_cast<int>(points.size());
    if (points.empty())
        return fit;
    // Rows a_i X + b_i k = 1 after dividing by t_i (relative error), X = 1/e; weighted normal equations.
    double saa = 0, sab = 0, sbb = 0, sa = 0, sb = 0;
    for (const auto& p : points) {
        const ImageCost c = imageCost(p.gpu, p.workload);
        const double a = c.compute / p.secondsPerImage, b = c.memory / p.secondsPerImage;
        saa += p.weight * a * a;
        sab += p.weight * a * b;
        sbb += p.weight * b * b;
        sa += p.weight * a;
        sb += p.weight * b;
    }
    const double det = saa * sbb - sab * sab;
    bool solved = false;
    if (points.size() >= 2 && std::abs(det) > 1e-12 * saa * sbb) {
        const double x = (sa * sbb - sb * sab) / det;
        const double k = (saa * sb - sab * sa) / det;
        if (x > 0 && k >= 0) {
            fit.computeEfficiency = 1.0 / x;
            fit.memoryTrafficFactor = k;
            solved = true;
        }
    }
    if (!solved) {
        // Keep k and fit X alone: minimise sum w (a X + b k - 1)^2.
        const double x = (sa - fit.memoryTrafficFactor * sab) / std::max(saa, 1e-300);
        if (x > 0)
            fit.computeEfficiency = 1.0 / x;
    }
    fit.relativeError = relativeRms(points, fit);
    return fit;
}

std::vector<TimingPoint> referenceTimings(const Catalogue& catalogue) {
    std::vector<TimingPoint> out;
    for (const auto& point : catalogue.referencePoints) {
        const GpuSpec* gpu = catalogue.find(point.gpu);
        Workload workload;
        if (!gpu || !setModel(workload, point.model))
            continue;
        workload.imgsz = point.imgsz;
        const double effectiveImages = point.images * (0.8 + 0.2 * kValidationShare);
        out.push_back({*gpu, workload, point.minutes * 60.0 / (effectiveImages * point.epochs), 1.0});
    }
    return out;
}

const GpuSpec* gpuForDevice(const Catalogue& catalogue, const std::string& device) {
    const std::string text = toLower(device);
    const GpuSpec* best = nullptr;
    std::size_t bestLength = 0;
    for (const auto& gpu : catalogue.gpus) {
        std::string key = toLower(gpu.name);
        if (endsWith(key, " sxm"))
            key.resize(key.size() - 4);
        for (auto at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
            const std::size_t end = at + key.size();
            const bool startOk = at == 0 || !std::isalnum(static_cast<unsigned char>(text[at - 1]));
            const bool endOk = end == text.size() || !std::isalnum(static_cast<unsigned char>(text[end]));
            if (startOk && endOk && key.size() > bestLength) {
                best = &gpu;
                bestLength = key.size();
            }
        }
    }
    return best;
}

} // namespace osprey::planner
