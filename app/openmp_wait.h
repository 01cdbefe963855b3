#pragma once
// How OpenMP threads (torch and oneDNN use libgomp) wait for each other between parallel steps. libgomp's
// default spins a while, then sleeps: fastest on an idle machine, and ruinous on a busy one (with one of
// two cores taken by another process, yolo26n's training step fell to 0.35x of idle, against 0.5x with
// passive waits). Passive waits cost 25-30 % on an idle machine (yolo26n training, 2 threads:
// tests/bench/train/bench_network_step; docs/threads.md). libgomp reads OMP_WAIT_POLICY once, when it is
// loaded before main, so a program that wants passive waits starts itself again with it set.
//
// The choice, unless the user set OMP_WAIT_POLICY: passive when other programs keep at least half a core
// busy while the program starts (CPU time in /proc/stat over kLoadWindow), libgomp's default otherwise.
// OSPREY_OPENMP_WAIT records the choice and why, for the log and for the processes the program starts
// (data-parallel ranks), which keep it.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#if defined(__linux__)
#include <unistd.h>
#endif

namespace osprey::app {

inline constexpr auto kLoadWindow = std::chrono::milliseconds(200);
/// Cores' worth of CPU time other programs may take before waits turn passive.
inline constexpr double kBusyCoresForPassive = 0.5;

/// Busy and total jiffies of the aggregate "cpu" line of /proc/stat (iowait counts as idle).
struct CpuJiffies {
    unsigned long long busy = 0, total = 0;
};

inline std::optional<CpuJiffies> parseProcStat(const std::string& text) {
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream fields(line);
        std::string name;
        fields >> name;
        if (name != "cpu")
            continue;
        // user nice system idle iowait irq softirq steal (guest times are inside user and nice)
        unsigned long long value[8] = {};
        int read = 0;
        while (read < 8 && fields >> value[read])
            ++read;
        if (read < 5)
            return std::nullopt;
        CpuJiffies jiffies;
        for (int i = 0; i < read; ++i)
            jiffies.total += value[i];
        jiffies.busy = jiffies.total - value[3] - value[4];
        return jiffies;
    }
    return std::nullopt;
}

/// Cores' worth of CPU time used between two /proc/stat readings, out of `cores`.
inline double busyCores(const CpuJiffies& before, const CpuJiffies& after, unsigned cores) {
    if (after.total <= before.total || after.busy < before.busy)
        return 0;
    return static_cast<double>(after.busy - before.busy) / static_cast<double>(after.total - before.total) *
           cores;
}

inline std::optional<CpuJiffies> readProcStat() {
    std::ifstream file("/proc/stat");
    if (!file)
        return std::nullopt;
    std::stringstream text;
    text << file.rdbuf();
    return parseProcStat(text.str());
}

/// Cores' worth of CPU time the machine used over `window` (this process sleeps through it), or nothing
/// where /proc/stat cannot be read.
inline std::optional<double> measureBusyCores(std::chrono::milliseconds window) {
    const auto before = readProcStat();
    std::this_thread::sleep_for(window);
    const auto after = readProcStat();
    if (!before || !after)
        return std::nullopt;
    return busyCores(*before, *after, std::max(1u, std::thread::hardware_concurrency()));
}

/// Chooses the wait policy as described above; re-executes the program when it chooses passive waits.
/// Returns when the default stays, the user's or a parent's choice stands, or the exec failed.
inline void chooseOpenMpWait(char** argv) {
#if defined(__linux__)
    if (const char* policy = std::getenv("OMP_WAIT_POLICY")) {
        if (std::getenv("OSPREY_OPENMP_WAIT") == nullptr)
            ::setenv("OSPREY_OPENMP_WAIT", ("OMP_WAIT_POLICY=" + std::string(policy) + ", as set").c_str(),
                     1);
        return;
    }
    if (std::getenv("OSPREY_OPENMP_WAIT") != nullptr)
        return;
    const auto busy = measureBusyCores(kLoadWindow);
    char reason[160];
    if (!busy || *busy < kBusyCoresForPassive) {
        if (busy)
            std::snprintf(reason, sizeof reason,
                          "libgomp's default (spin, then sleep): %.1f cores busy at start", *busy);
        else
            std::snprintf(reason, sizeof reason,
                          "libgomp's default (spin, then sleep): /proc/stat unreadable");
        ::setenv("OSPREY_OPENMP_WAIT", reason, 1);
        return;
    }
    std::snprintf(reason, sizeof reason, "passive: %.1f cores busy at start", *busy);
    ::setenv("OSPREY_OPENMP_WAIT", reason, 1);
    ::setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
    ::execv("/proc/self/exe", argv);
#else
    (void)argv;
#endif
}

} // namespace osprey::app
