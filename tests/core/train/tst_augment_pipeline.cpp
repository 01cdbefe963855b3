// The faster training pipeline of issue 37 against the path it replaced: the single warp per mosaic tile
// (mosaicAffine) against mosaic4 + affineWarp on the same random draws, boxes landing on their objects'
// pixels, and the loader's mosaic tiles drawn from the recent images against uniform draws over the
// dataset (box statistics within tolerance; every batch a function of seed, epoch and index alone).
#include "imaging/image.h"
#include "run/train_config.h"
#include "train/augment_impl.h"
#include "train/data_loader.h"

#include <opencv2/imgproc.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <map>

using namespace osprey::train;

namespace {

// A tile of w x h: a background grey per tile, and three filled rectangles, each of its own colour, in
// three vertical bands (so none covers another), with their boxes. Colours are far from each other and
// from the pad grey 114.
LabeledImage tileWithObjects(int w, int h, int tile, Rng& rng) {
    LabeledImage image;
    image.rgb = cv::Mat(h, w, CV_8UC3, cv::Scalar(20 + 10 * tile, 20 + 10 * tile, 20 + 10 * tile));
    const int band = w / 3;
    std::uniform_int_distribution<int> sideW(std::max(2, band / 4), band - 1), sideH(h / 8, h / 2);
    for (int k = 0; k < 3; ++k) {
        const int bw = sideW(rng), bh = sideH(rng);
        const int x = std::uniform_int_distribution<int>(k * band, (k + 1) * band - bw)(rng);
        const int y = std::uniform_int_distribution<int>(0, h - bh)(rng);
        const int id = 4 * tile + k; // class = colour index
        cv::rectangle(image.rgb, cv::Rect(x, y, bw, bh), cv::Scalar(255, 40 + 12 * id, 230 - 12 * id),
                      cv::FILLED);
        image.boxes.push_back({id, float(x), float(y), float(x + bw), float(y + bh)});
    }
    return image;
}

cv::Vec3b colourOf(int id) {
    return cv::Vec3b(255, uchar(40 + 12 * id), uchar(230 - 12 * id));
}

struct Draw {
    std::vector<LabeledImage> parts;
    int cx = 0, cy = 0;
    AffineParams params;
};

Draw randomDraw(Rng& rng, int imgsz) {
    Draw draw;
    std::uniform_int_distribution<int> side(imgsz / 3, imgsz);
    for (int t = 0; t < 4; ++t) {
        // Long side imgsz as resizeLongSide leaves it, the other random.
        const bool wide = rng() % 2 == 0;
        draw.parts.push_back(tileWithObjects(wide ? imgsz : side(rng), wide ? side(rng) : imgsz, t, rng));
    }
    std::uniform_int_distribution<int> centre(imgsz / 2, imgsz + imgsz / 2 - 1);
    draw.cx = centre(rng);
    draw.cy = centre(rng);
    draw.params = drawAffine(rng, 0.5, 0.1);
    return draw;
}

// Writes `count` images (PNG, 160 x 120 unless told) with 1 to 3 boxes each of varied size; returns their
// samples.
std::vector<Sample> writeDataset(const QTemporaryDir& dir, int count, const char* extension = "png",
                                 int width = 160, int height = 120) {
    std::vector<Sample> samples;
    Rng rng(7);
    for (int i = 0; i < count; ++i) {
        auto image = tileWithObjects(width, height, i % 4, rng);
        osprey::imaging::Image out;
        out.width = width;
        out.height = height;
        out.pixels.assign(image.rgb.data, image.rgb.data + static_cast<size_t>(width) * height * 3);
        const std::filesystem::path path = dir.filePath(QString("%1.%2").arg(i).arg(extension)).toStdString();
        if (!osprey::imaging::encodeImage(out, path))
            return {};
        Sample sample{i, path, {}};
        for (int k = 0; k < 1 + i % 3; ++k) {
            const auto& b = image.boxes[static_cast<size_t>(k)];
            sample.boxes.push_back({b.classId, b.x1, b.y1, b.x2, b.y2});
        }
        samples.push_back(sample);
    }
    return samples;
}

struct BoxStats {
    double boxesPerImage = 0, meanArea = 0, meanCentreX = 0, images = 0;
};

BoxStats loaderStats(const std::vector<Sample>& samples, int recentImages, int epochs) {
    LoaderOptions options;
    options.imgsz = 64;
    options.batch = 4;
    options.workers = 0;
    options.recentImages = recentImages;
    DataLoader loader(samples, options);
    BoxStats stats;
    long long boxes = 0;
    for (int epoch = 0; epoch < epochs; ++epoch) {
        loader.startEpoch({epoch, true, true});
        while (auto batch = loader.next()) {
            stats.images += batch->count;
            for (const auto& box : batch->boxes) {
                ++boxes;
                stats.meanArea += (box.x2 - box.x1) * (box.y2 - box.y1);
                stats.meanCentreX += (box.x1 + box.x2) / 2;
            }
        }
    }
    stats.boxesPerImage = static_cast<double>(boxes) / stats.images;
    stats.meanArea /= static_cast<double>(boxes);
    stats.meanCentreX /= static_cast<double>(boxes);
    return stats;
}

} // namespace

