#pragma once
// AutoBatch (batch=-1, or batch=0.7 for a fraction, as Ultralytics): profiles real training steps
// (forward, loss, backward) of the run's model at its imgsz for a few batch sizes, fits peak device memory
// against the batch with a straight line, and chooses the batch whose predicted peak fills the requested
// share of the free memory, clamped to [1, 1024]. The memory is read through a MemoryProbe: the CUDA
// caching allocator's statistics in training, an injected memory model in tests (the same code path).
// No torch types. Thread affinity: the calling thread (it runs the profiling steps there).

#include "common/expected.h"
#include "run/train_config.h"

#include <string>
#include <vector>

namespace osprey::train {

/// Reads device memory around the profiling steps.
class MemoryProbe {
public:
    virtual ~MemoryProbe() = default;
    /// "cuda:0 (NVIDIA H200)": for the message.
    virtual std::string deviceName() const = 0;
    /// Bytes free on the device now (before the model is built), and the device's total.
    virtual double freeBytes() = 0;
    virtual double totalBytes() = 0;
    /// Before a profiled step of `batch` images: releases cached blocks and resets the peak counter. May
    /// throw what an out-of-memory step throws (a memory model does, to simulate one).
    virtual void beginStep(int batch) = 0;
    /// Peak bytes the device gave since beginStep.
    virtual double peakBytes() = 0;
};

/// One profiled step.
struct BatchMemorySample {
    int batch = 0;
    double peakBytes = 0;
};

/// Least-squares line peak = fixedBytes + bytesPerImage * batch.
struct MemoryFit {
    double fixedBytes = 0;
    double bytesPerImage = 0;
};
MemoryFit fitMemory(const std::vector<BatchMemorySample>& samples);

/// The largest batch whose predicted peak stays within `fraction` of `freeBytes`, clamped to [1, 1024].
int batchForBudget(const MemoryFit& fit, double freeBytes, double fraction);

/// What AutoBatch chose and why.
struct AutoBatchPlan {
    int batch = 16;
    double fraction = run::kAutoBatchFraction;
    double freeBytes = 0, totalBytes = 0;
    MemoryFit fit;
    double predictedBytes = 0; ///< the fit at the chosen batch
    std::vector<BatchMemorySample> samples;
    int failedBatch = 0; ///< the profiled batch that ran out of memory (0: none)
    std::string message; ///< one line for the log: the choice, the budget and the measurements
};

/// The batch sizes profiled.
inline const std::vector<int>& autoBatchProfileSizes() {
    static const std::vector<int> sizes = {1, 2, 4, 8, 16};
    return sizes;
}

/// Plans the batch of `config` (batch=-1 with config.batchFraction) for a model with `numClasses`
/// classes on config.device. `probe` null: the CUDA device's own; on the CPU, or with a LibTorch
/// without allocator statistics, the plan is batch 16 and the message says why. An error only for a
/// bad model or device, or when even batch 1 runs out of memory.
Expected<AutoBatchPlan> planAutoBatch(const run::TrainConfig& config, int numClasses,
                                      MemoryProbe* probe = nullptr);

} // namespace osprey::train
