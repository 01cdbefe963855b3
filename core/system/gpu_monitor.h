#pragma once
// GpuMonitor: the NVIDIA GPUs of this machine and their live state (name, memory, utilisation,
// temperature, power) through NVML, loaded with dlopen so that no NVML header or library is needed to
// build and a machine without an NVIDIA driver simply has no GPUs. The one GPU query of Osprey: the
// trainer's `system` events and the GUI's device list both read it. No torch, no Qt.
//
// Thread affinity: one GpuMonitor is used by one thread at a time; separate monitors may live on
// different threads (NVML counts its initialisations).

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace osprey::system {

/// One GPU at one moment. A value the driver did not report stays at its `unknown` default.
struct GpuSample {
    static constexpr double kUnknown = -1.0;
    int index = 0;                   ///< NVML (and CUDA, with the default device order) index
    std::string name;                ///< "NVIDIA H200"
    double memoryTotalMb = kUnknown; ///< MiB
    double memoryUsedMb = kUnknown;  ///< MiB, all processes
    double utilPercent = kUnknown;   ///< 0..100 over the driver's last sample period
    double temperatureC = kUnknown;  ///< core temperature
    double powerW = kUnknown;        ///< board power draw
};

class GpuMonitor {
public:
    /// What loading NVML found.
    enum class State {
        Ready,        ///< NVML works and lists at least one GPU
        NoDriver,     ///< the library is not there: no NVIDIA driver
        DriverBroken, ///< the library is there but too old or fails to initialise
        NoGpu,        ///< NVML works and lists no GPU
    };

    /// The NVML library of the NVIDIA driver.
    static constexpr const char* kDefaultLibrary = "libnvidia-ml.so.1";

    /// Loads and initialises NVML from `library` (a name the dynamic loader finds, or a path; tests pass
    /// a stand-in). Never fails: an absent library or driver gives a monitor without GPUs.
    explicit GpuMonitor(const std::string& library = kDefaultLibrary);
    ~GpuMonitor();
    GpuMonitor(const GpuMonitor&) = delete;
    GpuMonitor& operator=(const GpuMonitor&) = delete;

    State state() const;
    /// NVML works and lists at least one GPU.
    bool available() const { return state() == State::Ready; }
    /// Why there are no GPUs, in a few words ("no NVIDIA driver found"); empty when available().
    const std::string& unavailableReason() const;
    /// GPUs found (0 when not available).
    int count() const;
    /// A fresh sample of one GPU; nullopt for an index out of range or a GPU that stopped answering.
    std::optional<GpuSample> sample(int index) const;
    /// A fresh sample of every GPU, in index order.
    std::vector<GpuSample> sampleAll() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace osprey::system
