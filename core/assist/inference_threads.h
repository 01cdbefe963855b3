#pragma once
// Compute threads for inference, process-wide: LibTorch's (model::setComputeThreads, which also pins the
// OpenBLAS pool Debian's LibTorch calls to one thread, so that "one thread" means one core) and OpenCV's
// (DNN) together. Call it at startup or between runs, not while inference runs.

#include <string>

namespace osprey::assist {

class BoxPredictor;

/// The cores of this machine (at least 1).
int machineCores();

/// Images in flight at once by default: on the CPU one image per core (up to 8), each with one compute
/// thread, beats one image on all cores (bench_autolabel, bench_assist: 1.1-1.5x); a checkpoint on a GPU
/// (`device` other than "cpu") runs one image at a time. `predictor` may be null (no model: decode only).
int defaultInferenceWorkers(const BoxPredictor* predictor, const std::string& device);

/// Sets the threads each inference call may use; values below 1 are ignored.
void setInferenceThreads(int threads);

/// Whether the loaded BLAS is OpenBLAS (its thread count can be set).
bool openBlasLoaded();

} // namespace osprey::assist
