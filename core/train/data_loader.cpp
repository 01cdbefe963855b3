#include "train/data_loader.h"

#include "imaging/image.h"
#include "train/augment_impl.h"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <numeric>
#include <set>
#include <thread>
#include <unordered_map>

namespace osprey::train {

BatchShape valBatchShape(const std::vector<std::pair<int, int>>& sizes, int imgsz) {
    constexpr double kStride = 32, kPad = 0.5;
    double lowest = 1, highest = 1; // height / width
    for (size_t i = 0; i < sizes.size(); ++i) {
        const auto [width, height] = sizes[i];
        const double ratio = width > 0 && height > 0 ? static_cast<double>(height) / width : 1.0;
        lowest = i == 0 ? ratio : std::min(lowest, ratio);
        highest = i == 0 ? ratio : std::max(highest, ratio);
    }
    double h = 1, w = 1;
    if (highest < 1)
        h = highest; // all landscape: as high as the highest
    else if (lowest > 1)
        w = 1 / lowest; // all portrait: as wide as the widest
    const auto side = [&](double fraction) {
        return static_cast<int>(std::ceil(fraction * imgsz / kStride + kPad)) * static_cast<int>(kStride);
    };
    return {side(w), side(h)};
}

int autoLoaderWorkers(const std::string& device, int cpus) {
    const bool gpu = !device.empty() && device != "cpu";
    return gpu ? std::clamp(cpus - 1, 1, 8) : std::clamp(cpus / 4, 1, 4);
}

std::uint64_t ramCacheBytes(const std::vector<Sample>& samples, int imgsz) {
    std::uint64_t bytes = 0;
    for (const auto& sample : samples) {
        const auto size = imaging::readImageSize(sample.path);
        const double ratio = size ? static_cast<double>(imgsz) / std::max(size->width, size->height) : 1.0;
        bytes += size ? static_cast<std::uint64_t>(std::ceil(size->width * ratio)) *
                            static_cast<std::uint64_t>(std::ceil(size->height * ratio)) * 3
                      : static_cast<std::uint64_t>(imgsz) * static_cast<std::uint64_t>(imgsz) * 3;
    }
    return bytes;
}

LoaderOptions LoaderOptions::fromConfig(const run::TrainConfig& config, LoaderMode mode) {
    LoaderOptions options;
    options.mode = mode;
    options.imgsz = config.imgsz;
    options.batch = mode == LoaderMode::Train ? config.batch : config.batch * 2;
    options.workers =
        config.workers >= 0
            ? config.workers
            : autoLoaderWorkers(config.device,
                                static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
    options.seed = config.seed;
    options.mosaic = config.mosaic;
    options.translate = config.translate;
    options.scale = config.scale;
    options.fliplr = config.fliplr;
    options.hsvH = config.hsvH;
    options.hsvS = config.hsvS;
    options.hsvV = config.hsvV;
    options.cacheAll = mode == LoaderMode::Train && config.cacheRam;
    return options;
}

struct DataLoader::Impl {
    std::vector<Sample> samples;
    LoaderOptions options;
    WarningCallback warn;
    EpochPlan plan;
    std::vector<int> order;
    std::vector<int> previousOrder; // the previous epoch's order: the stream before position 0

    // Decoded, resized training images by sample index, shared by the workers. The content of an entry is
    // a function of the sample alone, so hits and misses (which depend on thread timing) change only the
    // speed, never a batch.
    struct CachedImage {
        std::shared_ptr<const LabeledImage> image;
        std::uint64_t lastUse = 0;
    };
    std::unordered_map<size_t, CachedImage> cache;
    std::uint64_t cacheClock = 0;

    std::mutex mutex;
    std::condition_variable produced, consumed;
    std::map<int, HostBatch> ready;
    int nextToBuild = 0, nextToDeliver = 0;
    bool cancel = false;
    std::vector<std::thread> workers;
    std::set<size_t> reported;

    size_t globalBatch() const {
        return static_cast<size_t>(options.batch) * static_cast<size_t>(options.worldSize);
    }

    int batches() const { return static_cast<int>((samples.size() + globalBatch() - 1) / globalBatch()); }

    // Positions in the epoch order of this rank's share of batch `index`.
    std::pair<size_t, size_t> share(int index) const {
        const size_t first = static_cast<size_t>(index) * globalBatch();
        const size_t total = std::min(samples.size(), first + globalBatch()) - first;
        const auto rank = static_cast<size_t>(options.rank), world = static_cast<size_t>(options.worldSize);
        if (total == globalBatch())
            return {first + rank * static_cast<size_t>(options.batch),
                    first + (rank + 1) * static_cast<size_t>(options.batch)};
        if (total >= world)
            return {first + rank * total / world, first + (rank + 1) * total / world};
        return {first + rank % total, first + rank % total + 1};
    }

    void stopWorkers() {
        {
            std::lock_guard lock(mutex);
            cancel = true;
        }
        consumed.notify_all();
        for (auto& worker : workers)
            worker.join();
        workers.clear();
    }

    // Decodes straight to an RGB Mat for training: a JPEG through imaging::decodeJpeg (libjpeg-turbo
    // directly, RGB out, into the Mat it keeps) at the smallest DCT scale (1/2, 1/4, 1/8) that keeps its
    // long side at least imgsz (the resize to imgsz then still shrinks, so no detail at imgsz is lost),
    // its resize left to the mosaic's warp up to kDeferredResizeRatio (data_loader.h), other formats
    // through cv::imread, resized before the BGR to RGB swap (the same pixels, fewer to swap). nullopt
    // sends the file to imaging::decodeImage (its checks and messages).
    std::optional<LabeledImage> decodeForTraining(const Sample& sample) {
        const auto size = imaging::readImageSize(sample.path);
        if (!size)
            return std::nullopt;
        auto extension = sample.path.extension().string();
        std::transform(extension.begin(), extension.end(), extension.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        const bool jpeg = extension == ".jpg" || extension == ".jpeg";
        LabeledImage image;
        if (jpeg) {
            const auto read = imaging::decodeJpeg(sample.path, options.imgsz, [&](int width, int height) {
                image.rgb.create(height, width, CV_8UC3);
                return image.rgb.data;
            });
            if (!read)
                return std::nullopt;
        } else {
            try {
                image.rgb = cv::imread(sample.path.string(), cv::IMREAD_COLOR);
            } catch (const cv::Exception&) {
                return std::nullopt;
            }
            if (image.rgb.empty() || image.rgb.type() != CV_8UC3)
                return std::nullopt;
        }
        const float sx = static_cast<float>(image.rgb.cols) / static_cast<float>(size->width),
                    sy = static_cast<float>(image.rgb.rows) / static_cast<float>(size->height);
        for (const auto& box : sample.boxes)
            image.boxes.push_back({box.classId, box.x1 * sx, box.y1 * sy, box.x2 * sx, box.y2 * sy});
        if (jpeg) {
            // The resize is left to the mosaic's warp where the decode is at most kDeferredResizeRatio
            // times imgsz on its long side (the DCT scale keeps it below 2x): it then holds at most
            // 2.25 times the resized image's bytes while it is recent.
            const bool defer = !options.cacheAll &&
                               resizeLeftToWarp(std::max(image.rgb.cols, image.rgb.rows), options.imgsz);
            return defer ? deferResizeLongSide(std::move(image), options.imgsz)
                         : resizeLongSide(image, options.imgsz, true);
        }
        image = resizeLongSide(image, options.imgsz, true);
        cv::Mat rgb;
        cv::cvtColor(image.rgb, rgb, cv::COLOR_BGR2RGB);
        image.rgb = rgb;
        return image;
    }

    // A corrupt or vanished file is reported once and replaced by the next readable image, so the batch
    // keeps its size and training goes on.
    LabeledImage load(size_t index, bool augment, std::pair<int, int>* originalSize = nullptr) {
        for (size_t attempt = 0; attempt < samples.size(); ++attempt) {
            const Sample& sample = samples[(index + attempt) % samples.size()];
            if (augment && !originalSize)
                if (auto image = decodeForTraining(sample))
                    return std::move(*image);
            auto decoded = imaging::decodeImage(sample.path);
            if (decoded && decoded->channels == 3 && decoded->width > 0 && decoded->height > 0) {
                LabeledImage image;
                image.rgb = cv::Mat(decoded->height, decoded->width, CV_8UC3);
                std::memcpy(image.rgb.data, decoded->pixels.data(), decoded->pixels.size());
                for (const auto& box : sample.boxes)
                    image.boxes.push_back({box.classId, box.x1, box.y1, box.x2, box.y2});
                if (originalSize)
                    *originalSize = {decoded->width, decoded->height};
                return resizeLongSide(image, options.imgsz, augment);
            }
            bool first = false;
            {
                std::lock_guard lock(mutex);
                first = reported.insert((index + attempt) % samples.size()).second;
            }
            if (first && warn)
                warn("skipping unreadable image " + sample.path.string() + ": " +
                     (decoded ? std::string("not a 3-channel image") : decoded.message()));
        }
        LabeledImage blank;
        blank.rgb =
            cv::Mat(options.imgsz, options.imgsz, CV_8UC3, cv::Scalar(kPadValue, kPadValue, kPadValue));
        return blank;
    }

    int recentImages() const {
        if (options.recentImages >= 0)
            return std::min(options.recentImages, static_cast<int>(samples.size()));
        return static_cast<int>(std::min<size_t>({samples.size(), 8 * globalBatch(), 1000}));
    }

    // Enough for the recent images of every batch the workers build at once.
    size_t cacheCapacity() const {
        if (options.cacheAll)
            return samples.size();
        const size_t inFlight = static_cast<size_t>(options.workers + options.prefetch + 2) * globalBatch();
        return static_cast<size_t>(recentImages()) + inFlight;
    }

    // A training image (decoded and resized) through the cache of recent images.
    std::shared_ptr<const LabeledImage> loadRecent(size_t index) {
        {
            std::lock_guard lock(mutex);
            if (auto found = cache.find(index); found != cache.end()) {
                found->second.lastUse = ++cacheClock;
                return found->second.image;
            }
        }
        auto image = std::make_shared<const LabeledImage>(load(index, true));
        std::lock_guard lock(mutex);
        auto& entry = cache[index];
        if (!entry.image)
            entry.image = image;
        entry.lastUse = ++cacheClock;
        while (cache.size() > cacheCapacity()) {
            auto oldest = std::min_element(cache.begin(), cache.end(), [](const auto& a, const auto& b) {
                return a.second.lastUse < b.second.lastUse;
            });
            cache.erase(oldest);
        }
        return entry.image;
    }

    // The sample at `position` of the image stream: this epoch's order, and before it the previous one's.
    size_t streamSample(long long position) const {
        if (position >= 0)
            return static_cast<size_t>(order[static_cast<size_t>(position)]);
        return static_cast<size_t>(
            previousOrder[static_cast<size_t>(position + static_cast<long long>(samples.size()))]);
    }

    // `into`: where a mosaic is written (the batch's slot); other images are new ones.
    LabeledImage buildTrainImage(size_t position, Rng& rng, const cv::Mat& into) {
        const int imgsz = options.imgsz;
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        // The colour draws are made ahead of the warp (the generator's order unchanged: nothing is drawn
        // between the affine draw and them), so that the warp writes a flipped image mirrored, without a
        // pass of its own: the same batches (bench_pipeline's digest), 331 -> 341 images/s on one core of an
        // Intel Xeon, 640x480 JPEGs (medians of 8 interleaved runs).
        const auto drawColourAhead = [&] {
            return drawColour(rng, options.hsvH, options.hsvS, options.hsvV, options.fliplr);
        };
        LabeledImage image;
        ColourDraw colour;
        if (plan.mosaic && options.mosaic > 0 && unit(rng) < options.mosaic) {
            std::vector<std::shared_ptr<const LabeledImage>> held{
                loadRecent(streamSample(static_cast<long long>(position)))};
            const int recent = recentImages();
            if (recent > 0) {
                std::uniform_int_distribution<long long> back(0, recent - 1);
                for (int i = 0; i < 3; ++i)
                    held.push_back(loadRecent(streamSample(static_cast<long long>(position) - back(rng))));
            } else {
                std::uniform_int_distribution<size_t> pick(0, samples.size() - 1);
                for (int i = 0; i < 3; ++i)
                    held.push_back(loadRecent(pick(rng)));
            }
            std::vector<LabeledImage> parts;
            for (const auto& part : held)
                parts.push_back(*part); // shares the pixels; mosaicAffine only reads them
            std::uniform_int_distribution<int> centre(imgsz / 2, imgsz + imgsz / 2 - 1);
            const int cx = centre(rng), cy = centre(rng);
            const AffineParams affine = drawAffine(rng, options.scale, options.translate);
            colour = drawColourAhead();
            image = mosaicAffine(parts, imgsz, cx, cy, affine, into, colour.flip);
        } else {
            image = letterboxPad(resolved(*loadRecent(static_cast<size_t>(order[position]))), imgsz, imgsz);
            const AffineParams affine = drawAffine(rng, options.scale, options.translate);
            colour = drawColourAhead();
            image = affineWarp(image, affine, imgsz, imgsz, colour.flip);
        }
        applyColour(image, colour, colour.flip);
        return image;
    }

    HostBatch build(int index) {
        const auto start = std::chrono::steady_clock::now();
        const auto [first, last] = share(index);
        const int imgsz = options.imgsz;
        HostBatch batch;
        batch.count = static_cast<int>(last - first);
        batch.width = imgsz;
        batch.height = imgsz;
        // Validation: the batch's images first, for the batch's rectangular shape.
        std::vector<LabeledImage> valImages;
        if (options.mode == LoaderMode::Val) {
            std::vector<std::pair<int, int>> sizes;
            for (size_t position = first; position < last; ++position) {
                std::pair<int, int> size{imgsz, imgsz}; // an unreadable image's stand-in is imgsz square
                valImages.push_back(load(static_cast<size_t>(order[position]), false, &size));
                sizes.push_back(size);
            }
            const auto shape = valBatchShape(sizes, imgsz);
            batch.width = shape.width;
            batch.height = shape.height;
        }
        const size_t imageBytes = static_cast<size_t>(batch.width) * static_cast<size_t>(batch.height) * 3;
        batch.pixels.resize(imageBytes * static_cast<size_t>(batch.count));
        for (size_t position = first; position < last; ++position) {
            const int slot = static_cast<int>(position - first);
            std::uint8_t* slotPixels = batch.pixels.data() + imageBytes * static_cast<size_t>(slot);
            LabeledImage image;
            if (options.mode == LoaderMode::Val) {
                image = letterboxPad(valImages[position - first], batch.width, batch.height);
            } else if (plan.augment) {
                // Each image's randomness depends only on (seed, epoch, position): reproducible and
                // independent of which worker builds it.
                std::seed_seq seq{static_cast<unsigned>(options.seed),
                                  static_cast<unsigned>(options.seed >> 32),
                                  static_cast<unsigned>(plan.epoch), static_cast<unsigned>(position)};
                Rng rng(seq);
                image = buildTrainImage(position, rng, cv::Mat(imgsz, imgsz, CV_8UC3, slotPixels));
            } else {
                image = letterboxPad(load(static_cast<size_t>(order[position]), false), imgsz, imgsz);
            }
            if (image.rgb.data != slotPixels) { // not built in its slot
                if (!image.rgb.isContinuous())
                    image.rgb = image.rgb.clone();
                std::memcpy(slotPixels, image.rgb.data, imageBytes);
            }
            for (const auto& box : image.boxes)
                batch.boxes.push_back({slot, box.classId, box.x1, box.y1, box.x2, box.y2});
        }
        batch.loadSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return batch;
    }

    void work() {
        while (true) {
            int index = 0;
            {
                std::unique_lock lock(mutex);
                consumed.wait(lock, [&] {
                    return cancel || nextToBuild >= batches() ||
                           nextToBuild - nextToDeliver < options.prefetch;
                });
                if (cancel || nextToBuild >= batches())
                    return;
                index = nextToBuild++;
            }
            auto batch = build(index);
            {
                std::lock_guard lock(mutex);
                ready.emplace(index, std::move(batch));
            }
            produced.notify_all();
        }
    }
};

DataLoader::DataLoader(std::vector<Sample> samples, LoaderOptions options, WarningCallback warn)
    : m_impl(std::make_unique<Impl>()) {
    // Workers already run in parallel; OpenCV's own thread pool would only compete with torch's.
    cv::setNumThreads(1);
    m_impl->samples = std::move(samples);
    m_impl->options = options;
    m_impl->options.batch = std::max(1, options.batch);
    m_impl->options.prefetch = std::max(1, options.prefetch);
    m_impl->options.worldSize = std::max(1, options.worldSize);
    m_impl->options.rank = std::clamp(options.rank, 0, m_impl->options.worldSize - 1);
    m_impl->warn = std::move(warn);
    m_impl->order.resize(m_impl->samples.size());
    std::iota(m_impl->order.begin(), m_impl->order.end(), 0);
}

DataLoader::~DataLoader() {
    m_impl->stopWorkers();
}

int DataLoader::imageCount() const {
    return static_cast<int>(m_impl->samples.size());
}

int DataLoader::batchesPerEpoch() const {
    return m_impl->batches();
}

void DataLoader::startEpoch(const EpochPlan& plan) {
    auto& impl = *m_impl;
    impl.stopWorkers();
    impl.plan = plan;
    const auto epochOrder = [&](int epoch) {
        std::vector<int> order(impl.samples.size());
        std::iota(order.begin(), order.end(), 0);
        if (impl.options.mode == LoaderMode::Train) {
            std::mt19937_64 rng(impl.options.seed * 1000003ULL + static_cast<std::uint64_t>(epoch));
            std::shuffle(order.begin(), order.end(), rng);
        }
        return order;
    };
    impl.order = epochOrder(plan.epoch);
    impl.previousOrder = epochOrder(plan.epoch - 1);
    impl.ready.clear();
    impl.nextToBuild = 0;
    impl.nextToDeliver = 0;
    impl.cancel = false;
    if (impl.samples.empty())
        return;
    for (int i = 0; i < impl.options.workers; ++i)
        impl.workers.emplace_back([&impl] { impl.work(); });
}

std::optional<HostBatch> DataLoader::next() {
    auto& impl = *m_impl;
    if (impl.samples.empty() || impl.nextToDeliver >= impl.batches())
        return std::nullopt;
    if (impl.workers.empty())
        return impl.build(impl.nextToDeliver++);
    std::unique_lock lock(impl.mutex);
    impl.produced.wait(lock, [&] { return impl.ready.count(impl.nextToDeliver) != 0; });
    auto node = impl.ready.extract(impl.nextToDeliver);
    ++impl.nextToDeliver;
    lock.unlock();
    impl.consumed.notify_all();
    return std::move(node.mapped());
}

HostBatch DataLoader::buildBatch(int index) {
    return m_impl->build(index);
}

} // namespace osprey::train
