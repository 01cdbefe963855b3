#pragma once
// Samples the machine (core/system: CPU load, RAM, this process's memory and the GPUs through NVML) into
// the trainer's `system` events, on a background thread. No torch.
// Thread affinity: SystemSampler owns a background thread that calls the callback every period;
// sampleOnce() may be called from any one thread at a time.

#include "run/train_events.h"

#include <chrono>
#include <functional>
#include <memory>

namespace osprey::train {

class SystemSampler {
public:
    /// Fills the `system` fields of a run::TrainEvent (type System) with a fresh sample.
    using Callback = std::function<void(const run::TrainEvent&)>;

    SystemSampler();
    ~SystemSampler(); ///< stops and joins the thread
    SystemSampler(const SystemSampler&) = delete;
    SystemSampler& operator=(const SystemSampler&) = delete;

    /// One sample now (the CPU percentage covers the time since the previous sample).
    run::TrainEvent sampleOnce();
    /// Starts the thread: a sample right away, then one per `period`.
    void start(Callback callback, std::chrono::milliseconds period = std::chrono::milliseconds(2000));
    void stop();

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace osprey::train
