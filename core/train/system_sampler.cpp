#include "train/system_sampler.h"

#include <condition_variable>
#include <dlfcn.h>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>

namespace osprey::train {

namespace {

// The few NVML entry points we use, declared by hand so that no NVML header or library is needed at
// build time.
using NvmlReturn = int;
using NvmlDevice = void*;
struct NvmlUtilization {
    unsigned int gpu, memory;
};
struct NvmlMemory {
    unsigned long long total, free, used;
};

class Nvml {
public:
    Nvml() {
        m_library = dlopen("libnvidia-ml.so.1", RTLD_LAZY | RTLD_LOCAL);
        if (!m_library)
            return;
        auto init = reinterpret_cast<NvmlReturn (*)()>(dlsym(m_library, "nvmlInit_v2"));
        auto handle = reinterpret_cast<NvmlReturn (*)(unsigned int, NvmlDevice*)>(
            dlsym(m_library, "nvmlDeviceGetHandleByIndex_v2"));
        m_util = reinterpret_cast<decltype(m_util)>(dlsym(m_library, "nvmlDeviceGetUtilizationRates"));
        m_memory = reinterpret_cast<decltype(m_memory)>(dlsym(m_library, "nvmlDeviceGetMemoryInfo"));
        m_temperature =
            reinterpret_cast<decltype(m_temperature)>(dlsym(m_library, "nvmlDeviceGetTemperature"));
        auto name = reinterpret_cast<NvmlReturn (*)(NvmlDevice, char*, unsigned int)>(
            dlsym(m_library, "nvmlDeviceGetName"));
        m_shutdown = reinterpret_cast<NvmlReturn (*)()>(dlsym(m_library, "nvmlShutdown"));
        if (!init || !handle || !m_util || !m_memory || !m_temperature || init() != 0)
            return;
        m_initialised = true;
        if (handle(0, &m_device) != 0)
            return;
        char buffer[96] = {};
        if (name && name(m_device, buffer, sizeof(buffer)) == 0)
            m_name = buffer;
        m_ok = true;
    }
    ~Nvml() {
        if (m_initialised && m_shutdown)
            m_shutdown();
        if (m_library)
            dlclose(m_library);
    }
    Nvml(const Nvml&) = delete;
    Nvml& operator=(const Nvml&) = delete;

    void fill(TrainEvent& event) const {
        if (!m_ok)
            return;
        NvmlUtilization util{};
        NvmlMemory memory{};
        unsigned int temperature = 0;
        event.gpu = true;
        event.gpuName = m_name;
        if (m_util(m_device, &util) == 0)
            event.gpuUtilPercent = util.gpu;
        if (m_memory(m_device, &memory) == 0) {
            event.gpuMemUsedMb = static_cast<double>(memory.used) / (1024.0 * 1024.0);
            event.gpuMemTotalMb = static_cast<double>(memory.total) / (1024.0 * 1024.0);
        }
        if (m_temperature(m_device, 0 /* NVML_TEMPERATURE_GPU */, &temperature) == 0)
            event.gpuTempC = temperature;
    }

private:
    void* m_library = nullptr;
    NvmlDevice m_device = nullptr;
    bool m_initialised = false, m_ok = false;
    std::string m_name;
    NvmlReturn (*m_util)(NvmlDevice, NvmlUtilization*) = nullptr;
    NvmlReturn (*m_memory)(NvmlDevice, NvmlMemory*) = nullptr;
    NvmlReturn (*m_temperature)(NvmlDevice, int, unsigned int*) = nullptr;
    NvmlReturn (*m_shutdown)() = nullptr;
};

struct CpuTimes {
    unsigned long long busy = 0, total = 0;
};

CpuTimes readCpuTimes() {
    std::ifstream stat("/proc/stat");
    std::string label;
    unsigned long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    stat >> label >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal;
    const unsigned long long busy = user + nice + system + irq + softirq + steal;
    return {busy, busy + idle + iowait};
}

double readMeminfoKb(const std::string& key) {
    std::ifstream meminfo("/proc/meminfo");
    std::string line;
    while (std::getline(meminfo, line)) {
        if (line.rfind(key + ":", 0) == 0) {
            std::istringstream fields(line.substr(key.size() + 1));
            double kb = 0;
            fields >> kb;
            return kb;
        }
    }
    return 0;
}

double readRssKb() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0) {
            std::istringstream fields(line.substr(6));
            double kb = 0;
            fields >> kb;
            return kb;
        }
    }
    return 0;
}

} // namespace

struct SystemSampler::Impl {
    Nvml nvml;
    CpuTimes previous = readCpuTimes();
    std::mutex mutex;
    std::condition_variable wake;
    bool stopping = false;
    std::thread thread;
};

SystemSampler::SystemSampler() : m_impl(std::make_unique<Impl>()) {}

SystemSampler::~SystemSampler() {
    stop();
}

TrainEvent SystemSampler::sampleOnce() {
    TrainEvent event;
    event.type = TrainEvent::Type::System;
    const CpuTimes now = readCpuTimes();
    const auto total = now.total - m_impl->previous.total;
    if (total > 0)
        event.cpuPercent =
            100.0 * static_cast<double>(now.busy - m_impl->previous.busy) / static_cast<double>(total);
    m_impl->previous = now;
    event.ramTotalMb = readMeminfoKb("MemTotal") / 1024.0;
    event.ramUsedMb = event.ramTotalMb - readMeminfoKb("MemAvailable") / 1024.0;
    event.processRssMb = readRssKb() / 1024.0;
    m_impl->nvml.fill(event);
    return event;
}

void SystemSampler::start(Callback callback, std::chrono::milliseconds period) {
    stop();
    m_impl->stopping = false;
    m_impl->thread = std::thread([this, callback = std::move(callback), period] {
        std::unique_lock lock(m_impl->mutex);
        while (!m_impl->stopping) {
            lock.unlock();
            callback(sampleOnce());
            lock.lock();
            m_impl->wake.wait_for(lock, period, [this] { return m_impl->stopping; });
        }
    });
}

void SystemSampler::stop() {
    {
        std::lock_guard lock(m_impl->mutex);
        m_impl->stopping = true;
    }
    m_impl->wake.notify_all();
    if (m_impl->thread.joinable())
        m_impl->thread.join();
}

} // namespace osprey::train