class TestAugmentPipeline : public QObject {
    Q_OBJECT
private slots:
    void singleWarpMatchesTheCanvasPath() {
        // 300 random mosaics: the same boxes as mosaic4 + affineWarp, the same pixels but on seams.
        Rng rng(1);
        const int imgsz = 128;
        double differingPixels = 0, pixels = 0;
        for (int trial = 0; trial < 300; ++trial) {
            const auto draw = randomDraw(rng, imgsz);
            const auto before =
                affineWarp(mosaic4(draw.parts, imgsz, draw.cx, draw.cy), draw.params, imgsz, imgsz);
            const auto after = mosaicAffine(draw.parts, imgsz, draw.cx, draw.cy, draw.params);
            QCOMPARE(after.rgb.size(), before.rgb.size());
            QVERIFY(after.boxes == before.boxes);
            // Output pixels that interpolate across a tile's edge (a seam: one canvas pixel either side, s
            // output pixels) may differ; no other pixel may.
            cv::Mat seams(imgsz, imgsz, CV_8U, cv::Scalar(0));
            const double s = draw.params.scale;
            const double offsetX = draw.params.translateX * imgsz - s * imgsz,
                         offsetY = draw.params.translateY * imgsz - s * imgsz;
            for (const auto& tile : mosaicTiles(draw.parts, imgsz, draw.cx, draw.cy)) {
                const cv::Rect2d r(s * tile.canvas.x + offsetX, s * tile.canvas.y + offsetY,
                                   s * tile.canvas.width, s * tile.canvas.height);
                const auto line = [&](double x1, double y1, double x2, double y2) {
                    cv::rectangle(seams, cv::Point(int(std::floor(x1 - s)), int(std::floor(y1 - s))),
                                  cv::Point(int(std::ceil(x2 + s)), int(std::ceil(y2 + s))), cv::Scalar(255),
                                  cv::FILLED);
                };
                line(r.x, r.y, r.x, r.y + r.height);
                line(r.x + r.width, r.y, r.x + r.width, r.y + r.height);
                line(r.x, r.y, r.x + r.width, r.y);
                line(r.x, r.y + r.height, r.x + r.width, r.y + r.height);
            }
            cv::Mat difference, channels[3];
            cv::absdiff(after.rgb, before.rgb, difference);
            cv::split(difference, channels);
            const cv::Mat differs = (channels[0] > 2) | (channels[1] > 2) | (channels[2] > 2);
            // Elsewhere the two warps sample the same point up to OpenCV's fixed-point step (1/32 px): at
            // most 255 / 32 levels across a black-to-white edge.
            const cv::Mat subpixel = (channels[0] > 8) | (channels[1] > 8) | (channels[2] > 8);
            QCOMPARE(cv::countNonZero(subpixel & ~seams), 0);
            differingPixels += cv::countNonZero(differs);
            pixels += imgsz * imgsz;
        }
        qInfo("pixels differing by more than 2 levels: %.3f%%", 100 * differingPixels / pixels);
    }
    void mirroredMosaicIsTheMosaicFlipped() {
        // mosaicAffine's mirror (each tile's columns warped right to left) against the mosaic then
        // flipHorizontal: the same bytes and boxes, written into a target of random bytes or a new image,
        // tiles resized or sampled from their decode (deferred), scales 0.25 to 1.5; and the loader's order
        // (colour drawn ahead, the flip left to the warp) against jitterAndFlip after the plain mosaic: the
        // same bytes, boxes and generator state.
        Rng rng(8);
        cv::RNG noise(12);
        const int imgsz = 96;
        int mirrored = 0;
        for (int trial = 0; trial < 120; ++trial) {
            auto draw = randomDraw(rng, imgsz);
            if (trial % 5 == 0)
                draw.params.scale = 0.25;
            if (trial % 3 == 0)
                for (auto& part : draw.parts) {
                    const double ratio = std::uniform_real_distribution<double>(0.6, 1.4)(rng);
                    cv::Mat decode;
                    cv::resize(part.rgb, decode,
                               cv::Size(std::max(1, int(part.rgb.cols * ratio)),
                                        std::max(1, int(part.rgb.rows * ratio))),
                               0, 0, cv::INTER_LINEAR);
                    LabeledImage bigger{decode, {}};
                    for (const auto& b : part.boxes)
                        bigger.boxes.push_back({b.classId, float(b.x1 * ratio), float(b.y1 * ratio),
                                                float(b.x2 * ratio), float(b.y2 * ratio)});
                    part = deferResizeLongSide(bigger, imgsz);
                }
            auto expected = mosaicAffine(draw.parts, imgsz, draw.cx, draw.cy, draw.params);
            flipHorizontal(expected);
            cv::Mat target;
            if (trial % 2 == 0) {
                target.create(imgsz, imgsz, CV_8UC3);
                noise.fill(target, cv::RNG::UNIFORM, 0, 256);
            }
            const auto ours = mosaicAffine(draw.parts, imgsz, draw.cx, draw.cy, draw.params, target, true);
            QVERIFY2(cv::norm(ours.rgb, expected.rgb, cv::NORM_INF) == 0,
                     qPrintable(QString("trial %1: %2 values differ")
                                    .arg(trial)
                                    .arg(cv::countNonZero(cv::Mat(ours.rgb != expected.rgb).reshape(1)))));
            QVERIFY(ours.boxes == expected.boxes);
            // The loader's order against the one before it, from one generator state.
            Rng before(trial), after(trial);
            auto plain = mosaicAffine(draw.parts, imgsz, draw.cx, draw.cy, draw.params);
            jitterAndFlip(plain, 0.015, 0.7, 0.4, 0.5, before);
            const ColourDraw colour = drawColour(after, 0.015, 0.7, 0.4, 0.5);
            auto fused = mosaicAffine(draw.parts, imgsz, draw.cx, draw.cy, draw.params, {}, colour.flip);
            applyColour(fused, colour, colour.flip);
            mirrored += colour.flip;
            QCOMPARE(before(), after());
            QVERIFY2(cv::norm(fused.rgb, plain.rgb, cv::NORM_INF) == 0,
                     qPrintable(QString("trial %1").arg(trial)));
            QVERIFY(fused.boxes == plain.boxes);
        }
        QVERIFY(mirrored > 30 && mirrored < 90); // both ways exercised
    }
    void mosaicWritesEveryPixelOfItsTarget() {
        // Written into an image of random bytes (as a batch's unwritten slot), a mosaic is the same as a new
        // one: the tiles and the grey around them cover every pixel. Scales from 0.25 (much grey) to 1.5.
        Rng rng(4);
        cv::RNG noise(5);
        const int imgsz = 128;
        int greyPixels = 0;
        for (int trial = 0; trial < 100; ++trial) {
            auto draw = randomDraw(rng, imgsz);
            if (trial % 4 == 0)
                draw.params.scale = 0.25;
            const auto fresh = mosaicAffine(draw.parts, imgsz, draw.cx, draw.cy, draw.params);
            cv::Mat target(imgsz, imgsz, CV_8UC3);
            noise.fill(target, cv::RNG::UNIFORM, 0, 256);
            const auto into = mosaicAffine(draw.parts, imgsz, draw.cx, draw.cy, draw.params, target);
            QCOMPARE(static_cast<const void*>(into.rgb.data), static_cast<const void*>(target.data));
            QCOMPARE(cv::norm(into.rgb, fresh.rgb, cv::NORM_INF), 0.0);
            cv::Mat grey;
            cv::inRange(fresh.rgb, cv::Scalar::all(kPadValue), cv::Scalar::all(kPadValue), grey);
            greyPixels += cv::countNonZero(grey);
        }
        QVERIFY(greyPixels > 100 * imgsz * imgsz / 10); // the padding was exercised
    }

