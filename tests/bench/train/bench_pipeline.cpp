// The training input pipeline alone (decode + mosaic + affine + HSV + flip) on a YOLO-layout image folder,
// the same files Ultralytics' dataloader reads in bench_pipeline_vs_ultralytics.py. Modes:
//   rate:    images/s of DataLoader::next() in Train mode with mosaic, after `warmup` batches;
//   rate-ram: the same with every decoded image kept in RAM (LoaderOptions::cacheAll), timed in the
//            second epoch, after one epoch filled the cache;
//   digest:  a digest of the batches rate makes (warmup included), untimed: the same digest before and
//            after a change means the same pixels and boxes;
//   profile: where one mosaic image's milliseconds go, stage by stage (decode, resize, canvas, warp, HSV,
//            flip), on the calling thread;
//   decode:  the JPEG decode alone, side by side on the same files in interleaved rounds: decodeJpeg (its
//            own Huffman decoder inside libjpeg-turbo, and where the CPU has AVX-512 its IDCT of four
//            blocks and colour conversion), libjpeg-turbo's own decoder called the same way, and
//            cv::imread; ms an image (file read included) and whether the pixels are equal.
// malloc keeps freed memory, as in osprey-cli's training (app/malloc_policy.h).
//
// Usage: bench_pipeline DIR [imgsz=640] [batch=16] [batches=20] [workers=1]
// [rate|rate-ram|profile|digest|decode] [warmup=2] (decode: `batches` is the rounds). DIR holds
// images/*.jpg|png and labels/*.txt (YOLO: class cx cy w h, normalised), or images/ and labels/ one level
// down (images/train). Prints "RESULT images_per_s=..." in rate mode.
#include "imaging/image.h"
#include "malloc_policy.h"
#include "train/augment_impl.h"
#include "train/data_loader.h"

#include "libjpeg_reference.h"
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>

using namespace osprey;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

