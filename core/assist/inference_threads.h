#pragma once
// Compute threads for inference, process-wide. LibTorch's intra-op setting (model::setComputeThreads)
// does not reach the OpenBLAS pool that Debian's LibTorch calls for its matrix products: OpenBLAS keeps
// its own pool, sized to all cores, so "one thread" inference still keeps two cores busy and two
// single-threaded workers oversubscribe the machine. This sets LibTorch, OpenBLAS (when it is the BLAS
// loaded) and OpenCV (DNN) together. Call it at startup or between runs, not while inference runs.

namespace osprey::assist {

/// Sets the threads each inference call may use; values below 1 are ignored.
void setInferenceThreads(int threads);

/// Whether the loaded BLAS is OpenBLAS (its thread count can be set).
bool openBlasLoaded();

} // namespace osprey::assist
