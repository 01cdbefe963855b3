// libFuzzer entry for fuzz::cocoJson (fuzz_targets.h).
#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    osprey::fuzz::cocoJson(data, size);
    return 0;
}
