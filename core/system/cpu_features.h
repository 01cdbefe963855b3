#pragma once
// What the CPU computes natively, read once from CPUID (x86-64; other CPUs report none). The trainer
// uses it to decide bf16 autocast on the CPU (cpuBFloat16IsFast). No torch, no Qt. Thread-safe.

#include <string>

namespace osprey::system {

/// True when the CPU has bfloat16 instructions for matrix products: AVX512-BF16 or AMX-BF16.
bool cpuComputesBFloat16();

/// True when bf16 autocast trains faster than float32 on this CPU with LibTorch 2.x: AMX-BF16 (Intel's
/// matrix tiles), or AVX512-BF16 on an AMD CPU (Zen 4 and later). On Intel, AVX512-BF16 without AMX (a VM
/// that hides AMX, or Cooper Lake) measured 0.84x float32 per training step (docs/threads.md).
bool cpuBFloat16IsFast();

/// Those instructions by name for messages, e.g. "AMX-BF16, AVX512-BF16"; empty when none.
std::string cpuBFloat16Instructions();

} // namespace osprey::system
