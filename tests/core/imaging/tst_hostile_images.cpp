// Hostile image files: a PNG declaring 60,000 x 60,000 pixels is refused from its header (never decoded,
// never allocated), truncated JPEG/PNG files are caught by the completeness check, zero-byte files and
// wrong extensions give named errors or the right size, and no decoder exception escapes.
#include "imaging/image.h"

#include "hostile_images.h"

#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <fstream>

using namespace osprey;
namespace fs = std::filesystem;

class TestHostileImages : public QObject {
    Q_OBJECT
private slots:
    void hugeDeclaredPngIsRefusedBeforeDecoding() {
        QTemporaryDir dir;
        const fs::path path = fs::path(dir.path().toStdString()) / "huge.png";
        test::writeBytes(path, test::pngDeclaring(60000, 60000));
        QVERIFY(fs::file_size(path) < 200);
        const auto start = std::chrono::steady_clock::now();
        const auto size = imaging::readImageSize(path);
        QVERIFY(!size);
        QCOMPARE(size.error().code, std::string("too_large"));
        QVERIFY2(size.message().find("huge.png: the image declares 60000x60000 = 3,600,000,000 pixels, above "
                                     "the limit of 268,435,456 (16384x16384); refused before decoding") !=
                     std::string::npos,
                 size.message().c_str());
        const auto decoded = imaging::decodeImage(path);
        QVERIFY(!decoded);
        QCOMPARE(decoded.error().code, std::string("too_large"));
        const auto bytes = test::pngDeclaring(60000, 60000);
        const auto fromBytes =
            imaging::decodeImageBytes(std::vector<std::uint8_t>(bytes.begin(), bytes.end()), "upload.png");
        QVERIFY(!fromBytes);
        QCOMPARE(fromBytes.error().code, std::string("too_large"));
        // Refused from the header: no time spent decoding.
        QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
        QCOMPARE(imaging::kMaxImagePixels, 268435456LL);
    }

    void imageJustAtTheLimitIsMeasured() {
        QTemporaryDir dir;
        const fs::path path = fs::path(dir.path().toStdString()) / "wide.png";
        test::writeBytes(path, test::pngDeclaring(16384, 16384));
        const auto size = imaging::readImageSize(path);
        QVERIFY2(size.hasValue(), size ? "" : size.message().c_str());
        QCOMPARE(size->width, 16384);
        test::writeBytes(path, test::pngDeclaring(16385, 16384));
        QCOMPARE(imaging::readImageSize(path).error().code, std::string("too_large"));
    }

    void truncatedJpegIsDetected() {
        QTemporaryDir dir;
        const fs::path full = fs::path(dir.path().toStdString()) / "full.jpg";
        test::writeNoiseImage(full, 64, 48);
        const auto ok = imaging::readImageSize(full);
        QVERIFY2(ok.hasValue(), ok ? "" : ok.message().c_str());
        QCOMPARE(ok->width, 64);

        const std::string bytes = test::readBytes(full);
        const fs::path cut = fs::path(dir.path().toStdString()) / "cut.jpg";
        test::writeBytes(cut, bytes.substr(0, bytes.size() * 2 / 3));
        const auto size = imaging::readImageSize(cut);
        QVERIFY(!size);
        QCOMPARE(size.error().code, std::string("truncated"));
        QVERIFY2(size.message().find("cut.jpg: truncated JPEG: the file ends inside the image data") !=
                     std::string::npos,
                 size.message().c_str());

        // Data appended after the end-of-image marker (phones do this) is not truncation.
        const fs::path tail = fs::path(dir.path().toStdString()) / "tail.jpg";
        test::writeBytes(tail, bytes + std::string(3000, 'x'));
        QVERIFY(imaging::readImageSize(tail).hasValue());

        // Cut inside the headers: no start-of-scan at all.
        const fs::path header = fs::path(dir.path().toStdString()) / "header.jpg";
        std::string headerOnly = bytes.substr(0, bytes.find("\xFF\xDA"));
        test::writeBytes(header, headerOnly);
        QCOMPARE(imaging::readImageSize(header).error().code, std::string("truncated"));
    }

    void truncatedPngIsDetected() {
        QTemporaryDir dir;
        const fs::path full = fs::path(dir.path().toStdString()) / "full.png";
        test::writeNoiseImage(full, 32, 32);
        QVERIFY(imaging::readImageSize(full).hasValue());
        const std::string bytes = test::readBytes(full);
        const fs::path cut = fs::path(dir.path().toStdString()) / "cut.png";
        test::writeBytes(cut, bytes.substr(0, bytes.size() - 20));
        const auto size = imaging::readImageSize(cut);
        QVERIFY(!size);
        QVERIFY2(size.message().find("truncated PNG") != std::string::npos, size.message().c_str());
    }

    void zeroByteAndWrongExtension() {
        QTemporaryDir dir;
        const fs::path empty = fs::path(dir.path().toStdString()) / "empty.jpg";
        test::writeBytes(empty, "");
        const auto size = imaging::readImageSize(empty);
        QVERIFY(!size);
        QVERIFY2(size.message().find("empty.jpg: empty image file (0 bytes)") != std::string::npos,
                 size.message().c_str());
        QVERIFY(!imaging::decodeImage(empty));

        // A PNG saved as .jpg: the content decides.
        const fs::path png = fs::path(dir.path().toStdString()) / "real.png";
        test::writeNoiseImage(png, 20, 10);
        const fs::path misnamed = fs::path(dir.path().toStdString()) / "misnamed.jpg";
        fs::copy_file(png, misnamed);
        const auto measured = imaging::readImageSize(misnamed);
        QVERIFY(measured.hasValue());
        QCOMPARE(measured->width, 20);
        QCOMPARE(measured->height, 10);
        QVERIFY(imaging::decodeImage(misnamed).hasValue());

        // Random bytes: a named error, not an exception.
        const fs::path noise = fs::path(dir.path().toStdString()) / "noise.webp";
        test::writeBytes(noise, std::string(300, '\x42'));
        const auto decoded = imaging::decodeImage(noise);
        QVERIFY(!decoded);
        QVERIFY2(decoded.message().find("noise.webp") != std::string::npos, decoded.message().c_str());
    }

    void bmpSizeFromItsHeader() {
        QTemporaryDir dir;
        const fs::path bmp = fs::path(dir.path().toStdString()) / "a.bmp";
        test::writeNoiseImage(bmp, 30, 12);
        const auto size = imaging::readImageSize(bmp);
        QVERIFY2(size.hasValue(), size ? "" : size.message().c_str());
        QCOMPARE(size->width, 30);
        QCOMPARE(size->height, 12);
    }
};

QTEST_GUILESS_MAIN(TestHostileImages)
#include "tst_hostile_images.moc"
