#pragma once
// The engine's view of data: batches of equally sized RGB images with their boxes, in host memory. The
// data pipeline (train_data) implements BatchSource over a project; tests and the GPU check implement it
// over synthetic images. No torch and no OpenCV.

#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <utility>
#include <vector>

namespace osprey::train {

/// std::allocator, except that a value-initialised element is default-initialised: a vector of bytes sized
/// with resize() is left unwritten instead of zeroed. For pixel buffers that are written whole right after
/// (a batch of 16 at 640 is 20 MB: a zero fill would be one more pass over it).
template <typename T> struct UninitializedAllocator : std::allocator<T> {
    template <typename U> struct rebind { using other = UninitializedAllocator<U>; };
    UninitializedAllocator() = default;
    template <typename U> UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
    template <typename U> void construct(U* at) noexcept { ::new (static_cast<void*>(at)) U; }
    template <typename U, typename... Args> void construct(U* at, Args&&... args) {
        ::new (static_cast<void*>(at)) U(std::forward<Args>(args)...);
    }
};

/// A batch's pixels: resize() leaves them unwritten.
using PixelBuffer = std::vector<std::uint8_t, UninitializedAllocator<std::uint8_t>>;

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
    PixelBuffer pixels;
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
