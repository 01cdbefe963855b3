#include "assist/inference_threads.h"

#include "assist/box_predictor.h"
#include "model/predictor.h"

#include <opencv2/core/utility.hpp>

#include <algorithm>
#include <thread>

namespace osprey::assist {

int machineCores() {
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

int defaultInferenceWorkers(const BoxPredictor* predictor, const std::string& device) {
    const bool perCore = !predictor || predictor->kind() != ModelKind::Checkpoint || device == "cpu";
    return perCore ? std::min(machineCores(), 8) : 1;
}

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
