#include "train/auto_batch.h"

#include "model/compat_torch_impl.h"
#include "model/detector_torch_impl.h"
#include "model/model_spec.h"
#include "train/criterion_impl.h"
#include "train/device_choice.h"
#include "train/grad_scaler_impl.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

namespace osprey::train {

namespace {

constexpr int kDefaultBatch = 16; // Ultralytics' fallback when AutoBatch cannot measure
constexpr int kMaxBatch = 1024;
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

/// The CUDA caching allocator of one device.
class CudaMemoryProbe : public MemoryProbe {
public:
    explicit CudaMemoryProbe(int index) : m_index(index) {}
    std::string deviceName() const override { return "cuda:" + std::to_string(m_index); }
    double freeBytes() override {
        model::compat::emptyCudaCache();
        const auto info = model::compat::cudaMemoryInfo(m_index);
        return info ? static_cast<double>(info->freeBytes) : 0.0;
    }
    double totalBytes() override {
        const auto info = model::compat::cudaMemoryInfo(m_index);
        return info ? static_cast<double>(info->totalBytes) : 0.0;
    }
    void beginStep(int) override {
        model::compat::emptyCudaCache();
        model::compat::resetCudaPeak(m_index);
    }
    double peakBytes() override {
        torch::cuda::synchronize(m_index);
        const auto peak = model::compat::cudaPeakMemory(m_index);
        return peak ? static_cast<double>(peak->reservedBytes) : 0.0;
    }

private:
    int m_index;
};

// Four boxes per image at fixed spots, so that the assigner and the loss do their usual work.
BatchTargets syntheticTargets(int batch, int imgsz, int numClasses, const torch::Device& device) {
    const int perImage = 4;
    auto rows = torch::empty({batch * perImage, 6});
    auto access = rows.accessor<float, 2>();
    const float side = static_cast<float>(imgsz);
    for (int i = 0; i < batch * perImage; ++i) {
        const float offset = 0.1f + 0.2f * static_cast<float>(i % perImage);
        access[i][0] = static_cast<float>(i / perImage);
        access[i][1] = static_cast<float>(i % std::max(1, numClasses));
        access[i][2] = offset * side;
        access[i][3] = offset * side;
        access[i][4] = (offset + 0.15f) * side;
        access[i][5] = (offset + 0.2f) * side;
    }
    return padTargets(rows.to(device), batch);
}

std::string gib(double bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f GiB", bytes / kGiB);
    return text;
}

} // namespace

MemoryFit fitMemory(const std::vector<BatchMemorySample>& samples) {
    MemoryFit fit;
    if (samples.empty())
        return fit;
    double meanX = 0, meanY = 0;
    for (const auto& s : samples) {
        meanX += s.batch;
        meanY += s.peakBytes;
    }
    meanX /= static_cast<double>(samples.size());
    meanY /= static_cast<double>(samples.size());
    double sxy = 0, sxx = 0;
    for (const auto& s : samples) {
        sxy += (s.batch - meanX) * (s.peakBytes - meanY);
        sxx += (s.batch - meanX) * (s.batch - meanX);
    }
    fit.bytesPerImage = sxx > 0 ? sxy / sxx : 0;
    fit.fixedBytes = meanY - fit.bytesPerImage * meanX;
    return fit;
}

int batchForBudget(const MemoryFit& fit, double freeBytes, double fraction) {
    if (fit.bytesPerImage <= 0)
        return kDefaultBatch;
    const double batch = std::floor((freeBytes * fraction - fit.fixedBytes) / fit.bytesPerImage);
    return static_cast<int>(std::clamp(batch, 1.0, static_cast<double>(kMaxBatch)));
}

Expected<AutoBatchPlan> planAutoBatch(const run::TrainConfig& config, int numClasses, MemoryProbe* probe) {
    AutoBatchPlan plan;
    plan.fraction =
        config.batchFraction > 0 && config.batchFraction < 1 ? config.batchFraction : run::kAutoBatchFraction;
    auto devices = chooseDevices(config.device, probeDevices());
    if (!devices)
        return fail(devices.error());
    std::optional<CudaMemoryProbe> cudaProbe;
    torch::Device device(torch::kCPU);
    if (devices->cuda)
        device = torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(devices->indices.front()));
    if (!probe) {
        if (!devices->cuda) {
            plan.message = "AutoBatch needs a CUDA device to measure memory; on " + devices->describe() +
                           " it uses batch=" + std::to_string(plan.batch);
            return plan;
        }
        if (!model::compat::cudaMemoryStatsAvailable(devices->indices.front())) {
            plan.message =
                "AutoBatch needs the CUDA allocator statistics of LibTorch 2.9 or newer (this is " +
                model::compat::torchVersion() + "); using batch=" + std::to_string(plan.batch);
            return plan;
        }
        cudaProbe.emplace(devices->indices.front());
        probe = &*cudaProbe;
    }
    auto spec = model::parseModelName(config.model, numClasses);
    if (!spec)
        return fail(spec.error());
    plan.freeBytes = probe->freeBytes();
    plan.totalBytes = probe->totalBytes();
    const bool cuda = device.is_cuda();
    const auto precision = choosePrecision(config.amp, cuda, fastBFloat16(device));
    {
        auto network = std::make_shared<model::DetectionModel>(spec.value());
        network->to(device);
        network->train();
        const Criterion loss(*network, config.epochs, LossGains{});
        for (const int batch : autoBatchProfileSizes()) {
            try {
                probe->beginStep(batch);
                auto images = torch::rand({batch, 3, config.imgsz, config.imgsz},
                                          torch::TensorOptions().device(device));
                const auto targets = syntheticTargets(batch, config.imgsz, numClasses, device);
                model::HeadMaps maps;
                {
                    const bool lower = precision != Precision::Float32;
                    model::compat::AutocastScope autocast(device.type(), autocastType(precision), lower);
                    maps = loss.forward(*network, images, lower);
                }
                loss(maps, targets).total.backward();
                plan.samples.push_back({batch, probe->peakBytes()});
                network->zero_grad();
            } catch (const std::exception& error) {
                if (!model::compat::isOutOfMemory(error))
                    throw;
                plan.failedBatch = batch;
                network->zero_grad();
                break;
            }
        }
    }
    model::compat::emptyCudaCache();
    std::ostringstream why;
    for (size_t i = 0; i < plan.samples.size(); ++i)
        why << (i ? ", " : "") << gib(plan.samples[i].peakBytes) << " at " << plan.samples[i].batch;
    if (plan.failedBatch)
        why << "; batch " << plan.failedBatch << " ran out of memory";
    if (plan.samples.empty())
        return fail("AutoBatch: a training step of " + spec->name() +
                    " at imgsz=" + std::to_string(config.imgsz) + " with batch 1 runs out of memory on " +
                    probe->deviceName() + " (" + gib(plan.freeBytes) + " free of " + gib(plan.totalBytes) +
                    "); use a smaller model or imgsz");
    plan.fit = fitMemory(plan.samples);
    bool clamped = false;
    if (plan.samples.size() < 2) {
        plan.batch = 1;
    } else if (plan.fit.bytesPerImage <= 0) {
        plan.batch = kDefaultBatch;
        why << "; the memory did not grow with the batch, so batch=" << kDefaultBatch << " is used";
    } else {
        plan.batch = batchForBudget(plan.fit, plan.freeBytes, plan.fraction);
        const double unclamped =
            std::floor((plan.freeBytes * plan.fraction - plan.fit.fixedBytes) / plan.fit.bytesPerImage);
        clamped = unclamped < 1 || unclamped > kMaxBatch;
    }
    if (plan.failedBatch && plan.batch >= plan.failedBatch)
        plan.batch = std::max(1, plan.failedBatch / 2); // the last size that ran
    plan.predictedBytes = plan.fit.fixedBytes + plan.fit.bytesPerImage * plan.batch;
    char line[400];
    std::snprintf(line, sizeof line,
                  "AutoBatch: batch=%d for %.0f%% of the %s free on %s (of %s; %s %s at imgsz %d): measured "
                  "peaks ",
                  plan.batch, 100.0 * plan.fraction, gib(plan.freeBytes).c_str(), probe->deviceName().c_str(),
                  gib(plan.totalBytes).c_str(), spec->name().c_str(), toString(precision), config.imgsz);
    std::ostringstream message;
    message << line << why.str();
    if (plan.samples.size() >= 2) {
        char fitText[200];
        std::snprintf(fitText, sizeof fitText, "; fit %s + %.1f MiB per image, predicted peak %s",
                      gib(plan.fit.fixedBytes).c_str(), plan.fit.bytesPerImage / (1024.0 * 1024.0),
                      gib(plan.predictedBytes).c_str());
        message << fitText;
    }
    if (clamped)
        message << " (clamped to [1, " << kMaxBatch << "])";
    plan.message = message.str();
    return plan;
}

} // namespace osprey::train