    void deferredResizeSamplesTheDecodeAsIfResized() {
        // Decodes 0.5-1.5 times imgsz on their long side, as the loader keeps them (deferResizeLongSide):
        // resolved, exactly resizeLongSide's pixels and boxes; through mosaicAffine, the same boxes as the
        // resized images give, objects under their boxes, and every pixel sampled where the geometry says:
        // on decodes whose red is their x and green their y, an output pixel's red and green are the decode
        // position it maps to (output -> canvas -> tile -> resized pixel u -> decode (u + 0.5) / k - 0.5),
        // to rounding and OpenCV's 1/32-pixel step.
        Rng rng(6);
        const int imgsz = 128;
        double signedX = 0, signedY = 0, worst = 0, compared = 0;
        int checkedBoxes = 0;
        for (int trial = 0; trial < 120; ++trial) {
            Draw deferred = randomDraw(rng, imgsz), resized = deferred;
            const bool ramp = trial % 2 == 0;
            std::vector<cv::Size2d> decodeScale; // resized / decoded size per tile
            for (int t = 0; t < 4; ++t) {
                const double ratio = std::uniform_real_distribution<double>(0.5, 1.5)(rng);
                const cv::Size placed = deferred.parts[t].rgb.size();
                const int w = static_cast<int>(placed.width * ratio),
                          h = static_cast<int>(placed.height * ratio);
                LabeledImage decode = tileWithObjects(w, h, t, rng);
                if (ramp)
                    for (int y = 0; y < h; ++y)
                        for (int x = 0; x < w; ++x)
                            decode.rgb.at<cv::Vec3b>(y, x) = cv::Vec3b(uchar(x), uchar(y), 0);
                deferred.parts[t] = deferResizeLongSide(decode, imgsz);
                resized.parts[t] = resizeLongSide(decode, imgsz, true);
                const cv::Size size = placedSize(deferred.parts[t]);
                QCOMPARE(size, resized.parts[t].rgb.size());
                decodeScale.emplace_back(double(size.width) / w, double(size.height) / h);
                const auto back = resolved(deferred.parts[t]);
                QCOMPARE(cv::norm(back.rgb, resized.parts[t].rgb, cv::NORM_INF), 0.0);
                QVERIFY(back.boxes == resized.parts[t].boxes);
            }
            const auto a = mosaicAffine(deferred.parts, imgsz, deferred.cx, deferred.cy, deferred.params);
            const auto b = mosaicAffine(resized.parts, imgsz, resized.cx, resized.cy, resized.params);
            QVERIFY(a.boxes == b.boxes);
            if (ramp) {
                const double s = deferred.params.scale;
                const double offsetX = deferred.params.translateX * imgsz - s * imgsz,
                             offsetY = deferred.params.translateY * imgsz - s * imgsz;
                const auto tiles = mosaicTiles(deferred.parts, imgsz, deferred.cx, deferred.cy);
                for (int y = 0; y < imgsz; ++y)
                    for (int x = 0; x < imgsz; ++x) {
                        const double cx = (x - offsetX) / s, cy = (y - offsetY) / s; // canvas position
                        for (size_t t = 0; t < tiles.size(); ++t) {
                            const cv::Rect &canvas = tiles[t].canvas, &source = tiles[t].source;
                            const double u = cx - canvas.x + source.x, v = cy - canvas.y + source.y;
                            // Two resized pixels inside the tile's source: all four taps are its own.
                            if (canvas.empty() || u < source.x + 2 || u > source.x + source.width - 2 ||
                                v < source.y + 2 || v > source.y + source.height - 2)
                                continue;
                            const double expectedX = (u + 0.5) / decodeScale[t].width - 0.5,
                                         expectedY = (v + 0.5) / decodeScale[t].height - 0.5;
                            const auto p = a.rgb.at<cv::Vec3b>(y, x);
                            const double errorX = p[0] - expectedX, errorY = p[1] - expectedY;
                            worst = std::max({worst, std::abs(errorX), std::abs(errorY)});
                            signedX += errorX;
                            signedY += errorY;
                            ++compared;
                        }
                    }
                continue;
            }
            for (const auto& box : a.boxes) {
                const int x1 = static_cast<int>(std::ceil(box.x1 + 1.5f)),
                          x2 = static_cast<int>(std::floor(box.x2 - 1.5f));
                const int y1 = static_cast<int>(std::ceil(box.y1 + 1.5f)),
                          y2 = static_cast<int>(std::floor(box.y2 - 1.5f));
                for (int y = y1; y < y2; ++y)
                    for (int x = x1; x < x2; ++x) {
                        const auto p = a.rgb.at<cv::Vec3b>(y, x);
                        const auto c = colourOf(box.classId);
                        QVERIFY(std::abs(p[0] - c[0]) + std::abs(p[1] - c[1]) + std::abs(p[2] - c[2]) <= 6);
                    }
                checkedBoxes += x2 > x1 && y2 > y1;
            }
        }
        qInfo(
            "ramp pixels %.0f: worst error %.3f decode pixels, mean signed x %.4f, y %.4f; boxes checked %d",
            compared, worst, signedX / compared, signedY / compared, checkedBoxes);
        QVERIFY(compared > 100000);
        QVERIFY(checkedBoxes > 150);
        // Rounding to a level (0.5) and the warp's 1/32-pixel step; a grid off by a tenth of a pixel fails.
        QVERIFY(worst < 0.56);
        QVERIFY(std::abs(signedX / compared) < 0.05 && std::abs(signedY / compared) < 0.05);
    }

