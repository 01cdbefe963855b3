// Video frames in and out: a written video reads back with its size, frame count and colours, a partial
// file never takes the final name, and bad files fail with their name.
#include "imaging/video.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstdlib>
#include <fstream>

using namespace osprey::imaging;
namespace fs = std::filesystem;

namespace {

/// Frame i: a grey ramp level plus a red square whose left edge moves 4 px per frame.
Image frameAt(int i, int width, int height) {
    Image image;
    image.width = width;
    image.height = height;
    image.pixels.assign(static_cast<size_t>(width) * height * 3, static_cast<std::uint8_t>(40 + 8 * i));
    for (int y = 16; y < 48; ++y)
        for (int x = 8 + 4 * i; x < 40 + 4 * i; ++x) {
            std::uint8_t* p = image.row(y) + x * 3;
            p[0] = 230;
            p[1] = 20;
            p[2] = 20;
        }
    return image;
}

} // namespace

class TestVideo : public QObject {
    Q_OBJECT
private slots:
    void writeThenReadBack_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("mjpeg avi") << "clip.avi";
        QTest::newRow("mpeg4 mp4") << "clip.mp4";
    }
    void writeThenReadBack() {
        QFETCH(QString, name);
        QTemporaryDir dir;
        const fs::path path = fs::path(dir.path().toStdString()) / name.toStdString();
        constexpr int kFrames = 12, kWidth = 160, kHeight = 96;
        {
            auto writer = VideoWriter::open(path, kWidth, kHeight, 10.0);
            QVERIFY2(writer, writer ? "" : writer.message().c_str());
            for (int i = 0; i < kFrames; ++i)
                QVERIFY((*writer)->write(frameAt(i, kWidth, kHeight)));
            QVERIFY2(!fs::exists(path), "the final name appears only after close()");
            QVERIFY((*writer)->close());
        }
        QVERIFY(fs::exists(path));
        auto reader = VideoReader::open(path);
        QVERIFY2(reader, reader ? "" : reader.message().c_str());
        QCOMPARE((*reader)->info().width, kWidth);
        QCOMPARE((*reader)->info().height, kHeight);
        QVERIFY(std::abs((*reader)->info().fps - 10.0) < 0.01);
        Image frame;
        int count = 0;
        while ((*reader)->read(frame)) {
            QCOMPARE(frame.width, kWidth);
            // Lossy codecs: colours within a tolerance. Inside the moving square (red) and the background.
            const std::uint8_t* red = frame.row(32) + (24 + 4 * count) * 3;
            QVERIFY2(red[0] > 170 && red[1] < 80 && red[2] < 80,
                     qPrintable(
                         QString("frame %1 square %2,%3,%4").arg(count).arg(red[0]).arg(red[1]).arg(red[2])));
            const std::uint8_t* grey = frame.row(80) + 150 * 3;
            QVERIFY2(std::abs(int(grey[1]) - (40 + 8 * count)) < 12,
                     qPrintable(QString("frame %1 background %2").arg(count).arg(grey[1])));
            ++count;
        }
        QCOMPARE(count, kFrames);
        QCOMPARE((*reader)->position(), std::int64_t(kFrames));
    }

    void abandonedWriterLeavesNothing() {
        QTemporaryDir dir;
        const fs::path path = fs::path(dir.path().toStdString()) / "gone.avi";
        {
            auto writer = VideoWriter::open(path, 64, 64, 5.0);
            QVERIFY(writer);
            QVERIFY((*writer)->write(frameAt(0, 64, 64)));
            QVERIFY(!(*writer)->write(frameAt(0, 32, 64))); // wrong size is refused
        }
        QVERIFY(fs::is_empty(fs::path(dir.path().toStdString())));
    }

    void badFilesNameTheFile() {
        QTemporaryDir dir;
        const fs::path missing = fs::path(dir.path().toStdString()) / "missing.mp4";
        auto none = VideoReader::open(missing);
        QVERIFY(!none);
        QVERIFY(none.message().find("missing.mp4") != std::string::npos);
        const fs::path junk = fs::path(dir.path().toStdString()) / "junk.mp4";
        std::ofstream(junk) << "this is not a video";
        auto bad = VideoReader::open(junk);
        QVERIFY(!bad);
        QVERIFY2(bad.message().find("junk.mp4") != std::string::npos, bad.message().c_str());
        QVERIFY(!VideoWriter::open(fs::path(dir.path().toStdString()) / "x.gif", 8, 8, 1));
        QVERIFY(isVideoPath("a/B.MP4") && isVideoPath("c.avi") && !isVideoPath("d.jpg"));
    }
};

QTEST_GUILESS_MAIN(TestVideo)
#include "tst_video.moc"
