#include "model/cpu_kernels.h"

#include <cstdlib>
#include <string_view>

namespace osprey::model {

KernelSwitch kernelSwitch(const char* value) {
    if (value == nullptr)
        return KernelSwitch::Auto;
    const std::string_view text(value);
    if (text == "0" || text == "off" || text == "false" || text == "no")
        return KernelSwitch::Off;
    if (text == "1" || text == "on" || text == "true" || text == "yes")
        return KernelSwitch::On;
    return KernelSwitch::Auto;
}

bool cpuHasAvx2AndFma() {
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

bool cpuHasAvx512() {
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f");
#else
    return false;
#endif
}

bool avx2KernelEnabled(const char* variable) {
    switch (kernelSwitch(std::getenv(variable))) {
    case KernelSwitch::Off:
        return false;
    case KernelSwitch::On:
        return cpuHasAvx2AndFma();
    case KernelSwitch::Auto:
        break;
    }
    return cpuHasAvx2AndFma() && !cpuHasAvx512();
}

} // namespace osprey::model
