#pragma once
// What the CPU computes natively, read once from CPUID (x86-64; other CPUs report none). The trainer
// uses it to decide bf16 autocast on the CPU. No torch, no Qt. Thread-safe.

#include <string>

namespace osprey::system {

/// True when the CPU has bfloat16 instructions for matrix products: AVX512-BF16 or AMX-BF16.
bool cpuComputesBFloat16();

/// Those instructions by name for messages, e.g. "AMX-BF16, AVX512-BF16"; empty when none.
std::string cpuBFloat16Instructions();

} // namespace osprey::system
