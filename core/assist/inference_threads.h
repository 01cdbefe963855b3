#pragma once
// Compute threads for inference, process-wide: LibTorch's (model::setComputeThreads, which also pins the
// OpenBLAS pool Debian's LibTorch calls to one thread, so that "one thread" means one core) and OpenCV's
// (DNN) together. Call it at startup or between runs, not while inference runs.

namespace osprey::assist {

/// Sets the threads each inference call may use; values below 1 are ignored.
void setInferenceThreads(int threads);

/// Whether the loaded BLAS is OpenBLAS (its thread count can be set).
bool openBlasLoaded();

} // namespace osprey::assist
