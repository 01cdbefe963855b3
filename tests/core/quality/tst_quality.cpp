// Health check, split and statistics on small hand-built datasets with real image files.
#include "quality/dataset_splitter.h"
#include "quality/dataset_stats.h"
#include "quality/health_check.h"

#include "imaging/image.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>
#include <set>

using namespace osprey;
using namespace osprey::formats;
using namespace osprey::quality;

namespace {

std::filesystem::path writeImage(const std::filesystem::path& path, int width, int height,
                                 std::uint8_t shade) {
    imaging::Image image;
    image.width = width;
    image.height = height;
    image.pixels.assign(static_cast<std::size_t>(width) * height * 3, shade);
    if (!imaging::encodeImage(image, path))
        qFatal("cannot write %s", path.c_str());
    return path;
}

DatasetImage imageAt(const std::filesystem::path& path, int width, int height, std::int64_t id) {
    DatasetImage image;
    image.path = path;
    image.found = std::filesystem::exists(path);
    image.name = path.filename().string();
    image.width = width;
    image.height = height;
    image.id = id;
    return image;
}

DatasetBox box(int cls, double x1, double y1, double x2, double y2) {
    DatasetBox b;
    b.classIndex = cls;
    b.x1 = x1;
    b.y1 = y1;
    b.x2 = x2;
    b.y2 = y2;
    return b;
}

} // namespace

class TestQuality : public QObject {
    Q_OBJECT
private slots:
    void healthCheckFindsEachProblem() {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        Dataset d;
        d.classes = {{"cat", {}}, {"dog", {}}};
        // 0: a clean image with a good box, a duplicated box, a tiny one and one out of bounds.
        auto clean = imageAt(writeImage(root / "a.png", 100, 50, 10), 100, 50, 1);
        clean.labels = LabelState::Present;
        clean.boxes = {box(0, 10, 10, 60, 40), box(0, 10, 10, 60, 40.5), box(1, 0, 0, 0.5, 30),
                       box(1, 50, 10, 101, 20), box(5, 1, 1, 20, 20)};
        d.images.push_back(clean);
        // 1: same content as a.png -> duplicate image; degenerate box.
        std::filesystem::copy_file(root / "a.png", root / "b.png");
        auto twin = imageAt(root / "b.png", 100, 50, 2);
        twin.labels = LabelState::Present;
        twin.boxes = {box(0, 30, 10, 20, 40)};
        d.images.push_back(twin);
        // 2: missing file, unlabeled.
        d.images.push_back(imageAt(root / "gone.png", 10, 10, 3));
        // 3: corrupt file, empty label file (negative).
        {
            std::ofstream out(root / "bad.jpg", std::ios::binary);
            out << "\xFF\xD8\xFF\xE0 not really a jpeg";
        }
        auto corrupt = imageAt(root / "bad.jpg", 10, 10, 4);
        corrupt.labels = LabelState::Empty;
        d.images.push_back(corrupt);
        // 4: stored size differs from the file.
        auto wrongSize = imageAt(writeImage(root / "c.png", 40, 30, 200), 30, 40, 5);
        wrongSize.labels = LabelState::Empty;
        d.images.push_back(wrongSize);

        std::vector<Problem> readProblems = {
            {formats::Severity::Error, ProblemKind::LabelWithoutImage, "labels/x.txt", "",
             "label file has no image", "label file"},
        };
        HealthOptions options;
        options.imgsz = 640;
        auto report = checkDataset(d, options, readProblems);
        QVERIFY(report.hasValue());
        QCOMPARE(report->images, std::int64_t(5));
        QCOMPARE(report->boxes, std::int64_t(6));
        QCOMPARE(report->count(Check::MissingImage), std::int64_t(1));
        QCOMPARE(report->count(Check::CorruptImage), std::int64_t(1));
        QCOMPARE(report->count(Check::LabelWithoutImage), std::int64_t(1));
        QCOMPARE(report->count(Check::ImageWithoutLabel), std::int64_t(1));
        QCOMPARE(report->count(Check::EmptyLabel), std::int64_t(2));
        QCOMPARE(report->count(Check::BoxOutOfBounds), std::int64_t(1));
        QCOMPARE(report->count(Check::BoxDegenerate), std::int64_t(1));
        QCOMPARE(report->count(Check::BoxDuplicate), std::int64_t(1));
        QCOMPARE(report->count(Check::DuplicateImage), std::int64_t(1));
        QCOMPARE(report->count(Check::ClassOutOfRange), std::int64_t(1));
        // 0.5 px wide on a 100 px image at imgsz 640 = 3.2 px < 4.
        QCOMPARE(report->count(Check::BoxTooSmall), std::int64_t(1));
        QCOMPARE(report->count(Check::SizeMismatch), std::int64_t(1));
        QVERIFY(!report->healthy());
        const auto json = toJson(*report);
        QVERIFY(json.find("\"box_too_small\": 1") != std::string::npos);
        const auto table = toTable(*report);
        QVERIFY2(table.find("3.2x192 px at imgsz 640") != std::string::npos, table.c_str());
        // At imgsz 1280 the box is 6.4 px wide: no longer too small.
        options.imgsz = 1280;
        QCOMPARE(checkDataset(d, options, readProblems)->count(Check::BoxTooSmall), std::int64_t(0));
    }

