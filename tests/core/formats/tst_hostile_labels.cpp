// The hostile-file sample of issue 22, for every importer: unreadable images are skipped with their boxes
// (never stored), byte-order marks, "1.0" class ids, boxes outside the image / zero-width / negative,
// duplicate and invalid-UTF-8 category names, VOC entities, NaN coordinates, paths outside the roots,
// deep nesting and ids beyond 2^53. Each asserts the stored values and the message (file + line/field).
#include "formats/project_import.h"

#include "core/imaging/hostile_images.h"
#include "layout_fixtures.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace osprey;
using namespace osprey::formats;
namespace fs = std::filesystem;

namespace {

Expected<ReadResult> read(const fs::path& source, const std::string& format, bool outside = false) {
    ReadOptions options;
    options.source = source;
    options.probe = ImageProbe::SizeOnly;
    options.allowOutsideRoots = outside;
    return readSource(options, format);
}

/// The problem whose text holds `needle` (with its severity), or "" when none does.
bool hasProblem(const ReadResult& result, Severity severity, const std::string& needle) {
    for (const auto& p : result.problems)
        if (p.severity == severity && p.text().find(needle) != std::string::npos)
            return true;
    return false;
}

std::string all(const ReadResult& result) {
    std::string text;
    for (const auto& p : result.problems)
        text += p.text() + "\n";
    return text;
}

#define EXPECT_PROBLEM(result, severity, needle)                                                             \
    QVERIFY2(hasProblem(result, severity, needle),                                                           \
             (std::string("expected: ") + (needle) + "\ngot:\n" + all(result)).c_str())

void truncatedJpeg(const fs::path& path) {
    test::writeNoiseImage(path, 64, 48);
    const std::string bytes = test::readBytes(path);
    test::writeBytes(path, bytes.substr(0, bytes.size() / 2));
}

const char* kCocoTwoImages = R"({"images":[{"id":1,"file_name":"a.jpg","width":64,"height":48},
    {"id":2,"file_name":"b.jpg","width":64,"height":48}],
  "annotations":[{"id":1,"image_id":1,"category_id":1,"bbox":[1,1,10,10],"iscrowd":0},
    {"id":2,"image_id":2,"category_id":1,"bbox":[2,2,10,10],"iscrowd":0}],
  "categories":[{"id":1,"name":"cat"}]})";

} // namespace

class TestHostileLabels : public QObject {
    Q_OBJECT
private slots:
    void unreadableCocoImageIsNotStored() {
        QTemporaryDir dir;
        const fs::path data(dir.path().toStdString());
        test::writeNoiseImage(data / "a.jpg", 64, 48);
        truncatedJpeg(data / "b.jpg");
        test::writeText(data / "instances.json", kCocoTwoImages);
        auto project = project::Project::create(data / "p");
        QVERIFY(project.hasValue());
        ImportOptions options;
        options.read.source = data / "instances.json";
        const auto summary = importDataset(**project, options);
        QVERIFY2(summary.hasValue(), summary ? "" : summary.message().c_str());
        QCOMPARE(summary->images, std::int64_t(1));
        QCOMPARE(summary->boxes, std::int64_t(1));
        QCOMPARE((*project)->images().count().value(), std::int64_t(1));
        bool named = false;
        for (const auto& p : summary->problems)
            named = named || (p.severity == Severity::Error &&
                              p.text().find("b.jpg: truncated JPEG") != std::string::npos &&
                              p.skipped == "image b.jpg");
        QVERIFY(named);
    }