    void boxesLandOnTheirObjects() {
        // Every output box's inner pixels (1.5 px in from each edge) have its object's colour, in the
        // single-warp path: the geometry of pixels and boxes agrees.
        Rng rng(2);
        const int imgsz = 128;
        int checked = 0;
        for (int trial = 0; trial < 200; ++trial) {
            const auto draw = randomDraw(rng, imgsz);
            const auto out = mosaicAffine(draw.parts, imgsz, draw.cx, draw.cy, draw.params);
            for (const auto& box : out.boxes) {
                const int x1 = static_cast<int>(std::ceil(box.x1 + 1.5f)),
                          x2 = static_cast<int>(std::floor(box.x2 - 1.5f));
                const int y1 = static_cast<int>(std::ceil(box.y1 + 1.5f)),
                          y2 = static_cast<int>(std::floor(box.y2 - 1.5f));
                int own = 0, total = 0;
                for (int y = y1; y < y2; ++y)
                    for (int x = x1; x < x2; ++x, ++total) {
                        const auto p = out.rgb.at<cv::Vec3b>(y, x);
                        const auto c = colourOf(box.classId);
                        own += std::abs(p[0] - c[0]) + std::abs(p[1] - c[1]) + std::abs(p[2] - c[2]) <= 6;
                    }
                if (total == 0)
                    continue;
                ++checked;
                QVERIFY2(own == total,
                         qPrintable(
                             QString("box class %1: %2 of %3 pixels").arg(box.classId).arg(own).arg(total)));
            }
        }
        QVERIFY(checked > 500);
    }

