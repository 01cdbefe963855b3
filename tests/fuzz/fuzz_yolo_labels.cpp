// libFuzzer entry for fuzz::yoloLabels (fuzz_targets.h).
#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    osprey::fuzz::yoloLabels(data, size);
    return 0;
}
