#include "imaging/image.h"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

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
