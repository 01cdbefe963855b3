#pragma once
// What Osprey's own CPU training kernels (conv_weight_grad.cpp, winograd_conv.cpp, batch_norm_silu.cpp)
// share: the CPU's features and how their environment switches read.

namespace osprey::model {

/// How a kernel's switch variable reads: 0, off, false or no: Off; 1, on, true or yes: On; unset or
/// anything else: Auto.
enum class KernelSwitch { Off, On, Auto };
KernelSwitch kernelSwitch(const char* value);

/// x86-64 with AVX2 and FMA.
bool cpuHasAvx2AndFma();
/// x86-64 with AVX-512 (F).
bool cpuHasAvx512();

/// An AVX2 training kernel's rule, `variable` read now: Off: never; On: wherever the CPU has AVX2 and FMA;
/// Auto: where it has AVX2 and FMA but no AVX-512 (where they beat oneDNN's; with AVX-512 oneDNN's own
/// kernels are faster: these ran a yolov8n step's 3x3 layers at 0.71-0.86x of them on an Intel Xeon).
bool avx2KernelEnabled(const char* variable);

} // namespace osprey::model