    void splitIsReproducibleStratifiedAndKeepsTwinsAndLocks() {
        Dataset d;
        d.classes = {{"common", {}}, {"rare", {}}};
        for (int i = 0; i < 200; ++i) {
            DatasetImage image;
            image.name = std::to_string(i) + ".jpg";
            image.path = "/nonexistent/" + image.name;
            image.width = image.height = 100;
            image.id = i + 1;
            image.hash = std::string("h").append(std::to_string(i < 190 ? i : 190)); // 190..199 are identical
            image.boxes.push_back(box(0, 1, 1, 50, 50));
            if (i % 10 == 0)
                image.boxes.push_back(box(1, 1, 1, 20, 20)); // 20 images with the rare class
            d.images.push_back(image);
        }
        d.images[5].split = project::Split::Test;
        d.images[5].splitLocked = true;
        SplitOptions options;
        options.train = 0.8;
        options.val = 0.2;
        options.seed = 7;
        const auto a = planSplit(d, options);
        const auto b = planSplit(d, options);
        QVERIFY(a.hasValue());
        QVERIFY(a->splits == b->splits);
        options.seed = 8;
        QVERIFY(planSplit(d, options)->splits != a->splits);
        QVERIFY(a->splits[5] == project::Split::Test);
        QCOMPARE(a->locked, std::int64_t(1));
        QCOMPARE(a->groupedDuplicates, std::int64_t(9));
        for (int i = 191; i < 200; ++i)
            QVERIFY(a->splits[static_cast<std::size_t>(i)] == a->splits[190]);
        std::map<project::Split, int> images, rare;
        for (std::size_t i = 0; i < d.images.size(); ++i) {
            ++images[a->splits[i]];
            if (d.images[i].boxes.size() == 2)
                ++rare[a->splits[i]];
        }
        // 199 free images at 80/20 plus one locked in test; the twins make exact counts impossible.
        QVERIFY2(std::abs(images[project::Split::Val] - 40) <= 10,
                 std::to_string(images[project::Split::Val]).c_str());
        QCOMPARE(images[project::Split::Test], 1);
        QCOMPARE(rare[project::Split::Train], 16);
        QCOMPARE(rare[project::Split::Val], 4);
    }

    // Neighbouring frames of a video are near-duplicates: all frames of one video land in one split, and a
    // frame identical to another video's frame pulls both videos into one group. Other images spread as
    // usual.
    void splitKeepsTheFramesOfOneVideoTogether() {
        Dataset d;
        d.classes = {{"a", {}}};
        for (int i = 0; i < 120; ++i) {
            DatasetImage image;
            image.name = std::to_string(i) + ".jpg";
            image.path = "/nonexistent/" + image.name;
            image.width = image.height = 100;
            image.id = i + 1;
            image.hash = std::string("h").append(std::to_string(i));
            image.boxes.push_back(box(0, 1, 1, 50, 50));
            if (i < 100) // 10 videos of 10 frames
                image.video = std::string("videos/cam").append(std::to_string(i / 10)).append(".mp4");
            d.images.push_back(image);
        }
        d.images[95].hash = d.images[5].hash; // cam9's frame 5 is identical to cam0's frame 5
        SplitOptions options;
        options.train = 0.8;
        options.val = 0.2;
        for (std::uint64_t seed = 0; seed < 4; ++seed) {
            options.seed = seed;
            const auto plan = planSplit(d, options);
            QVERIFY(plan);
            for (int i = 0; i < 100; ++i) {
                const int first = i / 10 == 9 ? 0 : i / 10 * 10; // cam9 follows cam0 through the twin
                QVERIFY2(plan->splits[static_cast<std::size_t>(i)] ==
                             plan->splits[static_cast<std::size_t>(first)],
                         qPrintable(QString("seed %1, frame %2").arg(seed).arg(i)));
            }
            QCOMPARE(plan->groupedDuplicates, std::int64_t(1));
            // 9 followers in each of cam0..cam8, 8 in cam9, and cam9's group joining cam0's.
            QCOMPARE(plan->groupedFrames, std::int64_t(81 + 8 + 1));
            std::map<project::Split, int> images;
            for (auto split : plan->splits)
                ++images[split];
            QVERIFY(images[project::Split::Val] >= 10 && images[project::Split::Train] >= 80);
        }
    }

