#include "system/gpu_monitor.h"

#include <dlfcn.h>

namespace osprey::system {

namespace {

// The few NVML entry points used, declared by hand (the driver's ABI, stable across NVML versions):
// no NVML header or library at build time.
using NvmlReturn = int;
using NvmlDevice = void*;
constexpr NvmlReturn kNvmlSuccess = 0;
constexpr int kNvmlTemperatureGpu = 0;
struct NvmlUtilization {
    unsigned int gpu, memory;
};
struct NvmlMemory {
    unsigned long long total, free, used;
};

constexpr double kMiB = 1024.0 * 1024.0;

template <typename Function> Function symbol(void* library, const char* name) {
    return reinterpret_cast<Function>(dlsym(library, name));
}

} // namespace

struct GpuMonitor::Impl {
    void* library = nullptr;
    bool initialised = false;
    unsigned int count = 0;
    std::string reason;
    State state = State::NoDriver;
    NvmlReturn (*shutdown)() = nullptr;
    NvmlReturn (*handleByIndex)(unsigned int, NvmlDevice*) = nullptr;
    NvmlReturn (*name)(NvmlDevice, char*, unsigned int) = nullptr;
    NvmlReturn (*memory)(NvmlDevice, NvmlMemory*) = nullptr;
    NvmlReturn (*utilization)(NvmlDevice, NvmlUtilization*) = nullptr;
    NvmlReturn (*temperature)(NvmlDevice, int, unsigned int*) = nullptr;
    NvmlReturn (*power)(NvmlDevice, unsigned int*) = nullptr;

    void load(const std::string& path) {
        library = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
        if (!library) {
            reason = "no NVIDIA driver found";
            state = State::NoDriver;
            return;
        }
        auto init = symbol<NvmlReturn (*)()>(library, "nvmlInit_v2");
        auto deviceCount = symbol<NvmlReturn (*)(unsigned int*)>(library, "nvmlDeviceGetCount_v2");
        shutdown = symbol<decltype(shutdown)>(library, "nvmlShutdown");
        handleByIndex = symbol<decltype(handleByIndex)>(library, "nvmlDeviceGetHandleByIndex_v2");
        name = symbol<decltype(name)>(library, "nvmlDeviceGetName");
        memory = symbol<decltype(memory)>(library, "nvmlDeviceGetMemoryInfo");
        utilization = symbol<decltype(utilization)>(library, "nvmlDeviceGetUtilizationRates");
        temperature = symbol<decltype(temperature)>(library, "nvmlDeviceGetTemperature");
        power = symbol<decltype(power)>(library, "nvmlDeviceGetPowerUsage");
        if (!init || !deviceCount || !handleByIndex) {
            reason = "the NVIDIA driver's NVML library is too old";
            state = State::DriverBroken;
            return;
        }
        if (const NvmlReturn rc = init(); rc != kNvmlSuccess) {
            reason = "the NVIDIA driver is not working (NVML error " + std::to_string(rc) + ")";
            state = State::DriverBroken;
            return;
        }
        initialised = true;
        if (deviceCount(&count) != kNvmlSuccess)
            count = 0;
        state = count > 0 ? State::Ready : State::NoGpu;
        if (count == 0)
            reason = "no NVIDIA GPU found";
    }
};

GpuMonitor::GpuMonitor(const std::string& library) : m_impl(std::make_unique<Impl>()) {
    m_impl->load(library);
}

GpuMonitor::~GpuMonitor() {
    if (m_impl->initialised && m_impl->shutdown)
        m_impl->shutdown();
    if (m_impl->library)
        dlclose(m_impl->library);
}

GpuMonitor::State GpuMonitor::state() const {
    return m_impl->state;
}

const std::string& GpuMonitor::unavailableReason() const {
    return m_impl->reason;
}

int GpuMonitor::count() const {
    return m_impl->initialised ? static_cast<int>(m_impl->count) : 0;
}

std::optional<GpuSample> GpuMonitor::sample(int index) const {
    const Impl& nvml = *m_impl;
    if (index < 0 || index >= count())
        return std::nullopt;
    NvmlDevice device = nullptr;
    if (nvml.handleByIndex(static_cast<unsigned int>(index), &device) != kNvmlSuccess)
        return std::nullopt;
    GpuSample gpu;
    gpu.index = index;
    char buffer[96] = {};
    if (nvml.name && nvml.name(device, buffer, sizeof buffer - 1) == kNvmlSuccess)
        gpu.name = buffer;
    if (NvmlMemory memory{}; nvml.memory && nvml.memory(device, &memory) == kNvmlSuccess) {
        gpu.memoryTotalMb = static_cast<double>(memory.total) / kMiB;
        gpu.memoryUsedMb = static_cast<double>(memory.used) / kMiB;
    }
    if (NvmlUtilization util{}; nvml.utilization && nvml.utilization(device, &util) == kNvmlSuccess)
        gpu.utilPercent = util.gpu;
    if (unsigned int celsius = 0;
        nvml.temperature && nvml.temperature(device, kNvmlTemperatureGpu, &celsius) == kNvmlSuccess)
        gpu.temperatureC = celsius;
    if (unsigned int milliwatts = 0; nvml.power && nvml.power(device, &milliwatts) == kNvmlSuccess)
        gpu.powerW = milliwatts / 1000.0;
    return gpu;
}

std::vector<GpuSample> GpuMonitor::sampleAll() const {
    std::vector<GpuSample> gpus;
    for (int i = 0; i < count(); ++i)
        if (auto gpu = sample(i))
            gpus.push_back(std::move(*gpu));
    return gpus;
}

} // namespace osprey::system