    void recentImagesKeepTheBoxStatistics() {
        // Mosaic's other tiles from the recent images (Ultralytics' buffer) against uniform draws over the
        // dataset (the path before issue 37): boxes per image, mean area and mean centre within tolerance.
        QTemporaryDir dir;
        const auto samples = writeDataset(dir, 48);
        QCOMPARE(samples.size(), size_t(48));
        const auto recent = loaderStats(samples, 16, 12), uniform = loaderStats(samples, 0, 12);
        QCOMPARE(recent.images, uniform.images);
        const auto close = [](double a, double b, double tolerance) {
            return std::abs(a - b) <= tolerance * std::max(std::abs(a), std::abs(b));
        };
        const auto text = [&](double a, double b) { return qPrintable(QString("%1 vs %2").arg(a).arg(b)); };
        QVERIFY2(close(recent.boxesPerImage, uniform.boxesPerImage, 0.08),
                 text(recent.boxesPerImage, uniform.boxesPerImage));
        QVERIFY2(close(recent.meanArea, uniform.meanArea, 0.08), text(recent.meanArea, uniform.meanArea));
        QVERIFY2(close(recent.meanCentreX, uniform.meanCentreX, 0.05),
                 text(recent.meanCentreX, uniform.meanCentreX));
    }

    void batchesDoNotDependOnWhatWasCached() {
        // A loader that ran epoch 0 (its cache full of that epoch's images) and a fresh one give epoch 1's
        // batches byte for byte, with 2 workers and with none.
        QTemporaryDir dir;
        const auto samples = writeDataset(dir, 20);
        LoaderOptions options;
        options.imgsz = 64;
        options.batch = 4;
        options.workers = 2;
        DataLoader warm(samples, options);
        warm.startEpoch({0, true, true});
        while (warm.next()) {
        }
        options.workers = 0;
        DataLoader fresh(samples, options);
        warm.startEpoch({1, true, true});
        fresh.startEpoch({1, true, true});
        int batches = 0;
        while (auto a = warm.next()) {
            const auto b = fresh.next();
            QVERIFY(b.has_value());
            QVERIFY(a->pixels == b->pixels);
            QCOMPARE(a->boxes.size(), b->boxes.size());
            ++batches;
        }
        QCOMPARE(batches, 5);
    }

