#pragma once
// The benchmarks' timing of one operation: the median of repeated runs after one warm-up run.

#include <algorithm>
#include <chrono>
#include <vector>

namespace osprey::bench {

template <typename F> double medianMs(int repeats, F&& f) {
    f();
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        times.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

} // namespace osprey::bench
