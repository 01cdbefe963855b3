#include "train/system_sampler.h"

#include "system/machine_monitor.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace osprey::train {

struct SystemSampler::Impl {
    system::MachineMonitor monitor;
    std::mutex mutex;
    std::condition_variable wake;
    bool stopping = false;
    std::thread thread;
};

SystemSampler::SystemSampler() : m_impl(std::make_unique<Impl>()) {}

SystemSampler::~SystemSampler() {
    stop();
}

run::TrainEvent SystemSampler::sampleOnce() {
    const system::MachineSample sample = m_impl->monitor.sample();
    run::TrainEvent event;
    event.type = run::TrainEvent::Type::System;
    event.cpuPercent = sample.cpuPercent;
    event.processCpuPercent = sample.processCpuPercent;
    event.cpuCores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    event.ramTotalMb = sample.ramTotalMb;
    event.ramUsedMb = sample.ramUsedMb;
    event.processRssMb = sample.processRssMb;
    // The schema reports GPU 0 (EVENTS.md); a value the driver did not give stays 0.
    if (!sample.gpus.empty()) {
        const system::GpuSample& gpu = sample.gpus.front();
        const auto known = [](double value) { return value == system::GpuSample::kUnknown ? 0.0 : value; };
        event.gpu = true;
        event.gpuName = gpu.name;
        event.gpuUtilPercent = known(gpu.utilPercent);
        event.gpuMemUsedMb = known(gpu.memoryUsedMb);
        event.gpuMemTotalMb = known(gpu.memoryTotalMb);
        event.gpuTempC = known(gpu.temperatureC);
    }
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
