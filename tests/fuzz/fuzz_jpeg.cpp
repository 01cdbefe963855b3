// libFuzzer entry for fuzz::jpeg (fuzz_targets.h): decodeJpeg against libjpeg-turbo's own decoder.
#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    osprey::fuzz::jpeg(data, size);
    return 0;
}
