#include "imaging/image.h"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <iterator>

using namespace osprey;
using namespace osprey::imaging;

namespace {
Image solid(int width, int height, std::uint8_t r, std::uint8_t g, std::uint8_t b) {
    Image image;
    image.width = width;
    image.height = height;
    image.pixels.resize(static_cast<size_t>(width) * height * 3);
    for (size_t i = 0; i < image.pixels.size(); i += 3) {
        image.pixels[i] = r;
        image.pixels[i + 1] = g;
        image.pixels[i + 2] = b;
    }
    return image;
}
// A photo-like test image: gradients, noise and a few shapes, so that every DCT block has detail.
cv::Mat texturedBgr(int width, int height) {
    cv::Mat image(height, width, CV_8UC3);
    cv::RNG rng(7);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            image.at<cv::Vec3b>(y, x) =
                cv::Vec3b(cv::saturate_cast<uchar>(40 + x * 150 / width + rng.gaussian(12)),
                          cv::saturate_cast<uchar>(200 - y * 120 / height + rng.gaussian(12)),
                          cv::saturate_cast<uchar>(90 + rng.gaussian(30)));
    cv::rectangle(image, cv::Rect(width / 5, height / 4, width / 3, height / 3), cv::Scalar(10, 220, 30), -1);
    cv::circle(image, cv::Point(width * 2 / 3, height / 2), height / 5, cv::Scalar(250, 40, 200), -1);
    return image;
}

std::vector<std::uint8_t> readBytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// The JPEG with an EXIF APP1 segment (big-endian TIFF, one IFD entry: Orientation) right after its SOI.
std::vector<std::uint8_t> withOrientation(const std::vector<std::uint8_t>& jpeg, int orientation) {
    const std::vector<std::uint8_t> tiff = {
        'M',  'M',  0, 42, 0, 0, 0, 8, 0, 1,
        0x01, 0x12, 0, 3,  0, 0, 0, 1, 0, static_cast<std::uint8_t>(orientation),
        0,    0,    0, 0,  0, 0};
    const std::string exif("Exif\0\0", 6);
    const size_t length = exif.size() + tiff.size() + 2;
    std::vector<std::uint8_t> out{0xFF,
                                  0xD8,
                                  0xFF,
                                  0xE1,
                                  static_cast<std::uint8_t>(length >> 8),
                                  static_cast<std::uint8_t>(length & 0xFF)};
    out.reserve(jpeg.size() + length + 2);
    for (const char c : exif)
        out.push_back(static_cast<std::uint8_t>(c));
    for (const std::uint8_t byte : tiff)
        out.push_back(byte);
    for (size_t i = 2; i < jpeg.size(); ++i) // after the JPEG's own SOI
        out.push_back(jpeg[i]);
    return out;
}

// The file as cv::imread decodes it (with `flags`), in RGB order.
cv::Mat openCvRgb(const std::filesystem::path& path, int flags = cv::IMREAD_COLOR) {
    cv::Mat rgb;
    cv::cvtColor(cv::imread(path.string(), flags), rgb, cv::COLOR_BGR2RGB);
    return rgb;
}

// Pixels that differ between an Image and a Mat of the same size; -1 when the sizes differ.
long long differingValues(const Image& image, const cv::Mat& mat) {
    if (image.width != mat.cols || image.height != mat.rows || image.channels != mat.channels())
        return -1;
    long long differing = 0;
    for (int y = 0; y < image.height; ++y)
        for (int i = 0; i < image.width * image.channels; ++i)
            differing += image.row(y)[i] != mat.ptr<std::uint8_t>(y)[i];
    return differing;
}

} // namespace

