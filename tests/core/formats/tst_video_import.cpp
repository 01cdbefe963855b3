// Videos imported as frames: files written here by OpenCV's FFmpeg encoders (MJPEG in .avi, MPEG-4 part 2
// in .mp4, H.264 in .mkv) and by a second, hand-written encoder (an MJPEG AVI muxed byte by byte below, no
// FFmpeg involved), truncated ones included. Sampling gives exactly the expected frame indices, provenance
// is stored and read back, the same frames imported twice are found once, and bad files are named.
#include "formats/folder_watch.h"
#include "formats/video_import.h"
#include "imaging/image.h"
#include "imaging/perceptual_hash.h"
#include "imaging/video.h"
#include "project/project.h"

#include <opencv2/videoio.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <fstream>
#include <random>
#include <set>
#include <thread>

using namespace osprey;
namespace fs = std::filesystem;

namespace {

constexpr int kWidth = 160, kHeight = 96;

/// A picture of scene `scene`: random 8x8-pixel grey-blue blocks (every scene looks different to a
/// perceptual hash), plus a little per-frame noise `noiseSeed` (the same scene stays a near-duplicate).
imaging::Image sceneImage(int scene, int noiseSeed) {
    imaging::Image image;
    image.width = kWidth;
    image.height = kHeight;
    image.pixels.resize(static_cast<size_t>(kWidth) * kHeight * 3);
    std::mt19937 blocks(static_cast<unsigned>(1000 + scene));
    std::vector<int> levels((kWidth / 8) * (kHeight / 8));
    for (auto& level : levels)
        level = static_cast<int>(blocks() % 220) + 20;
    std::mt19937 noise(static_cast<unsigned>(noiseSeed));
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
            const int level = levels[(y / 8) * (kWidth / 8) + x / 8] + static_cast<int>(noise() % 5) - 2;
            std::uint8_t* p = image.row(y) + x * 3;
            p[0] = static_cast<std::uint8_t>(std::clamp(level, 0, 255));
            p[1] = static_cast<std::uint8_t>(std::clamp(level, 0, 255));
            p[2] = static_cast<std::uint8_t>(std::clamp(255 - level, 0, 255));
        }
    return image;
}

/// Writes `frames` frames with OpenCV's VideoWriter (FFmpeg backend); frame i shows scene sceneOf(i).
void writeWithOpenCv(const fs::path& path, const char* fourcc, int frames, double fps,
                     const std::function<int(int)>& sceneOf) {
    cv::VideoWriter writer;
    QVERIFY2(writer.open(path.string(), cv::CAP_FFMPEG,
                         cv::VideoWriter::fourcc(fourcc[0], fourcc[1], fourcc[2], fourcc[3]), fps,
                         cv::Size(kWidth, kHeight)),
             path.c_str());
    for (int i = 0; i < frames; ++i) {
        imaging::Image rgb = sceneImage(sceneOf(i), i);
        cv::Mat bgr(kHeight, kWidth, CV_8UC3);
        for (int p = 0; p < kWidth * kHeight; ++p)
            for (int c = 0; c < 3; ++c)
                bgr.data[p * 3 + c] = rgb.pixels[static_cast<size_t>(p) * 3 + 2 - c];
        writer.write(bgr);
    }
    writer.release();
    QVERIFY(fs::file_size(path) > 1000);
}

// ---- a hand-written Motion-JPEG AVI (RIFF), the second encoder -------------------------------------

void put32(std::string& out, std::uint32_t value) {
    for (int i = 0; i < 4; ++i)
        out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}
void put16(std::string& out, std::uint16_t value) {
    out.push_back(static_cast<char>(value & 0xff));
    out.push_back(static_cast<char>(value >> 8));
}
std::string chunk(const char* id, const std::string& data) {
    std::string out(id, 4);
    put32(out, static_cast<std::uint32_t>(data.size()));
    out += data;
    if (data.size() % 2)
        out.push_back('\0');
    return out;
}
std::string list(const char* type, const std::string& data) {
    return chunk("LIST", std::string(type, 4) + data);
}

