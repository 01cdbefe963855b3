#pragma once
// Samples CPU load, RAM, this process's memory and, when an NVIDIA driver is present, GPU utilisation,
// memory and temperature through NVML (libnvidia-ml.so.1 loaded with dlopen; absent = no GPU). No torch.
// Thread affinity: SystemSampler owns a background thread that calls the callback every period;
// sampleOnce() may be called from any one thread at a time.

#include "train/train_events.h"

#include <chrono>
#include <functional>
#include <memory>

namespace osprey::train {

class SystemSampler {
public:
    /// Fills the `system` fields of a TrainEvent (type System) with a fresh sample.
    using Callback = std::function<void(const TrainEvent&)>;

    SystemSampler();
    ~SystemSampler(); ///< stops and joins the thread
    SystemSampler(const SystemSampler&) = delete;
    SystemSampler& operator=(const SystemSampler&) = delete;

    /// One sample now (the CPU percentage covers the time since the previous sample).
    TrainEvent sampleOnce();
    /// Starts the thread: a sample right away, then one per `period`.
    void start(Callback callback, std::chrono::milliseconds period = std::chrono::milliseconds(2000));
    void stop();

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace osprey::train