    void truncatedJpegSkippedByYoloAndVoc() {
        QTemporaryDir dir;
        const fs::path yolo = fs::path(dir.path().toStdString()) / "yolo";
        test::writeNoiseImage(yolo / "images" / "a.jpg", 64, 48);
        truncatedJpeg(yolo / "images" / "b.jpg");
        test::writeText(yolo / "labels" / "a.txt", "0 0.5 0.5 0.2 0.2\n");
        test::writeText(yolo / "labels" / "b.txt", "0 0.5 0.5 0.2 0.2\n");
        auto result = read(yolo, "yolo");
        QVERIFY(result.hasValue());
        QCOMPARE(result->dataset.images.size(), std::size_t(1));
        EXPECT_PROBLEM(*result, Severity::Error, "images/b.jpg: cannot read the image:");

        const fs::path voc = fs::path(dir.path().toStdString()) / "voc";
        truncatedJpeg(voc / "images" / "b.jpg");
        test::writeText(voc / "annots" / "b.xml",
                        test::vocXml("b.jpg", 64, 48, test::vocObject("cat", 1, 1, 9, 9)));
        test::writeNoiseImage(voc / "images" / "a.jpg", 64, 48);
        test::writeText(voc / "annots" / "a.xml",
                        test::vocXml("a.jpg", 64, 48, test::vocObject("cat", 1, 1, 9, 9)));
        result = read(voc, "voc");
        QVERIFY(result.hasValue());
        QCOMPARE(result->dataset.images.size(), std::size_t(1));
        QCOMPARE(result->dataset.images[0].name, std::string("a.jpg"));
        EXPECT_PROBLEM(*result, Severity::Error, "truncated JPEG");
    }

    void byteOrderMarksAreSkipped() {
        QTemporaryDir dir;
        const fs::path data(dir.path().toStdString());
        test::writeImage(data / "a.jpg", 100, 100);
        test::writeText(data / "classes.txt", "\xEF\xBB\xBF"
                                              "cat\ndog\n");
        test::writeText(data / "a.txt", "\xEF\xBB\xBF"
                                        "1 0.5 0.5 0.2 0.2\r\n0 0.25 0.25 0.1 0.1\r\n");
        auto result = read(data, "yolo");
        QVERIFY(result.hasValue());
        QVERIFY2(result->problems.empty(), all(*result).c_str());
        QCOMPARE(result->dataset.classes[0].name, std::string("cat"));
        QCOMPARE(result->dataset.boxCount(), std::size_t(2));
        QCOMPARE(result->dataset.images[0].boxes[0].classIndex, 1);
        QCOMPARE(result->dataset.images[0].boxes[0].x1, 40.0);

        test::writeText(data / "bom.json", std::string("\xEF\xBB\xBF") + kCocoTwoImages);
        result = read(data / "bom.json", "coco");
        QVERIFY2(result.hasValue(), result ? "" : result.message().c_str());
        QCOMPARE(result->dataset.classes[0].name, std::string("cat"));

        const fs::path voc = data / "voc";
        test::writeImage(voc / "images" / "v.jpg", 40, 30);
        test::writeText(voc / "annots" / "v.xml",
                        "\xEF\xBB\xBF" + test::vocXml("v.jpg", 40, 30, test::vocObject("bird", 1, 1, 9, 9)));
        result = read(voc, "auto");
        QVERIFY(result.hasValue());
        QCOMPARE(result->dataset.classes[0].name, std::string("bird"));
    }

    void classIdsWrittenAsFloats() {
        QTemporaryDir dir;
        const fs::path data(dir.path().toStdString());
        test::writeImage(data / "a.jpg", 100, 100);
        test::writeText(data / "classes.txt", "cat\ndog\n");
        test::writeText(data / "a.txt", "1.0 0.5 0.5 0.2 0.2\n1e0 5e-1 0.5 2E-1 0.2\n1.5 0.5 0.5 0.2 0.2\n");
        const auto result = read(data, "yolo");
        QVERIFY(result.hasValue());
        QCOMPARE(result->dataset.boxCount(), std::size_t(2));
        for (const auto& box : result->dataset.images[0].boxes) {
            QCOMPARE(box.classIndex, 1);
            QCOMPARE(box.x1, 40.0);
            QCOMPARE(box.x2, 60.0);
        }
        EXPECT_PROBLEM(*result, Severity::Error,
                       "a.txt: line 3: field 1 (class id) is not a class index: '1.5'");
    }

