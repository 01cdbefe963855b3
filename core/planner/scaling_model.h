#pragma once
// The scaling model: how long one training image takes on a catalogue GPU, and how much memory a batch
// needs. Roofline-style, with two fitted constants:
//
//   seconds per image = F / (P x e)  +  k x A / B
//
// F: training FLOPs of one image (3 x the forward GFLOPs at imgsz); P: the GPU's dense BF16 tensor
// TFLOP/s (training runs under AMP); A: the activation bytes of one image (activationGbPerImage); B: the
// memory bandwidth. e (the share of peak compute achieved) and k (how many times the activations cross
// memory per step) are fitted by least squares, in relative error, to the catalogue's published reference
// timings and to the user's measured GPU points (weighted 4x). Limits: one image is one 1/batch share
// of a step (no batch-size effect on speed beyond VRAM), the data pipeline is assumed to keep up, and
// start-up, validation NMS and checkpointing on the GPU are inside the fitted constants, not modelled.
// Thread-safe pure functions.

#include "planner/gpu_catalogue.h"
#include "planner/measurements.h"
#include "planner/workload.h"

#include <vector>

namespace osprey::planner {

/// Validation images cost this share of a training image (forward only, no backward or step).
inline constexpr double kValidationShare = 1.0 / 3.0;
/// Usable share of a GPU's memory (the rest: allocator fragmentation and headroom).
inline constexpr double kUsableVramShare = 0.9;

struct ScalingFit {
    double computeEfficiency = 0.2;  ///< e: achieved share of the dense BF16 peak
    double memoryTrafficFactor = 30; ///< k
    double relativeError = 0.3;      ///< root-mean-square relative residual of the fit
    int points = 0;                  ///< points fitted
};

/// One timing the fit uses: `secondsPerImage` of `workload` on `gpu`.
struct TimingPoint {
    GpuSpec gpu;
    Workload workload;
    double secondsPerImage = 0;
    double weight = 1;
};

/// Activation memory of one training image under AMP, in GB: 0.14 x (GFLOPs640 / 8.9)^0.535 x
/// (imgsz / 640)^2, an estimate fitted to Ultralytics' printed GPU memory at batch 16 and imgsz 640
/// (yolov8n about 2.6 GB, yolov8m 7.7 GB, yolov8x 15 GB). Grows with imgsz and model size.
double activationGbPerImage(const Workload& workload);
/// Memory that does not grow with the batch, in GB: 20 bytes per parameter (weights, gradients, two
/// optimiser moments, EMA) plus 0.6 GB of CUDA context and workspace.
double fixedMemoryGb(const Workload& workload);

/// The VRAM a batch needs and the largest batch that fits a GPU.
struct VramFit {
    double neededGb = 0; ///< at workload.batch
    int maxBatch = 0;    ///< largest batch with needed <= kUsableVramShare x VRAM (0: not even one image)
    bool fits = false;   ///< workload.batch <= maxBatch
};
/// `activationGb` > 0 replaces the estimate (a measured point).
VramFit fitVram(const GpuSpec& gpu, const Workload& workload, double activationGb = 0);

/// The modelled seconds per training image on `gpu`.
double modelSecondsPerImage(const GpuSpec& gpu, const Workload& workload, const ScalingFit& fit);

/// Least-squares fit of e and k to `points` (relative error). With fewer than two independent points, or
/// a fit that would make a constant negative, e alone is fitted (k keeps its default share).
ScalingFit fitScaling(const std::vector<TimingPoint>& points);

/// The catalogue's reference points as timing points (80 % of the images taken as training images and
/// 20 % as validation at kValidationShare). Points naming an unknown GPU or model are skipped.
std::vector<TimingPoint> referenceTimings(const Catalogue& catalogue);

/// The catalogue GPU a device name denotes ("NVIDIA GeForce RTX 4090" -> "RTX 4090"), or null.
const GpuSpec* gpuForDevice(const Catalogue& catalogue, const std::string& device);

} // namespace osprey::planner