    void statsCountPerClassAndSplit() {
        Dataset d;
        d.classes = {{"a", {}}, {"b", {}}};
        DatasetImage one;
        one.width = 100;
        one.height = 200;
        one.split = project::Split::Train;
        one.boxes = {box(0, 0, 0, 10, 20), box(0, 0, 0, 50, 100), box(1, 0, 0, 95, 190)};
        DatasetImage two = one;
        two.split = project::Split::Val;
        two.boxes = {box(1, 0, 0, 10, 10)};
        DatasetImage empty;
        empty.status = project::ImageStatus::VerifiedEmpty;
        DatasetImage fresh;
        d.images = {one, two, empty, fresh};
        const auto stats = computeStats(d, 10);
        QCOMPARE(stats.images, std::int64_t(4));
        QCOMPARE(stats.boxes, std::int64_t(4));
        QCOMPARE(stats.labeled, std::int64_t(2));
        QCOMPARE(stats.verifiedEmpty, std::int64_t(1));
        QCOMPARE(stats.unlabeled, std::int64_t(1));
        QCOMPARE(stats.classes[0].images, std::int64_t(1));
        QCOMPARE(stats.classes[0].boxes, std::int64_t(2));
        QCOMPARE(stats.classes[1].images, std::int64_t(2));
        QCOMPARE(stats.classes[1].imagesBySplit[1], std::int64_t(1));
        QCOMPARE(stats.imagesBySplit[3], std::int64_t(2));
        QCOMPARE(stats.boxesBySplit[0], std::int64_t(3));
        // relative widths 0.1, 0.5, 0.95, 0.1 -> bins 1, 5, 9, 1
        QCOMPARE(stats.relativeWidth.counts[1], std::int64_t(2));
        QCOMPARE(stats.relativeWidth.counts[5], std::int64_t(1));
        QCOMPARE(stats.relativeWidth.counts[9], std::int64_t(1));
        QCOMPARE(stats.boxesPerImage[0], std::int64_t(2));
        QCOMPARE(stats.boxesPerImage[1], std::int64_t(1));
        QCOMPARE(stats.boxesPerImage[3], std::int64_t(1));
        QVERIFY(toJson(stats).find("\"verified_empty\": 1") != std::string::npos);
        // The box layout: every box of a sized image, relative to it.
        QCOMPARE(stats.layout.size(), size_t(4));
        QCOMPARE(stats.layout[2].classIndex, 1);
        QCOMPARE(stats.layout[2].w, 0.95);
        QCOMPARE(stats.layout[2].h, 0.95);
        QCOMPARE(stats.layout[2].cx, 0.475);
    }

    void layoutSamplesTheWholeDataset() {
        Dataset d;
        d.classes = {{"a", {}}};
        for (int i = 0; i < 2500; ++i) {
            DatasetImage image;
            image.width = image.height = 2500;
            image.boxes = {box(0, 0, 0, i + 1, 10)}; // box i is (i + 1) / 2500 wide
            d.images.push_back(image);
        }
        const auto stats = computeStats(d, 10);
        QCOMPARE(stats.layout.size(), kLayoutBoxes);
        // Every 2.5th box, from the first to near the last: the sample spans the set.
        QCOMPARE(stats.layout.front().w, 1.0 / 2500);
        QCOMPARE(stats.layout[1].w, 3.0 / 2500);
        QCOMPARE(stats.layout.back().w, 2498.0 / 2500);
    }
};

QTEST_GUILESS_MAIN(TestQuality)
#include "tst_quality.moc"