    void yoloBoxRules() {
        QTemporaryDir dir;
        const fs::path data(dir.path().toStdString());
        test::writeImage(data / "a.jpg", 100, 50);
        test::writeText(data / "classes.txt", "cat\n");
        test::writeText(data / "a.txt",
                        "0 2.5 0.5 0.2 0.2\n"         // wholly outside
                        "0 0.5 0.5 0 0.2\n"           // zero width
                        "0 0.5 0.5 -0.2 0.2\n"        // negative width
                        "0 0.95 0.5 0.2 0.2\n"        // reaches outside: clamped
                        "0 nan 0.5 0.2 0.2\n"         // NaN: named, the rest imports
                        "0 0.1 0.1 0.2 0.4 0.3 0.2\n" // a segment polygon, 3 points: its bounding box
                        "0 0.5 0.5 inf 0.2\n");
        const auto result = read(data, "yolo");
        QVERIFY(result.hasValue());
        EXPECT_PROBLEM(*result, Severity::Error,
                       "a.txt: line 1: box [240, 20, 260, 30] lies wholly outside the 100x50 image");
        EXPECT_PROBLEM(*result, Severity::Error, "a.txt: line 2: zero-width box");
        EXPECT_PROBLEM(*result, Severity::Error, "a.txt: line 3: field 4 (bbox width) is negative: '-0.2'");
        EXPECT_PROBLEM(*result, Severity::Error,
                       "a.txt: line 5: field 2 (bbox center x) is not a finite number: 'nan'");
        EXPECT_PROBLEM(*result, Severity::Error,
                       "a.txt: line 7: field 4 (bbox width) is not a finite number: 'inf'");
        const auto& boxes = result->dataset.images[0].boxes;
        QCOMPARE(boxes.size(), std::size_t(2));
        QCOMPARE(boxes[0].x1, 85.0);
        QCOMPARE(boxes[0].x2, 100.0); // clamped from 105
        QCOMPARE(boxes[1].x1, 10.0);
        QCOMPARE(boxes[1].y1, 5.0);
        QCOMPARE(boxes[1].x2, 30.0);
        QCOMPARE(boxes[1].y2, 20.0);
        QVERIFY(std::find(result->notes.begin(), result->notes.end(),
                          "1 boxes reaching outside their image clamped to it") != result->notes.end());
    }

    void nanDoesNotAbortTheImport() {
        QTemporaryDir dir;
        const fs::path data = fs::path(dir.path().toStdString()) / "d";
        for (const char* stem : {"a", "b"})
            test::writeImage(data / (std::string(stem) + ".jpg"), 100, 100);
        test::writeText(data / "classes.txt", "cat\n");
        test::writeText(data / "a.txt", "0 0.5 0.5 0.2 0.2\n");
        test::writeText(data / "b.txt", "0 0.5 NaN 0.2 0.2\n0 0.5 0.5 0.1 0.1\n");
        auto project = project::Project::create(fs::path(dir.path().toStdString()) / "p");
        QVERIFY(project.hasValue());
        ImportOptions options;
        options.read.source = data;
        const auto summary = importDataset(**project, options);
        QVERIFY2(summary.hasValue(), summary ? "" : summary.message().c_str());
        QCOMPARE(summary->images, std::int64_t(2));
        QCOMPARE(summary->boxes, std::int64_t(2));
        bool named = false;
        for (const auto& p : summary->problems)
            named = named || p.text() ==
                                 "error: b.txt: line 1: field 3 (bbox center y) is not a finite number: "
                                 "'NaN' (skipped box on line 1)";
        QVERIFY(named);
    }

