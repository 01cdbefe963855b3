// libFuzzer entry for fuzz::torchZip (fuzz_model_targets.h).
#include "fuzz_model_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    osprey::fuzz::torchZip(data, size);
    return 0;
}
