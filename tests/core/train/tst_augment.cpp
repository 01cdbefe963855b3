// Augmentations and the loader on known inputs: box coordinates after each geometric step, pixel moves,
// HSV on grey, degenerate boxes dropped, corrupt files skipped.
#include "imaging/image.h"
#include "train/augment_impl.h"
#include "train/data_loader.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <thread>

#include <sys/mman.h>
#include <unistd.h>

using namespace osprey::train;

namespace {

LabeledImage solid(int width, int height, cv::Vec3b colour, std::vector<PixelBox> boxes) {
    LabeledImage image;
    image.rgb = cv::Mat(height, width, CV_8UC3, cv::Scalar(colour[0], colour[1], colour[2]));
    image.boxes = std::move(boxes);
    return image;
}

// The HSV jitter as Ultralytics 8.4.190's RandomHSV writes it with OpenCV: to HSV, a lookup table per
// channel (numpy: hue (x + r_h * 180) % 180, saturation and value clip(x * (1 + r), 0, 255), each
// astype(uint8), which truncates; lut_sat[0] = 0), back to RGB.
cv::Mat openCvHsv(const cv::Mat& rgb, double hueShift, double satFactor, double valFactor) {
    cv::Mat hsv, out;
    cv::cvtColor(rgb, hsv, cv::COLOR_RGB2HSV);
    cv::Mat lut(1, 256, CV_8UC3);
    for (int x = 0; x < 256; ++x) {
        auto& entry = lut.at<cv::Vec3b>(0, x);
        double hue = std::fmod(x + hueShift, 180.0); // numpy's float %: the sign of the divisor
        hue = hue < 0 ? hue + 180.0 : hue;
        entry[0] = static_cast<std::uint8_t>(static_cast<int>(hue));
        entry[1] = static_cast<std::uint8_t>(static_cast<int>(std::clamp(x * satFactor, 0.0, 255.0)));
        entry[2] = static_cast<std::uint8_t>(static_cast<int>(std::clamp(x * valFactor, 0.0, 255.0)));
    }
    lut.at<cv::Vec3b>(0, 0)[1] = 0;
    cv::LUT(hsv, lut, hsv);
    cv::cvtColor(hsv, out, cv::COLOR_HSV2RGB);
    return out;
}

bool near(const PixelBox& box, float x1, float y1, float x2, float y2, float tolerance = 1e-3f) {
    return std::abs(box.x1 - x1) < tolerance && std::abs(box.y1 - y1) < tolerance &&
           std::abs(box.x2 - x2) < tolerance && std::abs(box.y2 - y2) < tolerance;
}

QString describe(const PixelBox& b) {
    return QString("(%1, %2, %3, %4)").arg(b.x1).arg(b.y1).arg(b.x2).arg(b.y2);
}

} // namespace

class TestAugment : public QObject {
    Q_OBJECT
private slots:
    void loaderWorkersFromTheCpuCount() {
        // CPU training shares the cores with the network: one loader thread per four cores.
        QCOMPARE(osprey::train::autoLoaderWorkers("cpu", 2), 1);
        QCOMPARE(osprey::train::autoLoaderWorkers("cpu", 8), 2);
        QCOMPARE(osprey::train::autoLoaderWorkers("cpu", 64), 4);
        // A GPU needs the cores to decode: all but one, at most 8.
        QCOMPARE(osprey::train::autoLoaderWorkers("0", 2), 1);
        QCOMPARE(osprey::train::autoLoaderWorkers("0,1", 6), 5);
        QCOMPARE(osprey::train::autoLoaderWorkers("cuda:0", 32), 8);
        QCOMPARE(osprey::train::autoLoaderWorkers("0", 1), 1);
        osprey::run::TrainConfig config;
        QCOMPARE(config.workers, -1); // the option's default
        config.device = "cpu";
        const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        QCOMPARE(osprey::train::LoaderOptions::fromConfig(config, osprey::train::LoaderMode::Train).workers,
                 osprey::train::autoLoaderWorkers("cpu", cores));
        config.workers = 3;
        QCOMPARE(osprey::train::LoaderOptions::fromConfig(config, osprey::train::LoaderMode::Val).workers, 3);
    }

