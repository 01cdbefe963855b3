#include "assist/inference_threads.h"

#include "model/predictor.h"

#include <opencv2/core/utility.hpp>

#include <dlfcn.h>

namespace osprey::assist {
namespace {

using SetThreads = void (*)(int);

// Looked up at run time: the symbol exists only when the BLAS that LibTorch loaded is OpenBLAS.
SetThreads openBlasSetThreads() {
    return reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
}

} // namespace

void setInferenceThreads(int threads) {
    if (threads < 1)
        return;
    model::setComputeThreads(threads);
    if (const auto set = openBlasSetThreads())
        set(1);
    cv::setNumThreads(threads);
}

bool openBlasLoaded() {
    return openBlasSetThreads() != nullptr;
}

} // namespace osprey::assist
