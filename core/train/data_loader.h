#pragma once
// The data pipeline: a BatchSource over project samples. Worker threads decode, augment and assemble
// whole batches ahead of the trainer (a bounded prefetch queue), so the order and content of every
// batch depend only on the seed, the epoch and the batch index, never on thread timing. No torch or
// OpenCV in this header.
//
// Thread affinity: the BatchSource calls come from one thread (the trainer's); the loader owns its
// workers and joins them on startEpoch() and in the destructor. The warning callback is called from
// worker threads.

#include "run/train_config.h"
#include "train/batch_source.h"
#include "train/train_dataset.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace osprey::train {

/// Whether a loader augments (training) or only letterboxes (validation, in rectangular batches:
/// valBatchShape; images keep their order).
enum class LoaderMode { Train, Val };

struct LoaderOptions {
    LoaderMode mode = LoaderMode::Train;
    int imgsz = 640;
    int batch = 16;
    int workers = 2;  ///< 0 = build batches on the calling thread
    int prefetch = 4; ///< batches built ahead of the consumer
    std::uint64_t seed = 0;
    double mosaic = 1.0;
    double translate = 0.1, scale = 0.5, fliplr = 0.5;
    double hsvH = 0.015, hsvS = 0.7, hsvV = 0.4;
    /// Where mosaic draws its other three tiles from, as Ultralytics' buffer of recent images: uniformly
    /// (with replacement) from the `recentImages` images of the seeded image stream ending at the tile's
    /// own image (itself included), the stream being the epoch orders one after another (so the first
    /// images of an epoch draw from the end of the previous epoch's order). -1: min(images, 8 * batch *
    /// worldSize, 1000), Ultralytics' length; 0: uniformly from the whole dataset. Either way every tile is
    /// a function of (seed, epoch, position) alone; the recent images are decoded once and kept (about
    /// imgsz^2 * 3 bytes each; a JPEG up to 1.5 times imgsz on its long side at its decoded size, up to
    /// 2.25 times that, its resize left to the mosaic's warp) while they can still be drawn.
    int recentImages = -1;
    /// Keep every decoded, resized training image in RAM (Ultralytics' cache=ram): after the first epoch
    /// nothing is decoded. Memory: about imgsz^2 * 3 bytes per image at most (imgsz^2 * 2.25 for 4:3
    /// images), e.g. 0.9 GB per 1,000 images at 640; ramCacheBytes() says it for a dataset. Its images are
    /// resized when cached, also those whose resize is otherwise left to the warp (kDeferredResizeRatio):
    /// for those the mosaics differ from an uncached run's by an interpolation; every other byte is the same.
    bool cacheAll = false;
    /// Data parallel (the distributed sampler): batch k of the epoch holds images [k*B, (k+1)*B) of the
    /// seeded epoch order, B = batch * worldSize, and this loader delivers rank's share of them, so the
    /// ranks together see what one process with batch B sees, image for image and augmentation for
    /// augmentation. A short last batch is split evenly; when it has fewer images than ranks, a rank
    /// without one repeats one (as DistributedSampler pads).
    int rank = 0;
    int worldSize = 1;

    /// The augmentation settings of a training config (mode Train, batch and workers included; workers=-1
    /// resolved by autoLoaderWorkers).
    static LoaderOptions fromConfig(const run::TrainConfig& config, LoaderMode mode);
};

/// The size a val batch is letterboxed to, as Ultralytics' rectangular val batches (rect=True, pad 0.5):
/// from the smallest and largest height/width ratio of the batch's images, the long side imgsz and the
/// short side scaled by the ratio, each rounded up to a multiple of 32 after adding half a stride. A batch
/// of square 320-px images is letterboxed to 352 x 352. `sizes`: each image's original (width, height).
struct BatchShape {
    int width = 0, height = 0;
};
BatchShape valBatchShape(const std::vector<std::pair<int, int>>& sizes, int imgsz);

/// The loader threads of `workers=-1` (auto) for a run on `device` on a machine with `cpus` cores: for a
/// GPU the cores minus one, at most 8 (the GPU outruns decoding); on the CPU one per four cores, at least
/// one, since the same cores also train (the pipeline needs a small share of them there).
int autoLoaderWorkers(const std::string& device, int cpus);

/// A training JPEG decoded (at its DCT scale) with its long side up to this many times imgsz is kept at that
/// size, its resize left to the mosaic's warp (deferResizeLongSide): a 960x720 image at imgsz 640 saves
/// the resize's 0.7 ms on a Zen 2 core. Larger decodes, and every image under cacheAll, are resized at
/// once, so that a recent image holds at most 1.5^2 = 2.25 times the resized image's bytes.
inline constexpr double kDeferredResizeRatio = 1.5;
/// Whether a training JPEG decoded with this long side keeps its decode (kDeferredResizeRatio).
inline bool resizeLeftToWarp(int decodedLongSide, int imgsz) {
    return decodedLongSide <= kDeferredResizeRatio * imgsz;
}

/// The bytes cacheAll would hold for `samples` at `imgsz`, from their headers (no decoding).
std::uint64_t ramCacheBytes(const std::vector<Sample>& samples, int imgsz);

class DataLoader : public BatchSource {
public:
    using WarningCallback = std::function<void(const std::string&)>;

    DataLoader(std::vector<Sample> samples, LoaderOptions options, WarningCallback warn = {});
    ~DataLoader() override;

    int imageCount() const override;
    int batchesPerEpoch() const override;
    void startEpoch(const EpochPlan& plan) override;
    std::optional<HostBatch> next() override;

    /// Builds batch `index` of the current epoch directly (benchmarks and tests).
    HostBatch buildBatch(int index);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace osprey::train
