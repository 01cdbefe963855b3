#pragma once
// MachineMonitor: CPU load, machine and process memory (from /proc) and the GPUs (GpuMonitor), sampled
// together for the trainer's `system` events and the dashboard's System tab. No torch, no Qt.
// Thread affinity: one thread at a time (the CPU percentage is the load since the previous sample).

#include "system/gpu_monitor.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace osprey::system {

struct MachineSample {
    double cpuPercent = 0;        ///< whole machine, 0..100, since the previous sample
    double processCpuPercent = 0; ///< this process's share of it (same scale: 100 = every core)
    double ramUsedMb = 0;         ///< MemTotal - MemAvailable
    double ramTotalMb = 0;
    double processRssMb = 0; ///< this process's resident memory
    std::vector<GpuSample> gpus;
};

class MachineMonitor {
public:
    /// `nvmlLibrary` as for GpuMonitor.
    explicit MachineMonitor(const std::string& nvmlLibrary = GpuMonitor::kDefaultLibrary);
    ~MachineMonitor();
    MachineMonitor(const MachineMonitor&) = delete;
    MachineMonitor& operator=(const MachineMonitor&) = delete;

    MachineSample sample();
    const GpuMonitor& gpus() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace osprey::system