    void cocoBoxRulesAndCategories() {
        QTemporaryDir dir;
        const fs::path data(dir.path().toStdString());
        test::writeText(data / "c.json", R"({"images":[{"id":1,"file_name":"a.jpg","width":100,"height":50}],
  "annotations":[
    {"id":1,"image_id":1,"category_id":1,"bbox":[10,10,-5,5],"iscrowd":0},
    {"id":2,"image_id":1,"category_id":1,"bbox":[10,10,0,5],"iscrowd":0},
    {"id":3,"image_id":1,"category_id":1,"bbox":[200,10,5,5],"iscrowd":0},
    {"id":4,"image_id":1,"category_id":2,"bbox":[90,40,20,20],"iscrowd":0},
    {"id":5,"image_id":1,"category_id":3,"bbox":[1,1,2,2],"iscrowd":0}],
  "categories":[{"id":1,"name":"cat"},{"id":2,"name":"cat"},{"id":3,"name":"b\u00e9\u00e9"},{"id":4,"name":"x)"
                                         "\xff"
                                         R"(y"}]})");
        const auto result = read(data / "c.json", "coco");
        QVERIFY2(result.hasValue(), result ? "" : result.message().c_str());
        EXPECT_PROBLEM(*result, Severity::Error,
                       "c.json: annotations[0].bbox: negative or non-finite width/height [-5, 5]");
        EXPECT_PROBLEM(*result, Severity::Error, "c.json: annotations[1].bbox: zero-width box");
        EXPECT_PROBLEM(
            *result, Severity::Error,
            "c.json: annotations[2].bbox: box [200, 10, 205, 15] lies wholly outside the 100x50 image");
        EXPECT_PROBLEM(*result, Severity::Warning,
                       "c.json: categories[1].name: category name 'cat' (id 2) repeats categories[0] (id 1); "
                       "both ids are imported as one class 'cat'");
        EXPECT_PROBLEM(*result, Severity::Warning,
                       "c.json: categories[3].name: not valid UTF-8; invalid bytes replaced by U+FFFD: "
                       "'x\xEF\xBF\xBDy'");
        QCOMPARE(result->dataset.classes.size(), std::size_t(3));
        QCOMPARE(result->dataset.classes[1].name, std::string("b\xC3\xA9\xC3\xA9"));
        QCOMPARE(result->dataset.classes[2].name, std::string("x\xEF\xBF\xBDy"));
        const auto& boxes = result->dataset.images[0].boxes;
        QCOMPARE(boxes.size(), std::size_t(2));
        QCOMPARE(boxes[0].classIndex, 0); // category 2 'cat' is class 'cat'
        QCOMPARE(boxes[0].x2, 100.0);     // clamped from 110
        QCOMPARE(boxes[0].y2, 50.0);
    }

    // Issue 22: duplicate ids are named, never silently merged into the wrong image or class.
    void cocoDuplicateIds() {
        QTemporaryDir dir;
        const fs::path data(dir.path().toStdString());
        test::writeText(data / "d.json", R"({"images":[{"id":1,"file_name":"a.jpg","width":100,"height":50},
    {"id":1,"file_name":"b.jpg","width":100,"height":50}],
  "annotations":[{"id":7,"image_id":1,"category_id":1,"bbox":[10,10,5,5],"iscrowd":0},
    {"id":7,"image_id":1,"category_id":2,"bbox":[20,20,5,5],"iscrowd":0}],
  "categories":[{"id":1,"name":"cat"},{"id":1,"name":"dog"},{"id":2,"name":"bird"}]})");
        const auto result = read(data / "d.json", "coco");
        QVERIFY2(result.hasValue(), result ? "" : result.message().c_str());
        EXPECT_PROBLEM(*result, Severity::Error, "d.json: images[1].id: duplicate image id 1");
        EXPECT_PROBLEM(*result, Severity::Error, "duplicate category id 1");
        QCOMPARE(result->dataset.images.size(), std::size_t(1));
        QCOMPARE(result->dataset.images[0].path.filename().string(), std::string("a.jpg"));
        for (const auto& cls : result->dataset.classes)
            QVERIFY(cls.name != "dog");
    }

    void vocEntitiesAreNeverResolved() {
        QTemporaryDir dir;
        const fs::path data(dir.path().toStdString());
        test::writeText(data / "secret.txt", "TOPSECRET");
        test::writeImage(data / "a.jpg", 40, 30);
        test::writeText(data / "a.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE annotation [\n"
                                        "<!ENTITY xxe SYSTEM \"file://" +
                                            (data / "secret.txt").string() +
                                            "\">\n<!ENTITY lol \"lol\">\n]>\n" +
                                            test::vocXml("a.jpg", 40, 30,
                                                         test::vocObject("&xxe;", 1, 1, 9, 9) +
                                                             test::vocObject("&lol;", 1, 1, 9, 9) +
                                                             test::vocObject("dog &amp; cat", 1, 1, 9, 9)));
        const auto result = read(data, "voc");
        QVERIFY2(result.hasValue(), result ? "" : result.message().c_str());
        EXPECT_PROBLEM(*result, Severity::Error,
                       "a.xml: line 11: object 1 '&xxe;': <name> holds an XML entity reference; entities are "
                       "never resolved");
        EXPECT_PROBLEM(*result, Severity::Error, "object 2 '&lol;': <name> holds an XML entity reference");
        QCOMPARE(result->dataset.classes.size(), std::size_t(1));
        QCOMPARE(result->dataset.classes[0].name, std::string("dog & cat"));
        for (const auto& cls : result->dataset.classes)
            QVERIFY(cls.name.find("TOPSECRET") == std::string::npos);
    }

    void vocCoordinatesAndMissingSize() {
        QTemporaryDir dir;
        const fs::path data(dir.path().toStdString());
        test::writeImage(data / "a.jpg", 40, 30);
        test::writeText(data / "a.xml", "<annotation><filename>a.jpg</filename>\n"
                                        "<object><name>cat</name><bndbox><xmin>20</xmin><ymin>1</"
                                        "ymin><xmax>10</xmax><ymax>9</ymax></bndbox></object>\n"
                                        "<object><name>cat</name><bndbox><xmin>one</xmin><ymin>1</"
                                        "ymin><xmax>10</xmax><ymax>9</ymax></bndbox></object>\n"
                                        "<object><name>cat</name><bndbox><xmin>30</xmin><ymin>1</"
                                        "ymin><xmax>50</xmax><ymax>9</ymax></bndbox></object>\n"
                                        "</annotation>\n");
        const auto result = read(data, "voc");
        QVERIFY(result.hasValue());
        EXPECT_PROBLEM(
            *result, Severity::Error,
            "a.xml: line 2: object 1 'cat': inverted box (width -10, height 8); boxes are never flipped");
        EXPECT_PROBLEM(*result, Severity::Error,
                       "a.xml: line 3: object 2 'cat': bndbox.xmin is not a number: 'one'");
        const auto& image = result->dataset.images[0];
        QCOMPARE(image.width, 40); // no <size>: measured from the image
        QCOMPARE(image.height, 30);
        QCOMPARE(image.boxes.size(), std::size_t(1));
        QCOMPARE(image.boxes[0].x2, 40.0);
    }

    void cocoPathsOutsideTheRootsAreNeverRead() {
        QTemporaryDir dir;
        const fs::path base(dir.path().toStdString());
        test::writeImage(base / "outside.jpg", 64, 48);
        test::writeText(base / "ds" / "c.json",
                        R"({"images":[{"id":1,"file_name":"../outside.jpg","width":64,"height":48},
            {"id":2,"file_name":")" +
                            (base / "outside.jpg").string() + R"(","width":64,"height":48}],
          "annotations":[{"id":1,"image_id":1,"category_id":1,"bbox":[1,1,10,10],"iscrowd":0}],
          "categories":[{"id":1,"name":"cat"}]})");
        test::writeImage(base / "ds" / "inside.jpg", 8, 8);
        auto result = read(base / "ds", "coco");
        QVERIFY(result.hasValue());
        QCOMPARE(result->dataset.images.size(), std::size_t(0));
        EXPECT_PROBLEM(*result, Severity::Error,
                       "c.json: images[0].file_name: '../outside.jpg' points outside the dataset folder and "
                       "images=DIR; never read (pass outside=true to allow it)");
        EXPECT_PROBLEM(*result, Severity::Error, "c.json: images[1].file_name:");
        result = read(base / "ds", "coco", true);
        QVERIFY(result.hasValue());
        QCOMPARE(result->dataset.images.size(), std::size_t(2));
        QVERIFY(result->dataset.images[0].found);
        QCOMPARE(result->dataset.boxCount(), std::size_t(1));
    }

    void cocoDepthAndBigIds() {
        QTemporaryDir dir;
        const fs::path base(dir.path().toStdString());
        std::string deep = R"({"images":[],"categories":[],"info":)";
        deep += std::string(100000, '[') + std::string(100000, ']') + "}";
        test::writeText(base / "deep.json", deep);
        auto result = read(base / "deep.json", "coco");
        QVERIFY(!result);
        QVERIFY2(result.message().rfind("deep.json: line 1, column ", 0) == 0 &&
                     result.message().find(": nesting deeper than 64 levels; not a COCO file") !=
                         std::string::npos,
                 result.message().c_str());

        // 2^53 + 1 is kept exactly (ids are 64-bit integers, never doubles); 2^64 is refused.
        test::writeText(base / "ids.json",
                        R"({"images":[{"id":9007199254740993,"file_name":"a.jpg","width":10,"height":10},
            {"id":18446744073709551616,"file_name":"b.jpg","width":10,"height":10}],
          "annotations":[{"id":1,"image_id":9007199254740993,"category_id":1,"bbox":[1,1,5,5],"iscrowd":0},
            {"id":2,"image_id":9007199254740992,"category_id":1,"bbox":[1,1,5,5],"iscrowd":0}],
          "categories":[{"id":1,"name":"cat"}]})");
        result = read(base / "ids.json", "coco");
        QVERIFY2(result.hasValue(), result ? "" : result.message().c_str());
        QCOMPARE(result->dataset.images.size(), std::size_t(1));
        QCOMPARE(result->dataset.images[0].boxes.size(), std::size_t(1));
        EXPECT_PROBLEM(*result, Severity::Error,
                       "ids.json: images[1].id: invalid field type: expected an integer");
        EXPECT_PROBLEM(*result, Severity::Error,
                       "ids.json: annotations[1].image_id: unknown image id 9007199254740992");

        // Found by fuzz_coco_json: a huge number where an integer belongs was cast to int64 (undefined).
        test::writeText(base / "huge.json",
                        R"({"images":[{"id":1,"file_name":"a.jpg","width":2.5e75,"height":10}],
          "annotations":[],"categories":[]})");
        result = read(base / "huge.json", "coco");
        QVERIFY2(result.hasValue(), result ? "" : result.message().c_str());
        EXPECT_PROBLEM(*result, Severity::Error,
                       "huge.json: images[0].width: invalid field type: expected an integer");
    }

    void cocoItemsThatAreNotObjects() {
        // Found by fuzz_coco_json: an array where an annotation object belongs reached
        // annotations.back() on an empty list (undefined behaviour). Now counted and reported.
        QTemporaryDir dir;
        const fs::path base(dir.path().toStdString());
        test::writeText(base / "n.json", R"({"images":[5,{"id":1,"file_name":"a.jpg","width":10,"height":10}],
            "annotations":[[1,2],{"id":1,"image_id":1,"category_id":1,"bbox":[1,1,5,5],"iscrowd":0}],
            "categories":[{"id":1,"name":"cat"}]})");
        const auto result = read(base / "n.json", "coco");
        QVERIFY2(result.hasValue(), result ? "" : result.message().c_str());
        EXPECT_PROBLEM(*result, Severity::Error,
                       "n.json: images/annotations/categories: 2 items are not JSON objects");
        QCOMPARE(result->dataset.images.size(), std::size_t(1));
        QCOMPARE(result->dataset.boxCount(), std::size_t(1));
    }

    void yoloDescriptorStructure() {
        QTemporaryDir dir;
        const fs::path data = fs::path(dir.path().toStdString()) / "ds";
        test::writeImage(data / "images" / "train" / "a.jpg", 100, 100);
        test::writeText(data / "labels" / "train" / "a.txt", "2 0.5 0.5 0.2 0.2\n5 0.5 0.5 0.2 0.2\n");
        // names as a dict with a gap: ids 0 and 2 named, 1 filled in.
        test::writeText(data / "data.yaml",
                        "\xEF\xBB\xBFtrain: images/train\nnames:\n  0: person\n  2: car\n");
        auto result = read(data / "data.yaml", "yolo");
        QVERIFY2(result.hasValue(), result ? "" : result.message().c_str());
        QCOMPARE(result->dataset.classes.size(), std::size_t(3));
        QCOMPARE(result->dataset.classes[1].name, std::string("class_1"));
        QCOMPARE(result->dataset.classes[2].name, std::string("car"));
        QCOMPARE(result->dataset.boxCount(), std::size_t(1));
        EXPECT_PROBLEM(
            *result, Severity::Error,
            "labels/train/a.txt: line 2: undeclared class id 5: data.yaml has 3 classes (ids 0-2)");

        // names as a list; an alias bomb is read once per alias, never expanded into copies.
        std::string bomb = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
        for (char c = 'b'; c <= 'j'; ++c)
            bomb += std::string(1, c) + ": &" + c + " [*" + char(c - 1) + ", *" + char(c - 1) + ", *" +
                    char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + ", *" +
                    char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + "]\n";
        test::writeText(data / "bomb.yaml", bomb + "train: images/train\nnames: *j\n");
        result = read(data / "bomb.yaml", "yolo");
        QVERIFY(!result);
        QVERIFY2(result.message().find("bomb.yaml: line ") == 0, result.message().c_str());

        // Deep nesting is an error, not a stack overflow.
        test::writeText(data / "deep.yaml",
                        "names: " + std::string(100000, '[') + std::string(100000, ']') + "\n");
        result = read(data / "deep.yaml", "yolo");
        QVERIFY(!result);
        QVERIFY2(result.message().find("deep.yaml") == 0, result.message().c_str());

        // An absurd nc is refused before a billion class names are made.
        test::writeText(data / "nc.yaml", "train: images/train\nnc: 1000000000\n");
        result = read(data / "nc.yaml", "yolo");
        QVERIFY(!result);
        QVERIFY2(result.message() == "nc.yaml: nc: 1000000000 is not a class count (0 to 100000)",
                 result.message().c_str());

        // path: outside the yaml's folder is not followed unless outside=true.
        const fs::path elsewhere = fs::path(dir.path().toStdString()) / "elsewhere";
        test::writeImage(elsewhere / "images" / "train" / "z.jpg", 10, 10);
        test::writeText(data / "out.yaml",
                        "path: ../elsewhere\ntrain: images/train\nnames: [person, bike, car]\n");
        result = read(data / "out.yaml", "yolo");
        QVERIFY(result.hasValue());
        // ../elsewhere has images/ but no labels/: not a dataset folder, so not followed.
        EXPECT_PROBLEM(*result, Severity::Warning, "out.yaml: path: folder ../elsewhere (");
        EXPECT_PROBLEM(*result, Severity::Warning,
                       ") is outside the folder of out.yaml and holds no images/ and labels/ folders; not "
                       "followed (pass outside=true to follow it); using the folder of out.yaml");
        QCOMPARE(result->dataset.images.size(), std::size_t(1));
        QCOMPARE(result->dataset.images[0].name, std::string("a.jpg"));
        result = read(data / "out.yaml", "yolo", true);
        QVERIFY(result.hasValue());
        QCOMPARE(result->dataset.images[0].name, std::string("z.jpg"));
    }

    void yoloPathBesideTheConfigFolder() {
        // Ultralytics' docs layout: the yaml in a config folder, "path: ../datasets/x" beside it.
        QTemporaryDir dir;
        const fs::path base(dir.path().toStdString());
        const fs::path dataset = base / "datasets" / "x";
        test::writeImage(dataset / "images" / "train" / "a.jpg", 40, 30);
        test::writeImage(dataset / "images" / "val" / "b.jpg", 40, 30);
        test::writeText(dataset / "labels" / "train" / "a.txt", "1 0.5 0.5 0.5 0.5\n");
        test::writeText(dataset / "labels" / "val" / "b.txt", "0 0.25 0.25 0.5 0.5\n");
        test::writeText(base / "cfg" / "x.yaml",
                        "path: ../datasets/x\ntrain: images/train\nval: images/val\nnames: [cat, dog]\n");
        auto result = read(base / "cfg" / "x.yaml", "yolo");
        QVERIFY2(result.hasValue(), result ? "" : result.message().c_str());
        QVERIFY2(result->problems.empty(), all(*result).c_str());
        QCOMPARE(result->dataset.images.size(), std::size_t(2));
        QCOMPARE(result->dataset.boxCount(), std::size_t(2));
        QCOMPARE(result->dataset.images[0].name, std::string("a.jpg"));
        QCOMPARE(result->dataset.images[0].boxes[0].classIndex, 1);
        QCOMPARE(result->dataset.images[0].boxes[0].x1, 10.0);
        const std::string real = fs::canonical(dataset).string();
        QVERIFY2(std::find(result->notes.begin(), result->notes.end(),
                           "x.yaml: path: followed ../datasets/x (" + real +
                               "), a dataset folder (images/ and labels/) outside the yaml's folder") !=
                     result->notes.end(),
                 result->notes.empty() ? "no notes" : result->notes.front().c_str());

        // A relative path into a system folder is refused, named with the flag, even though it exists.
        test::writeText(base / "cfg" / "sys.yaml",
                        "path: ../../../../../../../../../../../../etc\ntrain: images/train\nnames: [a]\n");
        result = read(base / "cfg" / "sys.yaml", "yolo");
        QVERIFY(result.hasValue());
        EXPECT_PROBLEM(
            *result, Severity::Warning,
            "sys.yaml: path: folder ../../../../../../../../../../../../etc (/etc) is a system folder; "
            "not followed (pass outside=true to follow it); using the folder of sys.yaml");
        QCOMPARE(result->dataset.images.size(), std::size_t(0));
        // The import then fails with that reason and the flag, not only "pass images=DIR".
        ReadOptions options;
        options.source = base / "cfg" / "sys.yaml";
        const std::string problem = emptyImportProblem(*result, "yolo", options);
        QVERIFY2(problem.find(": 0 images to import with format=yolo") != std::string::npos, problem.c_str());
        QVERIFY2(
            problem.find("sys.yaml: path: folder ../../../../../../../../../../../../etc (/etc) is a system "
                         "folder; not followed") != std::string::npos,
            problem.c_str());
        QVERIFY2(problem.find("; pass outside=true (to follow the path: of sys.yaml)") != std::string::npos,
                 problem.c_str());

        // An absolute path outside still needs the flag; with it, it is followed.
        test::writeText(base / "cfg" / "abs.yaml",
                        "path: " + dataset.string() + "\ntrain: images/train\nnames: [cat, dog]\n");
        result = read(base / "cfg" / "abs.yaml", "yolo");
        QVERIFY(result.hasValue());
        EXPECT_PROBLEM(*result, Severity::Warning, "is outside the folder of abs.yaml; not followed");
        QCOMPARE(result->dataset.images.size(), std::size_t(0));
        result = read(base / "cfg" / "abs.yaml", "yolo", true);
        QVERIFY(result.hasValue());
        QCOMPARE(result->dataset.images.size(), std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestHostileLabels)
#include "tst_hostile_labels.moc"