/// Frame i: scene i, JPEG-encoded by imaging::encodeImage; muxed here into an AVI with an idx1 index.
void writeHandMadeMjpegAvi(const fs::path& path, const fs::path& scratch, int frames, int fps) {
    std::vector<std::string> jpegs;
    for (int i = 0; i < frames; ++i) {
        const fs::path file = scratch / QString("f%1.jpg").arg(i).toStdString();
        QVERIFY(imaging::encodeImage(sceneImage(i, i), file, 90));
        std::ifstream in(file, std::ios::binary);
        jpegs.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    std::string avih;
    put32(avih, 1000000 / fps); // microseconds per frame
    put32(avih, 0);
    put32(avih, 0);
    put32(avih, 0x10); // AVIF_HASINDEX
    put32(avih, static_cast<std::uint32_t>(frames));
    put32(avih, 0);
    put32(avih, 1); // streams
    put32(avih, 1 << 20);
    put32(avih, kWidth);
    put32(avih, kHeight);
    for (int i = 0; i < 4; ++i)
        put32(avih, 0);
    std::string strh = "vidsMJPG";
    put32(strh, 0);
    put16(strh, 0);
    put16(strh, 0);
    put32(strh, 0);
    put32(strh, 1);   // scale
    put32(strh, fps); // rate: fps = rate / scale
    put32(strh, 0);
    put32(strh, static_cast<std::uint32_t>(frames));
    put32(strh, 1 << 20);
    put32(strh, 0xffffffff);
    put32(strh, 0);
    put16(strh, 0);
    put16(strh, 0);
    put16(strh, kWidth);
    put16(strh, kHeight);
    std::string strf;
    put32(strf, 40);
    put32(strf, kWidth);
    put32(strf, kHeight);
    put16(strf, 1);
    put16(strf, 24);
    strf += "MJPG";
    put32(strf, kWidth * kHeight * 3);
    for (int i = 0; i < 4; ++i)
        put32(strf, 0);
    const std::string hdrl =
        list("hdrl", chunk("avih", avih) + list("strl", chunk("strh", strh) + chunk("strf", strf)));
    std::string movi, idx1;
    for (const auto& jpeg : jpegs) {
        const std::uint32_t offset = static_cast<std::uint32_t>(4 + movi.size()); // from the 'movi' tag
        movi += chunk("00dc", jpeg);
        idx1 += "00dc";
        put32(idx1, 0x10); // key frame
        put32(idx1, offset);
        put32(idx1, static_cast<std::uint32_t>(jpeg.size()));
    }
    const std::string body = "AVI " + hdrl + list("movi", movi) + chunk("idx1", idx1);
    std::string riff = "RIFF";
    put32(riff, static_cast<std::uint32_t>(body.size()));
    std::ofstream(path, std::ios::binary) << riff << body;
}

void truncateToHalf(const fs::path& from, const fs::path& to) {
    std::ifstream in(from, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(to, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
}

/// (frame index, time) of every frame of the project, by frame index.
std::vector<std::pair<std::int64_t, double>> framesOf(project::Project& project) {
    std::vector<std::pair<std::int64_t, double>> frames;
    project::ImageQuery all;
    all.limit = 0;
    for (const auto& image : project.images().list(all).value()) {
        const auto source = project.frames().source(image.id).value();
        if (source)
            frames.emplace_back(source->frame, source->timeSeconds);
    }
    std::sort(frames.begin(), frames.end());
    return frames;
}

std::vector<std::int64_t> indicesOf(project::Project& project) {
    std::vector<std::int64_t> indices;
    for (const auto& [index, time] : framesOf(project))
        indices.push_back(index);
    return indices;
}

QString listText(const std::vector<std::int64_t>& values) {
    QStringList text;
    for (auto value : values)
        text << QString::number(value);
    return text.join(',');
}

struct Fixture {
    QTemporaryDir dir;
    fs::path root() const { return fs::path(dir.path().toStdString()); }
    std::unique_ptr<project::Project> project() {
        return std::move(project::Project::openOrCreate(root() / "project").value());
    }
};

formats::VideoImportSummary importOk(project::Project& project, formats::VideoImportOptions options) {
    auto summary = formats::importVideos(project, options);
    if (!summary)
        qFatal("import failed: %s", summary.message().c_str());
    return *summary;
}

} // namespace

class TestVideoImport : public QObject {
    Q_OBJECT
private slots:
    void samplingKeepsExactlyTheExpectedFrames_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("fourcc");
        QTest::newRow("MJPEG avi (OpenCV)") << "clip.avi"
                                            << "MJPG";
        QTest::newRow("MPEG-4 mp4 (OpenCV)") << "clip.mp4"
                                             << "mp4v";
        QTest::newRow("H.264 mkv (OpenCV, libx264)") << "clip.mkv"
                                                     << "H264";
        QTest::newRow("MJPEG avi (hand-written)") << "hand.avi"
                                                  << "";
    }
    void samplingKeepsExactlyTheExpectedFrames() {
        QFETCH(QString, name);
        QFETCH(QString, fourcc);
        Fixture fixture;
        const fs::path video = fixture.root() / name.toStdString();
        constexpr int kFrames = 40, kFps = 10;
        if (fourcc.isEmpty())
            writeHandMadeMjpegAvi(video, fixture.root(), kFrames, kFps);
        else
            writeWithOpenCv(video, fourcc.toLatin1().constData(), kFrames, kFps, [](int i) { return i; });
        if (QTest::currentTestFailed())
            return;
        struct Case {
            double fps;
            std::int64_t every;
            double start;
            std::optional<double> end;
            std::vector<std::int64_t> expected;
        };
        const std::vector<Case> cases = {
            {2, 0, 0, {}, {0, 5, 10, 15, 20, 25, 30, 35}},
            // 1/3 s slots at 10 fps: the first frame of each slot, ceil(10 k / 3).
            {3, 0, 0, {}, {0, 4, 7, 10, 14, 17, 20, 24, 27, 30, 34, 37}},
            {1, 7, 0, {}, {0, 7, 14, 21, 28, 35}},
            {1, 4, 1.0, 2.5, {10, 14, 18, 22}},
            {2, 0, 1.2, 3.0, {12, 17, 22, 27}},
            {100, 0, 3.5, {}, {35, 36, 37, 38, 39}},
        };
        for (const auto& test : cases) {
            auto project = fixture.project();
            formats::VideoImportOptions options;
            options.source = video;
            options.fps = test.fps;
            options.every = test.every;
            options.startSeconds = test.start;
            options.endSeconds = test.end;
            options.dedupBits = 0;
            const auto summary = importOk(*project, options);
            QVERIFY2(summary.problems.empty(),
                     summary.problems.empty() ? "" : summary.problems[0].text().c_str());
            QCOMPARE(listText(indicesOf(*project)), listText(test.expected));
            QCOMPARE(summary.imported, static_cast<std::int64_t>(test.expected.size()));
            QCOMPARE(summary.videos.size(), size_t(1));
            QCOMPARE(summary.videos[0].framesSampled, static_cast<std::int64_t>(test.expected.size()));
            // Provenance: time is the frame's index over the rate; the image is the JPEG of that frame.
            for (const auto& [index, time] : framesOf(*project))
                QVERIFY2(std::abs(time - index / double(kFps)) < 1e-3,
                         qPrintable(QString("frame %1 at %2 s").arg(index).arg(time)));
            project::ImageQuery all;
            all.limit = 0;
            for (const auto& listed : project->images().list(all).value()) {
                const auto image = project->images().get(listed.id).value();
                QVERIFY(image.frame.has_value());
                QCOMPARE(QString::fromStdString(image.frame->video), QString::fromStdString(video.string()));
                QCOMPARE(image.width, kWidth);
                QCOMPARE(image.height, kHeight);
                QVERIFY(!image.hash.empty());
                const fs::path file = project->resolve(image.path);
                QCOMPARE(file.extension().string(), std::string(".jpg"));
                QVERIFY2(file.lexically_relative(project->folder()).begin()->string() == "images",
                         file.c_str());
                auto decoded = imaging::decodeImage(file);
                QVERIFY(decoded);
                // The decoded JPEG is the frame it claims to be: its hash is that of the scene drawn.
                const auto drawn =
                    imaging::differenceHash(sceneImage(static_cast<int>(image.frame->frame), 0));
                QVERIFY2(imaging::hammingDistance(imaging::differenceHash(*decoded), drawn) <= 4,
                         qPrintable(QString("frame %1").arg(image.frame->frame)));
                QVERIFY(imaging::hammingDistance(image.frame->differenceHash,
                                                 imaging::differenceHash(*decoded)) <= 4);
            }
            project.reset();
            fs::remove_all(fixture.root() / "project");
        }
    }

    void sameFramesImportedTwiceAreFoundOnce() {
        Fixture fixture;
        const fs::path video = fixture.root() / "line.avi";
        writeWithOpenCv(video, "MJPG", 30, 10, [](int i) { return i; });
        auto project = fixture.project();
        formats::VideoImportOptions options;
        options.source = video;
        options.fps = 5;
        const auto first = importOk(*project, options);
        QCOMPARE(first.imported, std::int64_t(15));
        QCOMPARE(first.nearDuplicates, std::int64_t(0));
        // Again, even with the check off: the same video's frames are already there.
        options.dedupBits = 0;
        const auto second = importOk(*project, options);
        QCOMPARE(second.imported, std::int64_t(0));
        QCOMPARE(second.alreadyPresent, std::int64_t(15));
        // A copy under another name: its frames are near-duplicates of the project's.
        fs::create_directories(fixture.root() / "copy");
        fs::copy_file(video, fixture.root() / "copy" / "line.avi");
        options.source = fixture.root() / "copy";
        options.dedupBits = formats::kDefaultDedupBits;
        const auto copy = importOk(*project, options);
        QCOMPARE(copy.imported, std::int64_t(0));
        QCOMPARE(copy.nearDuplicates, std::int64_t(15));
        QCOMPARE(copy.nearDuplicatesOfProject, std::int64_t(15));
        QCOMPARE(project->images().count().value(), std::int64_t(15));
        // A finer sampling adds only the frames the project lacks.
        options.source = video;
        options.fps = 10;
        const auto finer = importOk(*project, options);
        QCOMPARE(finer.alreadyPresent, std::int64_t(15));
        QCOMPARE(finer.imported, std::int64_t(15));
        QCOMPARE(project->images().count().value(), std::int64_t(30));
    }

    void nearDuplicateFramesAreSkipped() {
        // 8 scenes of 5 frames each, every frame with its own noise: one frame per scene is kept.
        Fixture fixture;
        const fs::path video = fixture.root() / "scenes.mp4";
        writeWithOpenCv(video, "mp4v", 40, 10, [](int i) { return i / 5; });
        auto project = fixture.project();
        formats::VideoImportOptions options;
        options.source = video;
        options.every = 1;
        const auto summary = importOk(*project, options);
        QCOMPARE(summary.videos[0].framesSampled, std::int64_t(40));
        QCOMPARE(summary.imported, std::int64_t(8));
        QCOMPARE(summary.nearDuplicates, std::int64_t(32));
        QCOMPARE(summary.nearDuplicatesOfProject, std::int64_t(0));
        QCOMPARE(listText(indicesOf(*project)), QString("0,5,10,15,20,25,30,35"));
        // dedup=0 keeps them all.
        project.reset();
        fs::remove_all(fixture.root() / "project");
        project = fixture.project();
        options.dedupBits = 0;
        QCOMPARE(importOk(*project, options).imported, std::int64_t(40));
    }

    void truncatedVideosImportWhatTheyCanAndSayWhereTheyStopped_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("fourcc");
        QTest::newRow("MJPEG avi (OpenCV)") << "cut.avi"
                                            << "MJPG";
        QTest::newRow("MJPEG avi (hand-written)") << "cut.avi"
                                                  << "";
        QTest::newRow("MPEG-4 mp4 (OpenCV)") << "cut.mp4"
                                             << "mp4v";
        QTest::newRow("H.264 mkv (OpenCV)") << "cut.mkv"
                                            << "H264";
    }
    void truncatedVideosImportWhatTheyCanAndSayWhereTheyStopped() {
        QFETCH(QString, name);
        QFETCH(QString, fourcc);
        Fixture fixture;
        const fs::path whole = fixture.root() / ("whole" + fs::path(name.toStdString()).extension().string());
        constexpr int kFrames = 60;
        if (fourcc.isEmpty())
            writeHandMadeMjpegAvi(whole, fixture.root(), kFrames, 10);
        else
            writeWithOpenCv(whole, fourcc.toLatin1().constData(), kFrames, 10, [](int i) { return i; });
        if (QTest::currentTestFailed())
            return;
        const fs::path cut = fixture.root() / name.toStdString();
        truncateToHalf(whole, cut);
        auto project = fixture.project();
        formats::VideoImportOptions options;
        options.source = cut;
        options.every = 1;
        options.dedupBits = 0;
        const auto summary = importOk(*project, options);
        QCOMPARE(summary.problems.size(), size_t(1));
        const std::string text = summary.problems[0].text();
        qInfo("%s", text.c_str());
        QVERIFY2(text.find(name.toStdString()) != std::string::npos, text.c_str());
        QVERIFY2(summary.imported < kFrames, text.c_str());
        const auto indices = indicesOf(*project);
        QCOMPARE(summary.imported, static_cast<std::int64_t>(indices.size()));
        if (summary.imported > 0) {
            // What was imported is the start of the video, in order, and the message says where it stopped.
            for (std::size_t i = 0; i < indices.size(); ++i)
                QCOMPARE(indices[i], static_cast<std::int64_t>(i));
            const auto decoded = summary.videos.at(0).framesDecoded;
            QVERIFY2(text.find("stopped at frame " + std::to_string(decoded) + " (" +
                               project::videoTimeText(decoded / 10.0) + ") of 60: cannot decode further; " +
                               std::to_string(summary.imported) + " frames imported") != std::string::npos,
                     text.c_str());
            QVERIFY2(summary.imported >= kFrames / 4, text.c_str());
        } else {
            QVERIFY2(text.find("cannot open") != std::string::npos ||
                         text.find("no frame size") != std::string::npos,
                     text.c_str());
        }
    }

    void badFilesAreNamedAndTheOthersImported() {
        Fixture fixture;
        const fs::path folder = fixture.root() / "cams";
        fs::create_directories(folder / "b");
        writeWithOpenCv(folder / "b" / "good.avi", "MJPG", 10, 5, [](int i) { return i; });
        std::ofstream(folder / "a_junk.mp4") << "this is not a video";
        std::ofstream(folder / "empty.mkv");
        std::ofstream(folder / "notes.txt") << "not a video and not looked at";
        auto project = fixture.project();
        formats::VideoImportOptions options;
        options.source = folder;
        options.every = 1;
        const auto summary = importOk(*project, options);
        QCOMPARE(summary.imported, std::int64_t(10));
        QCOMPARE(summary.videosFound, std::int64_t(3));
        QCOMPARE(summary.videos.size(), size_t(1));
        QCOMPARE(summary.problems.size(), size_t(2));
        QVERIFY2(summary.problems[0].text().find("a_junk.mp4") != std::string::npos,
                 summary.problems[0].text().c_str());
        QVERIFY2(summary.problems[1].text().find("empty.mkv") != std::string::npos,
                 summary.problems[1].text().c_str());
        QCOMPARE(QString::fromStdString(summary.videos.at(0).video), QString("b/good.avi"));

        options.source = fixture.root() / "notes.txt";
        std::ofstream(options.source) << "x";
        auto notVideo = formats::importVideos(*project, options);
        QVERIFY(!notVideo);
        QVERIFY2(notVideo.message().find("notes.txt") != std::string::npos, notVideo.message().c_str());
        fs::create_directories(fixture.root() / "none");
        options.source = fixture.root() / "none";
        auto none = formats::importVideos(*project, options);
        QVERIFY(!none);
        QVERIFY2(none.message().find("no video files") != std::string::npos, none.message().c_str());
        options.source = fixture.root() / "missing.mp4";
        auto missing = formats::importVideos(*project, options);
        QVERIFY(!missing);
        QVERIFY2(missing.message().find("missing.mp4") != std::string::npos, missing.message().c_str());
    }

    void cancelKeepsWholeFrames() {
        Fixture fixture;
        const fs::path video = fixture.root() / "long.avi";
        writeWithOpenCv(video, "MJPG", 50, 10, [](int i) { return i; });
        auto project = fixture.project();
        std::atomic<bool> cancel{false};
        formats::VideoImportOptions options;
        options.source = video;
        options.every = 1;
        options.dedupBits = 0;
        options.progress.cancel = &cancel;
        std::int64_t reports = 0;
        options.progress.callback = [&](std::int64_t done, std::int64_t total, std::string_view stage) {
            ++reports;
            QCOMPARE(total, std::int64_t(50));
            QCOMPARE(std::string(stage), std::string("long.avi"));
            if (done >= 20)
                cancel = true;
        };
        const auto summary = importOk(*project, options);
        QVERIFY(summary.cancelled);
        QVERIFY(reports >= 3);
        QCOMPARE(summary.imported, project->images().count().value());
        QVERIFY2(summary.imported >= 20 && summary.imported < 30,
                 qPrintable(QString::number(summary.imported)));
        // Going on later takes the rest, and nothing twice.
        cancel = false;
        options.progress.callback = nullptr;
        const auto rest = importOk(*project, options);
        QCOMPARE(rest.alreadyPresent, summary.imported);
        QCOMPARE(project->images().count().value(), std::int64_t(50));
    }

    void timesAreParsed() {
        QCOMPARE(formats::parseVideoTime("12.5", "start").value(), 12.5);
        QCOMPARE(formats::parseVideoTime("1:30", "start").value(), 90.0);
        QCOMPARE(formats::parseVideoTime("1:02:03.5", "end").value(), 3723.5);
        for (const char* bad : {"", "abc", "1:75", "-3", "1:2:3:4", "1.5:30", "1::2"}) {
            auto parsed = formats::parseVideoTime(bad, "end");
            QVERIFY2(!parsed, bad);
            QVERIFY(parsed.message().find("end=") != std::string::npos);
        }
        QCOMPARE(QString::fromStdString(project::videoTimeText(41.13)), QString("00:41.13"));
        QCOMPARE(QString::fromStdString(project::videoTimeText(3723.456)), QString("1:02:03.46"));
    }

    void differenceHashTellsScenesApart() {
        const auto a = imaging::differenceHash(sceneImage(1, 1));
        QVERIFY(imaging::hammingDistance(a, imaging::differenceHash(sceneImage(1, 2))) <= 2);
        QVERIFY(imaging::hammingDistance(a, imaging::differenceHash(sceneImage(2, 1))) >= 16);
        QCOMPARE(imaging::differenceHash(imaging::Image{}), std::uint64_t(0));
        // Brighter by a constant: the same hash (only neighbour order counts).
        imaging::Image brighter = sceneImage(1, 1);
        for (auto& p : brighter.pixels)
            p = static_cast<std::uint8_t>(std::min(255, p + 10));
        QVERIFY(imaging::hammingDistance(a, imaging::differenceHash(brighter)) <= 3);
    }

    void watchedFolderTakesEachFileOnceAndLeavesTheProjectAlone() {
        // The project lives inside the watched folder: its frames (images/...) are never taken back in.
        Fixture fixture;
        const fs::path watched = fixture.root() / "inbox";
        fs::create_directories(watched / "sub");
        writeWithOpenCv(watched / "sub" / "b.avi", "MJPG", 5, 5, [](int i) { return i; });
        QVERIFY(imaging::encodeImage(sceneImage(50, 0), watched / "a.jpg"));
        std::ofstream(watched / "bad.png") << "not a png";
        std::ofstream(watched / ".hidden.jpg") << "never looked at";
        auto project = std::move(project::Project::openOrCreate(watched / "project").value());
        std::atomic<bool> stop{false};
        formats::WatchOptions options;
        options.folder = watched;
        options.interval = std::chrono::milliseconds(50);
        options.video.every = 1;
        options.video.dedupBits = 0;
        options.video.progress.cancel = &stop;
        std::vector<std::pair<project::TakenFile, std::string>> seen;
        options.onTaken = [&](const project::TakenFile& file, const std::string& problem) {
            seen.emplace_back(file, problem);
        };
        std::thread stopper([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(1000));
            stop = true;
        });
        auto summary = formats::watchFolder(*project, options);
        stopper.join();
        QVERIFY(summary);
        QCOMPARE(seen.size(), std::size_t(3));
        QCOMPARE(summary->files, std::int64_t(3));
        QCOMPARE(summary->images, std::int64_t(6));
        QCOMPARE(QString::fromStdString(seen[0].first.kind + " " +
                                        fs::path(seen[0].first.path).filename().string()),
                 QString("image a.jpg"));
        QCOMPARE(QString::fromStdString(seen[1].first.kind + " " +
                                        fs::path(seen[1].first.path).filename().string()),
                 QString("skipped bad.png"));
        QVERIFY2(seen[1].second.find("bad.png") != std::string::npos, seen[1].second.c_str());
        QCOMPARE(QString::fromStdString(seen[2].first.kind), QString("video"));
        QCOMPARE(seen[2].first.images, std::int64_t(5));
        QCOMPARE(project->images().count().value(), std::int64_t(6));
        QCOMPARE(project->takenFiles().list().value().size(), std::size_t(3));
        // Again: nothing new until a file changes; a rewritten image is a new file whose path the project
        // has, so it is recorded and not added twice.
        stop = false;
        seen.clear();
        bool rewritten = false;
        std::thread later([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            rewritten = imaging::encodeImage(sceneImage(51, 0), watched / "a.jpg").hasValue();
            std::this_thread::sleep_for(std::chrono::milliseconds(700));
            stop = true;
        });
        summary = formats::watchFolder(*project, options);
        later.join();
        QVERIFY(rewritten);
        QVERIFY(summary);
        QCOMPARE(seen.size(), std::size_t(1));
        QCOMPARE(seen[0].first.images, std::int64_t(0));
        QCOMPARE(project->images().count().value(), std::int64_t(6));
        QCOMPARE(project->takenFiles().list().value().size(), std::size_t(4));
        QVERIFY(!formats::watchFolder(*project, {.folder = fixture.root() / "nowhere"}));
    }
};

QTEST_GUILESS_MAIN(TestVideoImport)
#include "tst_video_import.moc"