    void resizeScalesBoxes() {
        const auto out = resizeLongSide(solid(200, 100, {1, 2, 3}, {{0, 20, 10, 60, 50}}), 100, false);
        QCOMPARE(out.rgb.cols, 100);
        QCOMPARE(out.rgb.rows, 50);
        QVERIFY2(near(out.boxes[0], 10, 5, 30, 25), qPrintable(describe(out.boxes[0])));
    }
    void letterboxCentresAndShifts() {
        const auto out = letterboxPad(solid(100, 50, {200, 0, 0}, {{1, 10, 10, 20, 20}}), 128, 128);
        QCOMPARE(out.rgb.cols, 128);
        QCOMPARE(out.rgb.rows, 128);
        // padding 28 x 78: left round(14 - 0.1) = 14, top round(39 - 0.1) = 39
        QVERIFY2(near(out.boxes[0], 24, 49, 34, 59), qPrintable(describe(out.boxes[0])));
        QCOMPARE(out.boxes[0].classId, 1);
        QCOMPARE(int(out.rgb.at<cv::Vec3b>(0, 0)[0]), kPadValue);
        QCOMPARE(int(out.rgb.at<cv::Vec3b>(39, 14)[0]), 200);
        QCOMPARE(int(out.rgb.at<cv::Vec3b>(38, 14)[0]), kPadValue);
    }
    void mosaicPlacesQuadrants() {
        std::vector<LabeledImage> parts;
        for (int i = 0; i < 4; ++i)
            parts.push_back(solid(64, 64, cv::Vec3b(uchar(10 * (i + 1)), 0, 0),
                                  {{i, 30, 30, 50, 50}, {i, 10, 10, 20, 20}}));
        const auto centred = mosaic4(parts, 64, 64, 64);
        QCOMPARE(centred.rgb.cols, 128);
        QCOMPARE(centred.boxes.size(), size_t(8));
        QVERIFY(near(centred.boxes[2], 94, 30, 114, 50)); // top right, shifted by (64, 0)
        QVERIFY(near(centred.boxes[5], 10, 74, 20, 84));  // bottom left, shifted by (0, 64)
        QVERIFY(near(centred.boxes[7], 74, 74, 84, 84));  // bottom right
        QCOMPARE(int(centred.rgb.at<cv::Vec3b>(100, 100)[0]), 40);

        // Off-centre (40, 50): the top-left image is cropped by (24, 14); its small box leaves the canvas.
        const auto shifted = mosaic4(parts, 64, 40, 50);
        QVERIFY2(near(shifted.boxes[0], 6, 16, 26, 36), qPrintable(describe(shifted.boxes[0])));
        QCOMPARE(shifted.boxes[0].classId, 0);
        QCOMPARE(shifted.boxes[1].classId, 1); // the small box of image 0 was dropped
        QVERIFY2(near(shifted.boxes[1], 70, 16, 90, 36), qPrintable(describe(shifted.boxes[1])));
        QCOMPARE(int(shifted.rgb.at<cv::Vec3b>(5, 5)[0]), 10);
        QCOMPARE(int(shifted.rgb.at<cv::Vec3b>(5, 45)[0]), 20);
        QCOMPARE(int(shifted.rgb.at<cv::Vec3b>(100, 100)[0]), 40); // bottom right spans (40..104, 50..114)
        QCOMPARE(int(shifted.rgb.at<cv::Vec3b>(120, 120)[0]), kPadValue);
    }
    void affineScalesAboutTheCentreAndFilters() {
        const auto input =
            solid(64, 64, {50, 50, 50},
                  {{0, 24, 24, 40, 40}, {1, 0, 0, 10, 10}, {2, 40, 40, 60, 60}, {3, 44, 44, 60, 60}});
        const auto out = affineWarp(input, {2.0, 0.5, 0.5}, 64, 64);
        QCOMPARE(out.boxes.size(), size_t(2));
        QVERIFY2(near(out.boxes[0], 16, 16, 48, 48), qPrintable(describe(out.boxes[0])));
        // (40..60) -> (48..88), clipped to 64: keeps 16 x 16 of 40 x 40 (16%) -> kept
        QVERIFY2(near(out.boxes[1], 48, 48, 64, 64), qPrintable(describe(out.boxes[1])));
        QCOMPARE(out.boxes[1].classId, 2); // class 3 kept only 6% of its area and was dropped
    }
    void affineTranslates() {
        const auto input = solid(64, 64, {50, 50, 50}, {{0, 24, 24, 40, 40}});
        const auto out = affineWarp(input, {1.0, 0.6, 0.5}, 100, 64);
        QCOMPARE(out.rgb.cols, 100);
        QVERIFY2(near(out.boxes[0], 52, 24, 68, 40), qPrintable(describe(out.boxes[0])));
        QCOMPARE(int(out.rgb.at<cv::Vec3b>(10, 5)[0]), kPadValue); // uncovered border is 114
        QCOMPARE(int(out.rgb.at<cv::Vec3b>(10, 50)[0]), 50);
    }
    void mirroredAffineIsTheAffineFlipped() {
        // affineWarp's mirror against affineWarp then flipHorizontal: the same bytes and boxes, for random
        // images, boxes and draws, the identity warp (a copy) among them.
        cv::RNG noise(13);
        Rng rng(14);
        for (int trial = 0; trial < 60; ++trial) {
            const int width = noise.uniform(8, 90), height = noise.uniform(8, 70);
            LabeledImage input;
            input.rgb = cv::Mat(height, width, CV_8UC3);
            noise.fill(input.rgb, cv::RNG::UNIFORM, 0, 256);
            for (int k = 0; k < 3; ++k) {
                const float x = noise.uniform(0.f, width - 4.f), y = noise.uniform(0.f, height - 4.f);
                input.boxes.push_back(
                    {k, x, y, x + noise.uniform(3.f, width - x), y + noise.uniform(3.f, height - y)});
            }
            const bool identity = trial % 6 == 0;
            const AffineParams params = identity ? AffineParams{} : drawAffine(rng, 0.5, 0.1);
            const int outWidth = identity ? width : noise.uniform(8, 100),
                      outHeight = identity ? height : noise.uniform(8, 80);
            auto expected = affineWarp(input, params, outWidth, outHeight);
            flipHorizontal(expected);
            const auto ours = affineWarp(input, params, outWidth, outHeight, true);
            QVERIFY2(cv::norm(ours.rgb, expected.rgb, cv::NORM_INF) == 0,
                     qPrintable(QString("trial %1").arg(trial)));
            QVERIFY(ours.boxes == expected.boxes);
        }
    }
    void separableWarpIsOpenCvsExactly() {
        // Random images, scales (one for both axes or one each), offsets and output sizes, both border
        // types, the source and the output regions of larger images, tiny sources: every pixel equal to
        // cv::warpAffine's.
        cv::RNG rng(7);
        int cases = 0;
        for (int trial = 0; trial < 300; ++trial) {
            // Every tenth trial the size of a training image (the lanes' long runs).
            const bool large = trial % 10 == 7;
            const int sourceWidth = trial % 37 == 0 ? 1 : large ? rng.uniform(500, 700) : rng.uniform(2, 160);
            const int sourceHeight = trial % 41 == 0 ? 1
                                     : large         ? rng.uniform(300, 500)
                                                     : rng.uniform(2, 120);
            cv::Mat whole(sourceHeight + 6, sourceWidth + 9, CV_8UC3);
            rng.fill(whole, cv::RNG::UNIFORM, 0, 256);
            const cv::Mat source = whole(cv::Rect(4, 3, sourceWidth, sourceHeight));
            const double scale = trial % 5 == 0 ? 1.0 : std::exp(rng.uniform(std::log(0.2), std::log(3.0)));
            // Every third trial scales y apart from x (a deferred resize's warp).
            const double scaleY = trial % 3 == 0 ? scale * rng.uniform(0.7, 1.4) : scale;
            const double offsetX = rng.uniform(-80.0, 80.0), offsetY = rng.uniform(-80.0, 80.0);
            const cv::Size size = large ? cv::Size(rng.uniform(300, 700), rng.uniform(200, 640))
                                        : cv::Size(rng.uniform(1, 150), rng.uniform(1, 110));
            const int border = trial % 2 ? cv::BORDER_REPLICATE : cv::BORDER_CONSTANT;
            const cv::Matx23d m(scale, 0, offsetX, 0, scaleY, offsetY);
            cv::Mat expected;
            cv::warpAffine(source, expected, m, size, cv::INTER_LINEAR, border,
                           cv::Scalar(kPadValue, kPadValue, kPadValue));
            cv::Mat canvas(size.height + 4, size.width + 4, CV_8UC3, cv::Scalar(1, 2, 3));
            cv::Mat ours = canvas(cv::Rect(2, 2, size.width, size.height));
            if (scaleY == scale)
                warpScaleTranslate(source, ours, scale, offsetX, offsetY, border);
            else
                warpScaleTranslate(source, ours, scale, scaleY, offsetX, offsetY, border);
            cv::Mat difference;
            cv::absdiff(ours, expected, difference);
            const int differing = cv::countNonZero(difference.reshape(1));
            QVERIFY2(differing == 0,
                     qPrintable(QString("trial %1: %2 values differ (source %3x%4, scale %5, "
                                        "offset %6 %7, output %8x%9, border %10, y scale %11)")
                                    .arg(trial)
                                    .arg(differing)
                                    .arg(sourceWidth)
                                    .arg(sourceHeight)
                                    .arg(scale)
                                    .arg(offsetX)
                                    .arg(offsetY)
                                    .arg(size.width)
                                    .arg(size.height)
                                    .arg(border)
                                    .arg(scaleY)));
            // The frame around the output region is left alone.
            cv::Mat frame = canvas.clone();
            frame(cv::Rect(2, 2, size.width, size.height)).setTo(cv::Scalar(1, 2, 3));
            const cv::Mat untouched(canvas.size(), CV_8UC3, cv::Scalar(1, 2, 3));
            QCOMPARE(cv::countNonZero(cv::Mat(frame != untouched).reshape(1)), 0);
            // Mirrored: cv::flip of the same pixels (the columns' taps right to left, lanes included).
            cv::Mat flipped, mirrored(size, CV_8UC3);
            cv::flip(expected, flipped, 1);
            warpScaleTranslate(source, mirrored, scale, scaleY, offsetX, offsetY, border, kPadValue, true);
            QVERIFY2(cv::norm(mirrored, flipped, cv::NORM_INF) == 0,
                     qPrintable(QString("trial %1, mirrored: %2 values differ")
                                    .arg(trial)
                                    .arg(cv::countNonZero(cv::Mat(mirrored != flipped).reshape(1)))));
            ++cases;
        }
        QCOMPARE(cases, 300);
    }
    void separableWarpReadsNothingPastTheImage() {
        // The image's last byte just before a page the process may not read: the warp's 16-byte loads read
        // the last rows from a copy (a load past the row there would end the test with a fault), and the
        // pixels are still cv::warpAffine's. Large and small scales, one source pixel or many a lane.
        const long page = sysconf(_SC_PAGESIZE);
        const int width = 101, height = 37;
        const size_t bytes = 3 * static_cast<size_t>(width) * height;
        const size_t mapped = (bytes / page + 2) * page;
        void* memory = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        QVERIFY(memory != MAP_FAILED);
        auto* guard = static_cast<std::uint8_t*>(memory) + mapped - page;
        QCOMPARE(mprotect(guard, page, PROT_NONE), 0);
        cv::Mat source(height, width, CV_8UC3, guard - bytes);
        cv::RNG rng(11);
        rng.fill(source, cv::RNG::UNIFORM, 0, 256);
        for (const double scale : {0.3, 0.45, 0.8, 1.0, 1.7, 2.5})
            for (const int border : {cv::BORDER_REPLICATE, cv::BORDER_CONSTANT}) {
                const cv::Matx23d m(scale, 0, -3.7, 0, scale, -2.2);
                const cv::Size size(static_cast<int>(width * scale) + 8,
                                    static_cast<int>(height * scale) + 8);
                cv::Mat expected, ours(size, CV_8UC3);
                cv::warpAffine(source, expected, m, size, cv::INTER_LINEAR, border,
                               cv::Scalar(kPadValue, kPadValue, kPadValue));
                warpScaleTranslate(source, ours, scale, -3.7, -2.2, border);
                QVERIFY2(cv::norm(ours, expected, cv::NORM_INF) == 0,
                         qPrintable(QString("scale %1, border %2").arg(scale).arg(border)));
            }
        munmap(memory, mapped);
    }
    void flipMirrorsBoxesAndPixels() {
        auto image = solid(64, 32, {0, 0, 0}, {{0, 10, 5, 20, 15}});
        image.rgb.at<cv::Vec3b>(0, 2) = cv::Vec3b(255, 0, 0);
        flipHorizontal(image);
        QVERIFY(near(image.boxes[0], 44, 5, 54, 15));
        QCOMPARE(int(image.rgb.at<cv::Vec3b>(0, 61)[0]), 255);
    }
    void flipIsOpenCvsFlip() {
        // Every width from 1 to 70 (the shuffle's steps of five and the loop after them), random pixels, a
        // region of a wider image among them: the same bytes as cv::flip, nothing outside the region moved.
        cv::RNG rng(5);
        for (int width = 1; width <= 70; ++width) {
            cv::Mat wide(3, width + 4, CV_8UC3);
            rng.fill(wide, cv::RNG::UNIFORM, 0, 256);
            const cv::Rect inside(width % 4, 0, width, 3);
            cv::Mat expected = wide.clone();
            cv::Mat expectedRegion = expected(inside);
            cv::flip(expectedRegion, expectedRegion, 1);
            LabeledImage image;
            image.rgb = wide(inside);
            flipHorizontal(image);
            QVERIFY2(cv::norm(wide, expected, cv::NORM_INF) == 0, qPrintable(QString("width %1").arg(width)));
        }
    }
    void jitterAndFlipIsTheJitterThenTheFlip() {
        // One pass (each row mirrored after its jitter) against the two: the same draws from the generator,
        // the same bytes and boxes, flipped or not, with and without a jitter, both kernels, odd widths.
        cv::RNG noise(9);
        int flipped = 0;
        for (int trial = 0; trial < 60; ++trial) {
            const int width = 1 + trial * 7 % 83, height = 1 + trial % 5;
            LabeledImage image;
            image.rgb = cv::Mat(height, width, CV_8UC3);
            noise.fill(image.rgb, cv::RNG::UNIFORM, 0, 256);
            image.boxes = {{1, 0.5f, 0, float(width) / 2, 1}};
            const double gain = trial % 6 == 0 ? 0 : 1; // no jitter at all every sixth trial
            Rng ours(trial), theirs(trial);
            LabeledImage fused = image, expected = image;
            expected.rgb = image.rgb.clone();
            jitterAndFlip(fused, 0.015 * gain, 0.7 * gain, 0.4 * gain, 0.5, ours);
            if (gain != 0) {
                std::uniform_real_distribution<double> signed1(-1, 1);
                const double h = signed1(theirs) * 0.015, s = signed1(theirs) * 0.7,
                             v = signed1(theirs) * 0.4;
                hsvApply(expected.rgb, h * 180, s + 1, v + 1);
            }
            const bool flip = std::uniform_real_distribution<double>(0, 1)(theirs) < 0.5;
            if (flip)
                flipHorizontal(expected);
            flipped += flip;
            QCOMPARE(ours(), theirs()); // the generator advanced alike
            QVERIFY2(cv::norm(fused.rgb, expected.rgb, cv::NORM_INF) == 0,
                     qPrintable(QString("trial %1").arg(trial)));
            QVERIFY(fused.boxes == expected.boxes);
            // The portable loop mirrors alike.
            cv::Mat portable = image.rgb.clone(), portableExpected = image.rgb.clone();
            hsvApply(portable, 7, 1.2, 0.9, HsvKernel::Portable, true);
            hsvApply(portableExpected, 7, 1.2, 0.9, HsvKernel::Portable);
            cv::flip(portableExpected, portableExpected, 1);
            QCOMPARE(cv::norm(portable, portableExpected, cv::NORM_INF), 0.0);
        }
        QVERIFY(flipped > 15 && flipped < 45);
    }
    void hsvScalesValue() {
        auto image = solid(4, 4, {100, 100, 100}, {});
        hsvApply(image.rgb, 54, 1.5, 0.5);
        const auto pixel = image.rgb.at<cv::Vec3b>(1, 1);
        QCOMPARE(int(pixel[0]), 50); // grey: hue and saturation have nothing to change
        QCOMPARE(int(pixel[2]), 50);
        auto red = solid(2, 2, {200, 0, 0}, {});
        hsvApply(red.rgb, 0, 1.0, 1.0);
        QCOMPARE(int(red.rgb.at<cv::Vec3b>(0, 0)[0]), 200);
    }
    void hsvIsOpenCvsWithinOneLevel() {
        // Every colour the jitter can meet, in a row each of every hue sector, grey and black included.
        cv::Mat rgb(97, 640, CV_8UC3);
        cv::RNG rng(3);
        rng.fill(rgb, cv::RNG::UNIFORM, 0, 256);
        rgb(cv::Rect(0, 0, 640, 1)).setTo(cv::Scalar(90, 90, 90));
        rgb(cv::Rect(0, 1, 640, 1)).setTo(cv::Scalar(0, 0, 0));
        // Hue shifts (r_h * 180) and factors (1 + r): the default gains' extremes, wraps both ways, a half
        // step, the largest gains.
        const double factors[][3] = {
            {0, 1, 1},    {2.7, 1.7, 1.4},  {-2.7, 0.3, 0.6},     {54, 1.5, 0.5},    {180, 2, 2},
            {-180, 0, 0}, {1.26, 1.2, 0.9}, {-0.5, 1.001, 0.999}, {179.5, 1.3, 1.1}, {-93.7, 0.7, 1.6}};
        for (const auto& f : factors) {
            cv::Mat ours = rgb.clone();
            hsvApply(ours, f[0], f[1], f[2]);
            cv::Mat difference, signedDifference;
            cv::absdiff(ours, openCvHsv(rgb, f[0], f[1], f[2]), difference);
            double largest = 0;
            cv::minMaxLoc(difference.reshape(1), nullptr, &largest);
            const double differing = static_cast<double>(cv::countNonZero(difference.reshape(1))) /
                                     static_cast<double>(rgb.total() * 3);
            cv::subtract(ours, openCvHsv(rgb, f[0], f[1], f[2]), signedDifference, cv::noArray(), CV_32S);
            const cv::Scalar bias = cv::mean(signedDifference);
            const QString where = QString("hue shift %1, factors %2 %3").arg(f[0]).arg(f[1]).arg(f[2]);
            // Hue one step off (a different fixed-point table) would move a channel by up to 9 levels;
            // rounding where OpenCV truncates made a third of the values one level brighter.
            QVERIFY2(largest <= 1, qPrintable(where + QString(": a channel differs by %1").arg(largest)));
            QVERIFY2(differing < 0.005,
                     qPrintable(where + QString(": %1 of the values differ").arg(differing)));
            for (int c = 0; c < 3; ++c)
                QVERIFY2(
                    std::abs(bias[c]) < 0.005,
                    qPrintable(where + QString(": channel %1 is off by %2 on average").arg(c).arg(bias[c])));
        }
    }
    void hsvKernelsGiveTheSameBytes() {
        // The AVX2 kernel and, where the CPU has AVX-512 with VBMI, the AVX-512 one (Fastest) against the
        // portable loop: random pixels, the extremes of every channel, greys (and runs of one grey, which the
        // kernels write 32 pixels at a time), widths that leave every count of pixels for the AVX-512
        // kernel's single groups of sixteen, the AVX2 group of eight and the loop, regions of a wider image
        // (rows not contiguous), and jitters from the default gains to the largest: nearly all with the
        // jitter's tables in closed form, a few (a factor of exactly 0.7, a shift just short of 180) whose
        // tables no closed form gives, which the kernel reads with gathers.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
        if (!__builtin_cpu_supports("avx2"))
            QSKIP("this CPU has no AVX2: only the portable loop runs here");
#else
        QSKIP("not an x86-64 build: only the portable loop exists here");
#endif
        qInfo(hsvAvx512Available() ? "the AVX-512 kernel (Fastest) and the AVX2 one against the portable loop"
                                   : "this CPU has no AVX-512 with VBMI: Fastest is the AVX2 kernel");
        cv::RNG rng(11);
        int compared = 0, closedForms = 0, gathered = 0, greyRuns = 0;
        for (int trial = 0; trial < 120; ++trial) {
            const int width = 1 + (trial * 37) % 203, height = 1 + trial % 9;
            cv::Mat wide(height, width + 5, CV_8UC3);
            rng.fill(wide, cv::RNG::UNIFORM, 0, 256);
            // Channels at 0 or 255 only: zero differences and saturation, every sector edge.
            if (trial % 3 == 1)
                wide = (wide > 127) & cv::Scalar(255, 255, 255);
            if (trial % 5 == 2)
                wide.row(0).setTo(cv::Scalar(114, 114, 114));
            if (trial % 7 == 3) { // greys of every level, whole rows of them
                cv::Mat level;
                cv::extractChannel(wide, level, 0);
                cv::merge(std::vector<cv::Mat>{level, level, level}, wide);
            }
            // Runs of one grey (the kernel's blocks of 32), a level per row, anywhere; also in one of the two
            // jitters a trial in twenty gives without a closed form (read with gathers).
            if (trial % 4 == 0 || trial % 20 == 5)
                for (int y = 0; y < height; ++y) {
                    const int level = rng.uniform(0, 256), from = rng.uniform(0, width + 5);
                    wide.row(y)
                        .colRange(from, std::min(width + 5, from + rng.uniform(1, 120)))
                        .setTo(cv::Scalar(level, level, level));
                    ++greyRuns;
                }
            const cv::Mat source = wide(cv::Rect(trial % 5, 0, width, height));
            double hue = trial < 4 ? (trial % 2 ? 180.0 : -180.0)
                                   : rng.uniform(-1.0, 1.0) * 180 * (trial % 2 ? 1 : 0.015);
            const double sat = trial < 4 ? (trial < 2 ? 0.0 : 2.0) : 1 + rng.uniform(-1.0, 1.0) * 0.7;
            double val = trial < 4 ? (trial == 1 ? 2.0 : 0.0) : 1 + rng.uniform(-1.0, 1.0) * 0.4;
            if (trial % 20 == 5) // 10 x 0.7 is 7 in double and 6.9999999 in float
                val = 0.7;
            if (trial % 20 == 6) // 1 + 179.99999999999997 rounds to 181, 0 + it truncates to 179
                hue = std::nextafter(180.0, 0.0);
            (hsvTablesInClosedForm(hue, sat, val) ? closedForms : gathered) += 1;
            cv::Mat fastest = source.clone(), avx2 = source.clone(), portable = source.clone();
            cv::Mat region = wide.clone(), regionRef = wide.clone();
            hsvApply(fastest, hue, sat, val, HsvKernel::Fastest);
            hsvApply(avx2, hue, sat, val, HsvKernel::Avx2);
            hsvApply(portable, hue, sat, val, HsvKernel::Portable);
            cv::Mat inPlace = region(cv::Rect(trial % 5, 0, width, height));
            hsvApply(inPlace, hue, sat, val, HsvKernel::Fastest);
            const QString where = QString("%1x%2, hue shift %3, factors %4 %5")
                                      .arg(width)
                                      .arg(height)
                                      .arg(hue)
                                      .arg(sat)
                                      .arg(val);
            QVERIFY2(cv::norm(fastest, portable, cv::NORM_INF) == 0, qPrintable(where));
            QVERIFY2(cv::norm(avx2, portable, cv::NORM_INF) == 0, qPrintable(where + " (AVX2)"));
            QVERIFY2(cv::norm(inPlace, portable, cv::NORM_INF) == 0, qPrintable(where + " (a region)"));
            // Nothing outside the region is touched.
            regionRef(cv::Rect(trial % 5, 0, width, height)).setTo(0);
            region(cv::Rect(trial % 5, 0, width, height)).setTo(0);
            QVERIFY2(cv::norm(region, regionRef, cv::NORM_INF) == 0,
                     qPrintable(where + " (outside the region)"));
            compared += width * height;
        }
        QVERIFY(compared > 20000);
        QVERIFY(greyRuns > 100);
        QCOMPARE(gathered, 12);
        QVERIFY(closedForms > 100);
    }
    void clipDropsDegenerateBoxes() {
        std::vector<PixelBox> boxes{{0, -5, -5, 10, 10}, {1, 62, 0, 70, 10}, {2, 5, 5, 6, 30}};
        clipBoxes(boxes, 64, 64);
        QCOMPARE(boxes.size(), size_t(2));
        QVERIFY(near(boxes[0], 0, 0, 10, 10));
        QVERIFY(near(boxes[1], 62, 0, 64, 10));
    }
    void loaderLetterboxesValidationAndSkipsCorruptFiles() {
        QTemporaryDir dir;
        osprey::imaging::Image image;
        image.width = 200;
        image.height = 100;
        image.pixels.assign(200 * 100 * 3, 90);
        const std::filesystem::path good = dir.filePath("good.png").toStdString();
        QVERIFY(osprey::imaging::encodeImage(image, good));
        const std::filesystem::path bad = dir.filePath("bad.jpg").toStdString();
        std::ofstream(bad) << "not a jpeg";
        std::vector<Sample> samples{{1, bad, {{0, 1, 1, 5, 5}}}, {2, good, {{3, 20, 10, 60, 50}}}};
        LoaderOptions options;
        options.mode = LoaderMode::Val;
        options.imgsz = 64;
        options.batch = 2;
        options.workers = 1;
        std::vector<std::string> warnings;
        std::mutex mutex;
        DataLoader loader(samples, options, [&](const std::string& message) {
            std::lock_guard lock(mutex);
            warnings.push_back(message);
        });
        loader.startEpoch({0, false, false});
        auto batch = loader.next();
        QVERIFY(batch.has_value());
        QVERIFY(!loader.next().has_value());
        QCOMPARE(batch->count, 2);
        // Both images are 2:1 (the stand-in too): Ultralytics' rectangular val batch of 64 x 0.5 + half a
        // stride, rounded up to 32, by 64 + half a stride: 96 x 64.
        QCOMPARE(batch->width, 96);
        QCOMPARE(batch->height, 64);
        QCOMPARE(warnings.size(), size_t(1));
        QVERIFY(warnings[0].find("bad.jpg") != std::string::npos);
        // The good image (scaled by 0.32 to 64 x 32, padded 16 on every side) stands in for the bad one and
        // appears itself.
        QCOMPARE(batch->boxes.size(), size_t(2));
        const auto& box = batch->boxes[1];
        QCOMPARE(box.imageIndex, 1);
        QCOMPARE(box.classId, 3);
        QVERIFY(std::abs(box.x1 - 22.4f) < 1e-3f && std::abs(box.y1 - 19.2f) < 1e-3f);
        QVERIFY(std::abs(box.x2 - 35.2f) < 1e-3f && std::abs(box.y2 - 32.0f) < 1e-3f);
        QCOMPARE(int(batch->pixels[0]), kPadValue);
        QCOMPARE(int(batch->pixels[(20 * 96 + 10) * 3]), kPadValue);
        QCOMPARE(int(batch->pixels[(20 * 96 + 30) * 3]), 90);
    }
    void trainBatchesAreReproducible() {
        QTemporaryDir dir;
        std::vector<Sample> samples;
        for (int i = 0; i < 6; ++i) {
            osprey::imaging::Image image;
            image.width = 80;
            image.height = 60;
            image.pixels.assign(80 * 60 * 3, static_cast<std::uint8_t>(30 * i));
            const std::filesystem::path path = dir.filePath(QString("%1.png").arg(i)).toStdString();
            QVERIFY(osprey::imaging::encodeImage(image, path));
            samples.push_back({i, path, {{i % 2, 10, 10, 50, 40}}});
        }
        LoaderOptions options;
        options.imgsz = 64;
        options.batch = 3;
        options.workers = 2;
        DataLoader a(samples, options), b(samples, options);
        options.workers = 0;
        DataLoader c(samples, options);
        for (auto* loader : {&a, &b, &c})
            loader->startEpoch({1, true, true});
        for (int i = 0; i < 2; ++i) {
            const auto ba = a.next(), bb = b.next(), bc = c.next();
            QVERIFY(ba && bb && bc);
            QVERIFY(ba->pixels == bb->pixels);
            QVERIFY(ba->pixels == bc->pixels);
            QCOMPARE(ba->boxes.size(), bc->boxes.size());
            for (const auto& box : ba->boxes) {
                QVERIFY(box.x1 >= 0 && box.x2 <= 64 && box.y1 >= 0 && box.y2 <= 64);
                QVERIFY(box.x2 - box.x1 > 2 && box.y2 - box.y1 > 2);
            }
        }
        QVERIFY(!a.next().has_value());
    }
};

QTEST_APPLESS_MAIN(TestAugment)
#include "tst_augment.moc"
