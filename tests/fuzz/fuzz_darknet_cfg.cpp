// libFuzzer entry for fuzz::darknetCfg (fuzz_model_targets.h).
#include "fuzz_model_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    osprey::fuzz::darknetCfg(data, size);
    return 0;
}