namespace {

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

fs::path findImages(const fs::path& root) {
    if (fs::is_directory(root / "images" / "train"))
        return root / "images" / "train";
    return root / "images";
}

std::vector<train::Sample> readYoloFolder(const fs::path& root) {
    const fs::path images = findImages(root);
    const fs::path labels = images.parent_path().parent_path() / "labels" / images.filename();
    const fs::path labelDir = fs::is_directory(labels) ? labels : root / "labels";
    std::vector<fs::path> files;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(images, error)) {
        const auto ext = entry.path().extension().string();
        if (ext == ".jpg" || ext == ".jpeg" || ext == ".png")
            files.push_back(fs::absolute(entry.path()));
    }
    std::sort(files.begin(), files.end());
    std::vector<train::Sample> samples;
    for (size_t i = 0; i < files.size(); ++i) {
        const auto size = imaging::readImageSize(files[i]);
        if (!size)
            continue;
        train::Sample sample{static_cast<std::int64_t>(i), files[i], {}};
        std::ifstream in(labelDir / (files[i].stem().string() + ".txt"));
        int cls = 0;
        float cx = 0, cy = 0, w = 0, h = 0;
        while (in >> cls >> cx >> cy >> w >> h) {
            const float width = static_cast<float>(size->width), height = static_cast<float>(size->height);
            sample.boxes.push_back({cls, (cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width,
                                    (cy + h / 2) * height});
        }
        samples.push_back(std::move(sample));
    }
    return samples;
}

// A 64-bit digest of bytes, eight at a time (FNV-1a's constants over words): equal batches, equal digests.
void digestBytes(std::uint64_t& digest, const void* data, std::size_t size) {
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    std::size_t i = 0;
    for (std::uint64_t word = 0; i + 8 <= size; i += 8) {
        std::memcpy(&word, bytes + i, 8);
        digest = (digest ^ word) * 0x100000001b3ull;
    }
    for (; i < size; ++i)
        digest = (digest ^ bytes[i]) * 0x100000001b3ull;
}

int rate(const std::vector<train::Sample>& samples, int imgsz, int batch, int batches, int workers,
         int warmup, bool cacheAll, bool digestOnly = false) {
    train::LoaderOptions options;
    options.cacheAll = cacheAll;
    options.imgsz = imgsz;
    options.batch = batch;
    options.workers = workers;
    train::DataLoader loader(samples, options);
    if (cacheAll) { // one epoch fills the cache, as Ultralytics' cache=ram fills it before training
        std::printf("RAM cache: %.0f MB for %zu images\n",
                    static_cast<double>(train::ramCacheBytes(samples, imgsz)) / 1e6, samples.size());
        loader.startEpoch({0, true, true});
        while (loader.next()) {
        }
    }
    loader.startEpoch({cacheAll ? 1 : 0, true, true});
    if (digestOnly) { // the batches' pixels and boxes, not timed: a change that keeps them keeps this
        std::uint64_t digest = 0xcbf29ce484222325ull;
        int count = 0;
        for (int i = 0; i < warmup + batches; ++i) {
            auto b = loader.next();
            if (!b)
                break;
            digestBytes(digest, b->pixels.data(), b->pixels.size());
            for (const auto& box : b->boxes)
                digestBytes(digest, &box, sizeof box);
            count += b->count;
        }
        std::printf("DIGEST %016llx images=%d\n", static_cast<unsigned long long>(digest), count);
        return 0;
    }
    for (int i = 0; i < warmup; ++i)
        loader.next();
    const auto start = Clock::now();
    long long images = 0, boxes = 0;
    for (int i = 0; i < batches; ++i) {
        auto b = loader.next();
        if (!b)
            break;
        images += b->count;
        boxes += static_cast<long long>(b->boxes.size());
    }
    const double seconds = msSince(start) / 1000;
    std::printf("RESULT images_per_s=%.2f images=%lld boxes_per_image=%.2f workers=%d\n",
                static_cast<double>(images) / seconds, images,
                static_cast<double>(boxes) / static_cast<double>(std::max(1LL, images)), workers);
    return 0;
}

// The stages of one mosaic image, timed one by one on the calling thread. "before": as the loader built it
// until issue 37 (four full decodes by cv::imread, the 2x canvas, one warp of it); "after": as it builds
// it now (one decode per image on average, since the other three tiles come from the recent images already
// decoded; libjpeg-turbo called directly, RGB out, a JPEG at least twice imgsz at a reduced DCT scale;
// each tile warped straight into the output by the separable warp, from the decode itself where the
// loader leaves the resize to the warp).
constexpr train::HsvKernel kHsvKernels[3] = {train::HsvKernel::Fastest, train::HsvKernel::Avx2,
                                             train::HsvKernel::Portable};

int profile(const std::vector<train::Sample>& samples, int imgsz, int images, bool before) {
    std::map<std::string, double> ms;
    std::vector<std::string> stages;
    const auto add = [&](const std::string& name, double value) {
        if (!ms.count(name))
            stages.push_back(name);
        ms[name] += value;
    };
    train::Rng rng(0);
    std::uniform_int_distribution<size_t> pick(0, samples.size() - 1);
    std::vector<train::LabeledImage> recent;
    double separableMs = 0, openCvMs = 0, hsvKernelMs[3] = {};
    cv::Mat hsvFirst;
    for (int n = 0; n < images; ++n) {
        std::vector<train::LabeledImage> parts;
        for (int t = 0; t < (before ? 4 : 1); ++t) {
            const auto& sample = samples[pick(rng)];
            const auto size = imaging::readImageSize(sample.path);
            const int longSide = std::max(size->width, size->height);
            auto start = Clock::now();
            train::LabeledImage image;
            if (before) {
                image.rgb = cv::imread(sample.path.string(), cv::IMREAD_COLOR);
                add("decode (cv::imread, BGR)", msSince(start));
            } else {
                if (!imaging::decodeJpeg(sample.path, imgsz, [&](int width, int height) {
                        image.rgb.create(height, width, CV_8UC3);
                        return image.rgb.data;
                    })) {
                    std::fprintf(stderr, "cannot decode %s\n", sample.path.string().c_str());
                    return 1;
                }
                add(2 * imgsz <= longSide ? "decode (libjpeg, reduced DCT)" : "decode (libjpeg + own stages)",
                    msSince(start));
            }
            const float sx = static_cast<float>(image.rgb.cols) / static_cast<float>(size->width);
            for (const auto& box : sample.boxes)
                image.boxes.push_back({box.classId, box.x1 * sx, box.y1 * sx, box.x2 * sx, box.y2 * sx});
            start = Clock::now();
            // As the loader: a decode up to kDeferredResizeRatio x imgsz is resized by the mosaic's warp.
            const bool defer =
                !before && train::resizeLeftToWarp(std::max(image.rgb.cols, image.rgb.rows), imgsz);
            image = defer ? train::deferResizeLongSide(std::move(image), imgsz)
                          : train::resizeLongSide(image, imgsz, true);
            add("resize to imgsz", msSince(start));
            if (before) {
                start = Clock::now();
                cv::cvtColor(image.rgb, image.rgb, cv::COLOR_BGR2RGB);
                add("BGR to RGB", msSince(start));
            }
            parts.push_back(image);
        }
        if (!before) {
            recent.push_back(parts[0]);
            if (recent.size() > 128)
                recent.erase(recent.begin());
            std::uniform_int_distribution<size_t> back(0, recent.size() - 1);
            for (int t = 0; t < 3; ++t)
                parts.push_back(recent[back(rng)]);
        }
        const auto params = train::drawAffine(rng, 0.5, 0.1);
        // As the loader draws them (half the images flipped, by the warp); "before" flipped every image.
        const auto colour = train::drawColour(rng, 0.015, 0.7, 0.4, 0.5);
        auto start = Clock::now();
        train::LabeledImage out;
        if (before) {
            auto canvas = train::mosaic4(parts, imgsz, imgsz, imgsz);
            add("mosaic canvas (2x, fill + copy)", msSince(start));
            // OpenCV's warp, as then (affineWarp now warps separably, as below).
            const double scale = params.scale, side = 2.0 * imgsz;
            const cv::Matx23d m(scale, 0, -scale * side / 2 + params.translateX * imgsz, 0, scale,
                                -scale * side / 2 + params.translateY * imgsz);
            start = Clock::now();
            cv::warpAffine(canvas.rgb, out.rgb, m, cv::Size(imgsz, imgsz), cv::INTER_LINEAR,
                           cv::BORDER_CONSTANT,
                           cv::Scalar(train::kPadValue, train::kPadValue, train::kPadValue));
            add("affine warp of the canvas", msSince(start));
        } else {
            out = train::mosaicAffine(parts, imgsz, imgsz, imgsz, params, {}, colour.flip);
            add("tiles warped (half mirrored)", msSince(start));
            // Not part of the pipeline: the same warp of one tile over a whole imgsz x imgsz output, by
            // the separable warp and by cv::warpAffine, side by side.
            const cv::Matx23d m(params.scale, 0, 0, 0, params.scale, 0);
            cv::Mat separable(imgsz, imgsz, CV_8UC3), openCv;
            start = Clock::now();
            train::warpScaleTranslate(parts[0].rgb, separable, params.scale, 0, 0, cv::BORDER_REPLICATE);
            separableMs += msSince(start);
            start = Clock::now();
            cv::warpAffine(parts[0].rgb, openCv, m, separable.size(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
            openCvMs += msSince(start);
            if (cv::norm(separable, openCv, cv::NORM_INF) != 0) {
                std::fprintf(stderr, "the separable warp differs from cv::warpAffine\n");
                return 1;
            }
        }
        start = Clock::now();
        if (before) { // as then: the jitter (a fixed one, the same work), then the flip in a second pass
            train::hsvApply(out.rgb, 5.0, 1.3, 0.8);
            add("HSV jitter", msSince(start));
            start = Clock::now();
            train::flipHorizontal(out);
            add("flip", msSince(start));
        } else {
            // Not part of the pipeline: the same jitter of this mosaic by each HSV kernel, side by side.
            for (int k = 0; k < 3; ++k) {
                cv::Mat copy = out.rgb.clone();
                const auto kernelStart = Clock::now();
                train::hsvApply(copy, 5.0, 1.3, 0.8, kHsvKernels[k]);
                hsvKernelMs[k] += msSince(kernelStart);
                if (k == 0)
                    hsvFirst = copy;
                else if (cv::norm(copy, hsvFirst, cv::NORM_INF) != 0) {
                    std::fprintf(stderr, "the HSV kernels differ\n");
                    return 1;
                }
            }
            start = Clock::now();
            train::applyColour(out, colour, colour.flip);
            add("HSV jitter", msSince(start));
        }
    }
    double total = 0;
    for (const auto& [name, value] : ms)
        total += value;
    std::printf("One mosaic image at imgsz %d, %s, mean of %d (ms):\n", imgsz,
                before ? "before (4 decodes, 2x canvas)" : "after (recent images, one warp per tile)",
                images);
    for (const auto& name : stages)
        std::printf("  %-32s %6.2f  (%4.1f%%)\n", name.c_str(), ms[name] / images, 100 * ms[name] / total);
    std::printf("  %-32s %6.2f\n", "total", total / images);
    if (!before)
        std::printf("One tile warped over a whole %dx%d output (the same pixels): separable %.2f ms, "
                    "cv::warpAffine %.2f ms, %.2fx\n",
                    imgsz, imgsz, separableMs / images, openCvMs / images, openCvMs / separableMs);
    if (!before)
        std::printf(
            "The HSV jitter of one mosaic (the same bytes), by kernel: fastest (%s) %.2f ms, AVX2 %.2f "
            "ms, portable %.2f ms\n",
            train::hsvAvx512Available() ? "AVX-512"
            : train::hsvAvx2Available() ? "AVX2"
                                        : "portable",
            hsvKernelMs[0] / images, hsvKernelMs[1] / images, hsvKernelMs[2] / images);
    return 0;
}

} // namespace

// libjpeg-turbo's own decode of `path` (read whole, as decodeJpeg reads it), into `out`'s reused buffer.
bool libjpegDecode(const fs::path& path, testing::LibjpegDecoded& out) {
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return testing::libjpegDecode(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), out);
}

int decodeSideBySide(const std::vector<train::Sample>& samples, int rounds) {
    std::vector<fs::path> jpegs;
    for (const auto& sample : samples) {
        const auto extension = sample.path.extension().string();
        if (extension == ".jpg" || extension == ".jpeg" || extension == ".JPG" || extension == ".JPEG")
            jpegs.push_back(sample.path);
    }
    if (jpegs.empty()) {
        std::fprintf(stderr, "no JPEG images to decode\n");
        return 1;
    }
    long long differing = 0;
    testing::LibjpegDecoded own;
    for (const auto& path : jpegs) {
        const auto ours = imaging::decodeJpeg(path);
        if (!ours || !libjpegDecode(path, own) || ours->pixels != own.pixels)
            ++differing;
    }
    double ms[3] = {};
    std::vector<std::uint8_t> ours;
    for (int round = 0; round < rounds; ++round)
        for (int which = 0; which < 3; ++which) {
            const auto start = Clock::now();
            for (const auto& path : jpegs) {
                if (which == 0) // into a reused buffer, as libjpegDecode
                    (void)imaging::decodeJpeg(path, 0, [&](int width, int height) {
                        ours.resize(static_cast<size_t>(width) * height * 3);
                        return ours.data();
                    });
                else if (which == 1)
                    (void)libjpegDecode(path, own);
                else
                    (void)cv::imread(path.string(), cv::IMREAD_COLOR);
            }
            ms[which] += msSince(start);
        }
    const double per = 1.0 / (static_cast<double>(jpegs.size()) * rounds);
    std::printf("%zu JPEGs, %d interleaved rounds; ms an image, file read included:\n", jpegs.size(), rounds);
    std::printf("  decodeJpeg (Osprey's stages)           %.3f\n", ms[0] * per);
    std::printf("  libjpeg-turbo's own decoder            %.3f  (%.2fx decodeJpeg's time)\n", ms[1] * per,
                ms[1] / ms[0]);
    std::printf("  cv::imread (BGR)                       %.3f  (%.2fx)\n", ms[2] * per, ms[2] / ms[0]);
    std::printf("  images whose pixels differ from libjpeg-turbo's: %lld\n", differing);
    std::printf("RESULT decode_ms=%.4f libjpeg_ms=%.4f imread_ms=%.4f differing=%lld\n", ms[0] * per,
                ms[1] * per, ms[2] * per, differing);
    return differing == 0 ? 0 : 1;
}

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_pipeline DIR [imgsz=640] [batch=16] [batches=20] [workers=1] "
                             "[rate|rate-ram|profile|digest|decode] [warmup=2]\n");
        return 2;
    }
    app::keepFreedMemory(); // as osprey-cli trains: a batch's and a decode's buffers reuse freed memory
    const fs::path root = argv[1];
    const int imgsz = argc > 2 ? std::atoi(argv[2]) : 640;
    const int batch = argc > 3 ? std::atoi(argv[3]) : 16;
    const int batches = argc > 4 ? std::atoi(argv[4]) : 20;
    const int workers = argc > 5 ? std::atoi(argv[5]) : 1;
    const std::string mode = argc > 6 ? argv[6] : "rate";
    const int warmup = argc > 7 ? std::atoi(argv[7]) : 2;
    cv::setNumThreads(1);
    const auto samples = readYoloFolder(root);
    if (samples.empty()) {
        std::fprintf(stderr, "no .jpg, .jpeg or .png images in %s\n", findImages(root).string().c_str());
        return 1;
    }
    if (mode == "decode")
        return decodeSideBySide(samples, batches);
    if (mode == "profile")
        return profile(samples, imgsz, batch * batches, true) |
               profile(samples, imgsz, batch * batches, false);
    return rate(samples, imgsz, batch, batches, workers, warmup, mode == "rate-ram", mode == "digest");
}
