#include "system/cpu_features.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <cstring>

namespace osprey::system {

namespace {

struct Bf16Features {
    bool amx = false;    ///< CPUID.(EAX=7, ECX=0):EDX bit 22, AMX-BF16
    bool avx512 = false; ///< CPUID.(EAX=7, ECX=1):EAX bit 5, AVX512-BF16
    bool amd = false;    ///< CPUID.(EAX=0): the vendor string "AuthenticAMD"
};

Bf16Features readFeatures() {
    Bf16Features features;
#if defined(__x86_64__) || defined(__i386__)
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (__get_cpuid(0, &eax, &ebx, &ecx, &edx)) {
        char vendor[13] = {};
        std::memcpy(vendor, &ebx, 4);
        std::memcpy(vendor + 4, &edx, 4);
        std::memcpy(vendor + 8, &ecx, 4);
        features.amd = std::strcmp(vendor, "AuthenticAMD") == 0;
    }
    if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) {
        features.amx = (edx >> 22) & 1u;
        const unsigned maxSubleaf = eax;
        if (maxSubleaf >= 1 && __get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx))
            features.avx512 = (eax >> 5) & 1u;
    }
#endif
    return features;
}

const Bf16Features& features() {
    static const Bf16Features once = readFeatures();
    return once;
}

} // namespace

bool cpuComputesBFloat16() {
    return features().amx || features().avx512;
}

bool cpuBFloat16IsFast() {
    return features().amx || (features().avx512 && features().amd);
}

std::string cpuBFloat16Instructions() {
    std::string names;
    if (features().amx)
        names = "AMX-BF16";
    if (features().avx512)
        names += names.empty() ? "AVX512-BF16" : ", AVX512-BF16";
    return names;
}

} // namespace osprey::system
