#pragma once
// OpenMP threads (torch and oneDNN use libgomp) spin while they wait for each other. That is fastest on
// an idle machine and ruinous on a busy one: with one of two cores taken by another process, yolov8n
// training at 2 threads fell from 8.5 to 2.6 images/s, and stayed at 8.5 with passive waiting
// (tests/bench/train; docs/threads.md). libgomp reads OMP_WAIT_POLICY once, when it is loaded before
// main, so a program that wants the policy starts itself again with it set, unless the user chose one.

#include <cstdlib>

#if defined(__linux__)
#include <unistd.h>
#endif

namespace osprey::app {

/// Re-executes the program with OMP_WAIT_POLICY=PASSIVE when the variable is unset (Linux); returns
/// only when it is set already or the exec failed (then the default policy stays).
inline void ensurePassiveOpenMpWait(char** argv) {
#if defined(__linux__)
    if (std::getenv("OMP_WAIT_POLICY") != nullptr)
        return;
    ::setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
    ::execv("/proc/self/exe", argv);
#else
    (void)argv;
#endif
}

} // namespace osprey::app