class TestImage : public QObject {
    Q_OBJECT
private slots:
    void encodeDecodeRoundTripKeepsSizeAndColour() {
        QTemporaryDir dir;
        const auto png = std::filesystem::path(dir.path().toStdString()) / "a.png";
        QVERIFY(encodeImage(solid(37, 21, 200, 10, 30), png).hasValue());
        const auto size = readImageSize(png);
        QVERIFY(size.hasValue());
        QCOMPARE(size->width, 37);
        QCOMPARE(size->height, 21);
        const auto decoded = decodeImage(png);
        QVERIFY(decoded.hasValue());
        QCOMPARE(int(decoded->pixels[0]), 200); // RGB order survives the BGR round trip
        QCOMPARE(int(decoded->pixels[2]), 30);

        const auto jpg = std::filesystem::path(dir.path().toStdString()) / "b.jpg";
        QVERIFY(encodeImage(solid(64, 48, 0, 0, 255), jpg).hasValue());
        const auto jpegSize = readImageSize(jpg);
        QVERIFY(jpegSize.hasValue());
        QCOMPARE(jpegSize->width, 64);
        QCOMPARE(jpegSize->height, 48);
        QVERIFY(!jpegSize->exifRotated);
    }
    void corruptAndMissingFilesFailWithTheirName() {
        QTemporaryDir dir;
        const auto bad = std::filesystem::path(dir.path().toStdString()) / "bad.jpg";
        std::ofstream(bad) << "\xFF\xD8 not a jpeg";
        const auto decoded = decodeImage(bad);
        QVERIFY(!decoded.hasValue());
        QVERIFY(decoded.message().find("bad.jpg") != std::string::npos);
        QVERIFY(!readImageSize(bad).hasValue());
        const auto missing = decodeImage(std::filesystem::path(dir.path().toStdString()) / "none.png");
        QCOMPARE(QString::fromStdString(missing.error().code), QString("missing"));
    }
    void decodeJpegGivesOpenCvsPixels() {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        const auto colour = root / "colour.jpg", grey = root / "grey.jpg";
        QVERIFY(cv::imwrite(colour.string(), texturedBgr(203, 117), {cv::IMWRITE_JPEG_QUALITY, 90}));
        cv::Mat greyMat;
        cv::cvtColor(texturedBgr(64, 40), greyMat, cv::COLOR_BGR2GRAY);
        QVERIFY(cv::imwrite(grey.string(), greyMat));
        for (const auto& path : {colour, grey}) {
            const auto decoded = decodeJpeg(path);
            QVERIFY2(decoded.hasValue(), decoded ? "" : decoded.message().c_str());
            QCOMPARE(decoded->channels, 3);
            QCOMPARE(differingValues(*decoded, openCvRgb(path)), 0LL);
            QCOMPARE(differingValues(decodeImage(path).value(), openCvRgb(path)), 0LL); // decodeImage uses it
        }
    }
    void decodeJpegReducesTheDctScaleDownToTheLongSideAsked() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "large.jpg";
        QVERIFY(cv::imwrite(path.string(), texturedBgr(1000, 500), {cv::IMWRITE_JPEG_QUALITY, 90}));
        // The smallest of 1/2, 1/4, 1/8 whose long side is still at least the one asked for.
        const struct {
            int minLongSide, width, height, flags;
        } cases[] = {{0, 1000, 500, cv::IMREAD_COLOR},
                     {600, 1000, 500, cv::IMREAD_COLOR},
                     {500, 500, 250, cv::IMREAD_REDUCED_COLOR_2},
                     {250, 250, 125, cv::IMREAD_REDUCED_COLOR_4},
                     {240, 250, 125, cv::IMREAD_REDUCED_COLOR_4},
                     {125, 125, 63, cv::IMREAD_REDUCED_COLOR_8},
                     {1, 125, 63, cv::IMREAD_REDUCED_COLOR_8}};
        for (const auto& c : cases) {
            const auto decoded = decodeJpeg(path, c.minLongSide);
            QVERIFY(decoded.hasValue());
            QCOMPARE(decoded->width, c.width);
            QCOMPARE(decoded->height, c.height);
            QCOMPARE(differingValues(*decoded, openCvRgb(path, c.flags)), 0LL); // OpenCV's DCT scaling
        }
    }
    void decodeJpegAppliesTheExifOrientationAsOpenCvDoes() {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        QVERIFY(
            cv::imwrite((root / "plain.jpg").string(), texturedBgr(48, 32), {cv::IMWRITE_JPEG_QUALITY, 95}));
        const auto plain = readBytes(root / "plain.jpg");
        for (int orientation = 1; orientation <= 8; ++orientation) {
            const auto path = root / QString("o%1.jpg").arg(orientation).toStdString();
            writeBytes(path, withOrientation(plain, orientation));
            const auto decoded = decodeJpeg(path);
            QVERIFY(decoded.hasValue());
            const bool transposed = orientation >= 5;
            QCOMPARE(decoded->width, transposed ? 32 : 48);
            QCOMPARE(decoded->height, transposed ? 48 : 32);
            QCOMPARE(readImageSize(path)->width, decoded->width);
            QCOMPARE(readImageSize(path)->exifRotated, transposed);
            QCOMPARE(differingValues(*decoded, openCvRgb(path)), 0LL);
            // Into the caller's memory (filled with a marker first): asked once, at the turned size, and
            // every byte written with the same pixels.
            Image into;
            int asked = 0;
            const auto status = decodeJpeg(path, 0, [&](int width, int height) {
                ++asked;
                into.width = width;
                into.height = height;
                into.pixels.assign(static_cast<size_t>(width) * height * 3 + 1, 0xA5);
                return into.pixels.data();
            });
            QVERIFY(status.hasValue());
            QCOMPARE(asked, 1);
            QCOMPARE(into.pixels.back(), std::uint8_t(0xA5)); // the byte after the image is left alone
            into.pixels.pop_back();
            QVERIFY(into.pixels == decoded->pixels);
            const auto refused = decodeJpeg(path, 0, [](int, int) -> std::uint8_t* { return nullptr; });
            QCOMPARE(QString::fromStdString(refused.error().code), QString("too_large"));
            QVERIFY(refused.message().find(path.filename().string()) != std::string::npos);
            const auto thrown =
                decodeJpeg(path, 0, [](int, int) -> std::uint8_t* { throw std::bad_alloc(); });
            QCOMPARE(QString::fromStdString(thrown.error().code), QString("too_large"));
        }
    }
    void decodeJpegRefusesWhatIsNotAJpegWithTheFileName() {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        const auto missing = decodeJpeg(root / "none.jpg");
        QCOMPARE(QString::fromStdString(missing.error().code), QString("missing"));
        writeBytes(root / "png.jpg", {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A});
        const auto png = decodeJpeg(root / "png.jpg");
        QCOMPARE(QString::fromStdString(png.error().code), QString("corrupt"));
        QVERIFY(png.message().find("png.jpg") != std::string::npos);
        writeBytes(root / "garbage.jpg", {0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x03, 0x11, 0x22, 0x33});
        const auto garbage = decodeJpeg(root / "garbage.jpg");
        QCOMPARE(QString::fromStdString(garbage.error().code), QString("corrupt"));
        QVERIFY2(garbage.message().find("garbage.jpg: cannot decode JPEG: ") != std::string::npos,
                 garbage.message().c_str());
        // A frame header declaring 40000 x 40000: refused before any pixel is allocated.
        QVERIFY(cv::imwrite((root / "small.jpg").string(), texturedBgr(16, 16)));
        auto bytes = readBytes(root / "small.jpg");
        for (size_t i = 2; i + 8 < bytes.size(); ++i)
            if (bytes[i] == 0xFF && bytes[i + 1] == 0xC0) {
                bytes[i + 5] = 0x9C, bytes[i + 6] = 0x40, bytes[i + 7] = 0x9C, bytes[i + 8] = 0x40;
                break;
            }
        writeBytes(root / "huge.jpg", bytes);
        const auto huge = decodeJpeg(root / "huge.jpg");
        QCOMPARE(QString::fromStdString(huge.error().code), QString("too_large"));
        QVERIFY(huge.message().find("huge.jpg") != std::string::npos);
    }
    void letterboxCentresAndPads() {
        Letterbox info;
        const Image out = letterbox(solid(200, 100, 255, 255, 255), 320, 32, false, &info);
        QCOMPARE(out.width, 320);
        QCOMPARE(out.height, 320);
        QCOMPARE(info.scale, 1.6);
        QCOMPARE(info.padX, 0.0);
        QCOMPARE(info.padY, 80.0); // (320 - 160) / 2
        QCOMPARE(int(out.row(0)[0]), 114);
        QCOMPARE(int(out.row(160)[0]), 255);
        const Image rect = letterbox(solid(200, 100, 255, 255, 255), 320, 32, true, &info);
        QCOMPARE(rect.width, 320);
        QCOMPARE(rect.height, 160);
        QCOMPARE(info.padY, 0.0);
    }
};

QTEST_GUILESS_MAIN(TestImage)
#include "tst_image.moc"
