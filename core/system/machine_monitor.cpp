#include "system/machine_monitor.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace osprey::system {

namespace {

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

/// This process's user + system CPU time in clock ticks, the unit of /proc/stat (fields 14 and 15 of
/// /proc/self/stat, counted after the command name's closing parenthesis); 0 when unreadable.
unsigned long long readProcessTicks() {
    std::ifstream in("/proc/self/stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')');
    if (close == std::string::npos)
        return 0;
    std::istringstream fields(text.substr(close + 1));
    std::string field;
    unsigned long long utime = 0, stime = 0;
    for (int index = 3; index <= 15 && fields >> field; ++index) {
        if (index == 14)
            utime = std::strtoull(field.c_str(), nullptr, 10);
        else if (index == 15)
            stime = std::strtoull(field.c_str(), nullptr, 10);
    }
    return utime + stime;
}

/// The number after `key:` in a /proc file of "Key: value kB" lines; 0 when absent.
double readProcKb(const char* file, const std::string& key) {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(key + ":", 0) == 0) {
            std::istringstream fields(line.substr(key.size() + 1));
            double kb = 0;
            fields >> kb;
            return kb;
        }
    }
    return 0;
}

} // namespace

struct MachineMonitor::Impl {
    explicit Impl(const std::string& library) : gpus(library) {}
    GpuMonitor gpus;
    CpuTimes previous = readCpuTimes();
    unsigned long long previousProcess = readProcessTicks();
};

MachineMonitor::MachineMonitor(const std::string& nvmlLibrary)
    : m_impl(std::make_unique<Impl>(nvmlLibrary)) {}
MachineMonitor::~MachineMonitor() = default;

const GpuMonitor& MachineMonitor::gpus() const {
    return m_impl->gpus;
}

MachineSample MachineMonitor::sample() {
    MachineSample sample;
    const CpuTimes now = readCpuTimes();
    const unsigned long long process = readProcessTicks();
    if (now.total > m_impl->previous.total) {
        const auto total = static_cast<double>(now.total - m_impl->previous.total);
        sample.cpuPercent = 100.0 * static_cast<double>(now.busy - m_impl->previous.busy) / total;
        if (process >= m_impl->previousProcess)
            sample.processCpuPercent =
                std::min(100.0, 100.0 * static_cast<double>(process - m_impl->previousProcess) / total);
    }
    m_impl->previous = now;
    m_impl->previousProcess = process;
    sample.ramTotalMb = readProcKb("/proc/meminfo", "MemTotal") / 1024.0;
    sample.ramUsedMb = sample.ramTotalMb - readProcKb("/proc/meminfo", "MemAvailable") / 1024.0;
    sample.processRssMb = readProcKb("/proc/self/status", "VmRSS") / 1024.0;
    sample.gpus = m_impl->gpus.sampleAll();
    return sample;
}

} // namespace osprey::system
