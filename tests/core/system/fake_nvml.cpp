// A stand-in for the NVIDIA driver's libnvidia-ml.so.1: the few NVML functions core/system calls, with
// two fixed GPUs, so that GpuMonitor, the trainer's telemetry and the GUI's device list are tested on a
// machine without a GPU. Built twice: as a working driver and (FAKE_NVML_BROKEN) as one whose
// nvmlInit_v2 fails the way a driver/library version mismatch does.

#include <cstring>

namespace {

struct FakeGpu {
    const char* name;
    unsigned long long totalMiB, usedMiB;
    unsigned int util, temperature, powerMw;
};

const FakeGpu kGpus[] = {{"NVIDIA H200", 143771, 1024, 37, 45, 123456},
                         {"NVIDIA GeForce RTX 4090", 24564, 20480, 99, 70, 350000}};
constexpr unsigned int kCount = sizeof kGpus / sizeof kGpus[0];
int g_initialised = 0;

struct Memory {
    unsigned long long total, free, used;
};
struct Utilization {
    unsigned int gpu, memory;
};

constexpr int kSuccess = 0, kInvalidArgument = 2, kUninitialized = 1, kDriverNotLoaded = 9;

const FakeGpu* gpu(void* device) {
    return static_cast<const FakeGpu*>(device);
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) int nvmlInit_v2() {
#ifdef FAKE_NVML_BROKEN
    return kDriverNotLoaded;
#else
    ++g_initialised;
    return kSuccess;
#endif
}

__attribute__((visibility("default"))) int nvmlShutdown() {
    if (g_initialised == 0)
        return kUninitialized;
    --g_initialised;
    return kSuccess;
}

/// Not NVML: lets a test check that every nvmlInit_v2 was matched by nvmlShutdown.
__attribute__((visibility("default"))) int fakeNvmlInitialisations() {
    return g_initialised;
}

__attribute__((visibility("default"))) int nvmlDeviceGetCount_v2(unsigned int* count) {
    if (g_initialised == 0)
        return kUninitialized;
    *count = kCount;
    return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetHandleByIndex_v2(unsigned int index, void** device) {
    if (index >= kCount)
        return kInvalidArgument;
    *device = const_cast<FakeGpu*>(&kGpus[index]);
    return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetName(void* device, char* name, unsigned int length) {
    std::strncpy(name, gpu(device)->name, length);
    return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetMemoryInfo(void* device, Memory* memory) {
    memory->total = gpu(device)->totalMiB * 1024 * 1024;
    memory->used = gpu(device)->usedMiB * 1024 * 1024;
    memory->free = memory->total - memory->used;
    return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetUtilizationRates(void* device, Utilization* util) {
    util->gpu = gpu(device)->util;
    util->memory = 0;
    return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetTemperature(void* device, int sensor,
                                                                    unsigned int* celsius) {
    if (sensor != 0)
        return kInvalidArgument;
    *celsius = gpu(device)->temperature;
    return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetPowerUsage(void* device, unsigned int* milliwatts) {
    *milliwatts = gpu(device)->powerMw;
    return kSuccess;
}

} // extern "C"
