#pragma once
// The engine's view of data: batches of equally sized RGB images with their boxes, in host memory. The
// data pipeline (train_data) implements BatchSource over a project; tests and the GPU check implement it
// over synthetic images. No torch and no OpenCV.

#include <cstdint>
#include <optional>
#include <vector>

namespace osprey::train {

/// One object in a batch, xyxy in pixels of the batch's (letterboxed, augmented) images.
struct TargetBox {
    int imageIndex = 0; ///< index within the batch
    int classId = 0;
    float x1 = 0, y1 = 0, x2 = 0, y2 = 0;
};

/// A batch: `count` images of width x height, interleaved RGB uint8, image after image (HWC).
struct HostBatch {
    int count = 0;
    int width = 0, height = 0;
    std::vector<std::uint8_t> pixels;
    std::vector<TargetBox> boxes;
    double loadSeconds = 0; ///< time the workers spent producing it (for the timing split)
};

/// What one epoch of a source looks like.
struct EpochPlan {
    int epoch = 0;       ///< 0-based
    bool mosaic = true;  ///< training sources: use mosaic this epoch (close_mosaic switches it off)
    bool augment = true; ///< false for validation sources
};

/// A sequence of batches per epoch. Thread affinity: the engine calls it from the training thread only;
/// implementations may use worker threads internally.
class BatchSource {
public:
    virtual ~BatchSource() = default;
    /// Number of images (for the auto optimiser, the warmup and the events).
    virtual int imageCount() const = 0;
    /// Batches in one epoch.
    virtual int batchesPerEpoch() const = 0;
    /// Starts an epoch; the order of images is a function of the seed and the epoch only.
    virtual void startEpoch(const EpochPlan& plan) = 0;
    /// The next batch of the current epoch, or nullopt at its end.
    virtual std::optional<HostBatch> next() = 0;
};

} // namespace osprey::train