    void loaderDefersTheResizeOfSlightlyLargerJpegs() {
        // JPEGs 1.25 times imgsz: the loader keeps their decodes and the mosaic samples them at once. Against
        // a loader that resizes them first (cache=ram does), the same boxes and, with mosaic, pixels within a
        // level or two (one interpolation instead of two); without mosaic (resolved first), the same bytes.
        QTemporaryDir dir;
        const auto samples = writeDataset(dir, 12, "jpg", 80, 60);
        QCOMPARE(samples.size(), size_t(12));
        LoaderOptions options;
        options.imgsz = 64;
        options.batch = 4;
        options.workers = 0;
        options.recentImages = 0;
        DataLoader deferred(samples, options);
        options.cacheAll = true;
        DataLoader resized(samples, options);
        for (const bool mosaic : {true, false}) {
            deferred.startEpoch({0, mosaic, true});
            resized.startEpoch({0, mosaic, true});
            double absolute = 0, values = 0;
            while (auto a = deferred.next()) {
                const auto b = resized.next();
                QVERIFY(b.has_value());
                QCOMPARE(a->boxes.size(), b->boxes.size());
                for (size_t i = 0; i < a->boxes.size(); ++i)
                    QVERIFY(a->boxes[i].x1 == b->boxes[i].x1 && a->boxes[i].y2 == b->boxes[i].y2);
                QCOMPARE(a->pixels.size(), b->pixels.size());
                for (size_t i = 0; i < a->pixels.size(); ++i)
                    absolute += std::abs(int(a->pixels[i]) - int(b->pixels[i]));
                values += static_cast<double>(a->pixels.size());
            }
            qInfo("mosaic %d: mean absolute difference %.3f levels", mosaic, absolute / values);
            if (mosaic)
                QVERIFY(absolute > 0 && absolute / values < 2.0);
            else
                QCOMPARE(absolute, 0.0);
        }
    }

    void ramCacheDecodesOnlyInTheFirstEpoch() {
        // cache=ram: the option reaches the training loader (not validation's); epoch 1 gives the batches
        // of a loader without the cache byte for byte, and still does with the image files gone, since
        // nothing is decoded after the first epoch.
        osprey::run::TrainConfig config;
        QVERIFY(osprey::run::applyArgs(config, {{"cache", "ram"}}));
        QVERIFY(config.cacheRam);
        QVERIFY(LoaderOptions::fromConfig(config, LoaderMode::Train).cacheAll);
        QVERIFY(!LoaderOptions::fromConfig(config, LoaderMode::Val).cacheAll);
        QCOMPARE(config.toMap().at("cache"), std::string("ram"));
        QVERIFY(!osprey::run::applyArgs(config, {{"cache", "disk"}}));

        QTemporaryDir dir;
        const auto samples = writeDataset(dir, 20);
        LoaderOptions options;
        options.imgsz = 64;
        options.batch = 4;
        // On the calling thread, nothing built ahead: the cache of images in flight then holds 8 of the 20
        // (2 x batch), so without cache=ram epoch 1 would have to decode again.
        options.workers = 0;
        options.prefetch = 0;
        // Mosaic's other tiles drawn from the whole dataset, not the recent images: epoch 1 may then draw
        // any image, and finds it cached, since epoch 0 decoded every image (each is an epoch's first tile
        // exactly once).
        options.recentImages = 0;
        options.cacheAll = true;
        DataLoader cached(samples, options);
        cached.startEpoch({0, true, true});
        while (cached.next()) {
        }
        QVERIFY(osprey::train::ramCacheBytes(samples, 64) > 0);
        // A batch is a function of (seed, epoch, position): a fresh loader without the cache gives epoch 1.
        options.cacheAll = false;
        DataLoader plain(samples, options);
        std::vector<HostBatch> expected;
        plain.startEpoch({1, true, true});
        while (auto batch = plain.next())
            expected.push_back(std::move(*batch));
        for (const auto& sample : samples)
            QVERIFY(std::filesystem::remove(sample.path));
        cached.startEpoch({1, true, true});
        size_t batches = 0;
        while (auto batch = cached.next()) {
            QVERIFY(batches < expected.size());
            QVERIFY(batch->pixels == expected[batches].pixels);
            QCOMPARE(batch->boxes.size(), expected[batches].boxes.size());
            ++batches;
        }
        QCOMPARE(batches, expected.size());
        QCOMPARE(batches, size_t{5});
    }
};

QTEST_APPLESS_MAIN(TestAugmentPipeline)
#include "tst_augment_pipeline.moc"
