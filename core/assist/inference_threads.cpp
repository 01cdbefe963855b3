#include "assist/inference_threads.h"

#include "model/predictor.h"

#include <opencv2/core/utility.hpp>

namespace osprey::assist {

void setInferenceThreads(int threads) {
    if (threads < 1)
        return;
    model::setComputeThreads(threads); // torch, and OpenBLAS pinned to one
    cv::setNumThreads(threads);
}

bool openBlasLoaded() {
    return model::openBlasLoaded();
}

} // namespace osprey::assist
