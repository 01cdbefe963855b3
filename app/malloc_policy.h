#pragma once
// glibc's malloc serves every block above its mmap threshold (128 KiB, rising to at most 32 MiB) with a
// fresh mmap, returns it to the kernel when freed, and trims the heap's top above 128 KiB. A training step
// allocates and frees the same large activation and gradient tensors every iteration (yolo26n at 320,
// batch 16: dozens of 5-100 MB tensors), so each step faulted in and zeroed its memory again: 640,000
// page faults and a fifth of the CPU time in the kernel over 5 steps. keepFreedMemory() makes malloc take
// all memory from the heap and keep what is freed for the next allocation, so a steady training loop
// reuses its pages: the network's step 20-30 % faster (tests/bench/train/bench_network_step;
// docs/threads.md). The price: the process keeps its peak memory until it exits, which a training run reaches
// anyway.

#include <cstdlib> // defines __GLIBC__ under glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace osprey::app {

inline constexpr int kMallocTopPadBytes = 64 << 20;       ///< heap growth per brk call
inline constexpr int kMallocTrimThresholdBytes = 1 << 30; ///< free heap top kept before trimming

/// Process-wide; call before the work allocates. Returns false where the C library is not glibc.
inline bool keepFreedMemory() {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_MAX, 0) == 1 && mallopt(M_TRIM_THRESHOLD, kMallocTrimThresholdBytes) == 1 &&
           mallopt(M_TOP_PAD, kMallocTopPadBytes) == 1;
#else
    return false;
#endif
}

} // namespace osprey::app
