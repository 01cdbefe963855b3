// libFuzzer entry for fuzz::events (fuzz_targets.h).
#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    osprey::fuzz::events(data, size);
    return 0;
}
