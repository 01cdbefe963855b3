#pragma once
// The one place where Osprey meets the differences between LibTorch versions (Debian's 1.13, pip's 2.x)
// and between CPU-only and CUDA builds: autocast, the CUDA caching allocator's statistics, out-of-memory
// errors, cuDNN settings and the bf16 capability. Code in core/model and core/train calls these
// functions; TORCH_VERSION_* is read nowhere else. Thread-safe as the LibTorch calls beneath them.

#include <ATen/autocast_mode.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <c10/util/Exception.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <cstdint>
#include <exception>
#include <optional>
#include <string>

#define OSPREY_TORCH_AT_LEAST(major, minor)                                                                  \
    (TORCH_VERSION_MAJOR > (major) || (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))

#if OSPREY_TORCH_AT_LEAST(2, 9)
#include <ATen/DeviceAccelerator.h>
#include <c10/core/CachingDeviceAllocator.h>
#endif

namespace osprey::model::compat {

/// "2.15.0", "1.13.0": the LibTorch this binary was compiled against.
inline std::string torchVersion() {
    return TORCH_VERSION;
}

/// The LibTorch linked in has its CUDA part (whether or not a GPU is visible now).
inline bool buildHasCuda() {
    return c10::impl::hasDeviceGuardImpl(c10::DeviceType::CUDA);
}

/// GPUs the CUDA runtime sees (0 without CUDA).
inline int cudaDeviceCount() {
    return buildHasCuda() ? static_cast<int>(torch::cuda::device_count()) : 0;
}

/// Switches autocast on or off for one device type with the given lower precision.
inline void setAutocast(c10::DeviceType device, bool enabled, at::ScalarType dtype) {
#if OSPREY_TORCH_AT_LEAST(2, 4)
    at::autocast::set_autocast_dtype(device, dtype);
    at::autocast::set_autocast_enabled(device, enabled);
#else
    if (device == c10::DeviceType::CUDA) {
        at::autocast::set_autocast_gpu_dtype(dtype);
        at::autocast::set_enabled(enabled);
    } else {
        at::autocast::set_autocast_cpu_dtype(dtype);
        at::autocast::set_cpu_enabled(enabled);
    }
#endif
}

/// Autocast is on for the CPU in this thread.
inline bool cpuAutocastEnabled() {
#if OSPREY_TORCH_AT_LEAST(2, 4)
    return at::autocast::is_autocast_enabled(c10::DeviceType::CPU);
#else
    return at::autocast::is_cpu_enabled();
#endif
}

/// Autocast for one scope (the forward pass); the cast cache is cleared on leaving it, as Python's
/// torch.autocast does. `enabled` false makes it a no-op.
class AutocastScope {
public:
    AutocastScope(c10::DeviceType device, at::ScalarType dtype, bool enabled)
        : m_device(device), m_dtype(dtype), m_enabled(enabled) {
        if (m_enabled)
            setAutocast(m_device, true, m_dtype);
    }
    ~AutocastScope() {
        if (!m_enabled)
            return;
        setAutocast(m_device, false, m_dtype);
        at::autocast::clear_cache();
    }
    AutocastScope(const AutocastScope&) = delete;
    AutocastScope& operator=(const AutocastScope&) = delete;

private:
    c10::DeviceType m_device;
    at::ScalarType m_dtype;
    bool m_enabled;
};

/// The GPU computes bfloat16 convolutions (compute capability 8.0 and newer: Ampere, Hopper, ...).
inline bool cudaSupportsBFloat16(int deviceIndex) {
    if (deviceIndex < 0 || deviceIndex >= cudaDeviceCount())
        return false;
    c10::DeviceGuard guard(c10::Device(c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(deviceIndex)));
    return at::detail::getCUDAHooks().supportsBFloat16ConvolutionWithCuDNNv8();
}

/// LibTorch's CPU kernels train faster in bfloat16 than in float32 on a CPU with AMX or AVX512-BF16.
/// Measured with yolov8n at 320 (forward + backward + step, bench_train modes), bf16 + channels-last
/// against float32 channels-last: on an Intel CPU with AMX, LibTorch 2.15 about 2x at 1 thread and
/// Debian's 1.13 0.3-0.65x; on an AMD EPYC with AVX512-BF16 (no AMX), 2.15 1.47-1.59x and 1.13
/// 1.05-1.08x. 1.13 therefore trains in float32. Versions between were not measured: 2.0 is the line.
inline constexpr bool cpuBFloat16KernelsAreFast() {
    return OSPREY_TORCH_AT_LEAST(2, 0);
}

/// cuDNN picks the fastest convolution algorithms for the input sizes seen (fixed imgsz in training).
inline void setCudnnBenchmark(bool enabled) {
    at::globalContext().setBenchmarkCuDNN(enabled);
}

/// TF32 tensor cores for float32 convolutions and matrix products on CUDA (torch's default allows them in
/// cuDNN only); off makes a GPU forward comparable to the CPU's to about 1e-5.
inline void setCudaTf32(bool enabled) {
    at::globalContext().setAllowTF32CuDNN(enabled);
    at::globalContext().setAllowTF32CuBLAS(enabled);
}

/// The error is the CUDA caching allocator's (or a driver's) out-of-memory error.
inline bool isOutOfMemory(const std::exception& error) {
    if (dynamic_cast<const c10::OutOfMemoryError*>(&error))
        return true;
    const std::string text = error.what();
    return text.find("out of memory") != std::string::npos ||
           text.find("CUDNN_STATUS_ALLOC_FAILED") != std::string::npos;
}

/// Device memory as the CUDA runtime reports it, in bytes.
struct DeviceMemory {
    std::int64_t freeBytes = 0;
    std::int64_t totalBytes = 0;
};

/// The caching allocator's statistics and controls for one CUDA device. They need LibTorch 2.9 or newer
/// (its device-allocator interface); older ones and CPU-only builds report nothing (nullopt / no-op).
inline bool cudaMemoryStatsAvailable(int deviceIndex) {
#if OSPREY_TORCH_AT_LEAST(2, 9)
    return deviceIndex >= 0 && deviceIndex < cudaDeviceCount();
#else
    (void)deviceIndex;
    return false;
#endif
}

inline std::optional<DeviceMemory> cudaMemoryInfo(int deviceIndex) {
#if OSPREY_TORCH_AT_LEAST(2, 9)
    if (!cudaMemoryStatsAvailable(deviceIndex))
        return std::nullopt;
    const auto [free, total] = c10::getDeviceAllocator(c10::DeviceType::CUDA)
                                   ->getMemoryInfo(static_cast<c10::DeviceIndex>(deviceIndex));
    return DeviceMemory{static_cast<std::int64_t>(free), static_cast<std::int64_t>(total)};
#else
    (void)deviceIndex;
    return std::nullopt;
#endif
}

/// Peak bytes since the last resetCudaPeak: held by tensors, and reserved by the caching allocator
/// (tensors plus its cached blocks and fragmentation: what the device really had to give).
struct PeakMemory {
    std::int64_t allocatedBytes = 0;
    std::int64_t reservedBytes = 0;
};

inline std::optional<PeakMemory> cudaPeakMemory(int deviceIndex) {
#if OSPREY_TORCH_AT_LEAST(2, 9)
    if (!cudaMemoryStatsAvailable(deviceIndex))
        return std::nullopt;
    const auto stats = c10::getDeviceAllocator(c10::DeviceType::CUDA)
                           ->getDeviceStats(static_cast<c10::DeviceIndex>(deviceIndex));
    const auto aggregate = static_cast<size_t>(c10::CachingAllocator::StatType::AGGREGATE);
    return PeakMemory{stats.allocated_bytes[aggregate].peak, stats.reserved_bytes[aggregate].peak};
#else
    (void)deviceIndex;
    return std::nullopt;
#endif
}

inline void resetCudaPeak(int deviceIndex) {
#if OSPREY_TORCH_AT_LEAST(2, 9)
    if (cudaMemoryStatsAvailable(deviceIndex))
        c10::getDeviceAllocator(c10::DeviceType::CUDA)
            ->resetPeakStats(static_cast<c10::DeviceIndex>(deviceIndex));
#else
    (void)deviceIndex;
#endif
}

/// Returns the allocator's cached, unused blocks to the driver (after an out-of-memory error).
inline void emptyCudaCache() {
#if OSPREY_TORCH_AT_LEAST(2, 9)
    if (cudaDeviceCount() > 0)
        c10::getDeviceAllocator(c10::DeviceType::CUDA)->emptyCache();
#endif
}

} // namespace osprey::model::compat
