// Every malformed input in ../shared/fixtures/formats/broken must be reported with the file and the line or
// field; lenient readings are warnings, everything else an error or a failed read.
#include "formats/format_registry.h"
#include "formats/project_import.h"

#include "fixtures.h"

#include <QtTest>

#include <fstream>

using namespace osprey;
using namespace osprey::formats;

namespace {

enum class Outcome { Fatal, Error, Warning };

struct Case {
    const char* source; ///< below fixtures/formats/broken
    const char* format;
    Outcome outcome;
    const char* file;    ///< the file the message must name
    const char* where;   ///< the line or field
    const char* message; ///< the gist
};

// clang-format off
const Case kCases[] = {
    {"yolo_field_count", "yolo", Outcome::Error, "obj_train_data/1.txt", "line 1", "unexpected field count: expected 5 fields (class cx cy w h), found 3"},
    {"yolo_undeclared_label", "yolo", Outcome::Error, "obj_train_data/1.txt", "line 1", "undeclared class id 10: obj.names has 10 classes"},
    {"yolo_bad_field_type", "yolo", Outcome::Error, "obj_train_data/1.txt", "line 1", "field 2 (bbox center x) is not a number: 'a'"},
    {"yolo_missing_ann", "yolo", Outcome::Warning, "train.txt", "line 1", "has no label file (looked for obj_train_data/1.txt); imported as unlabeled"},
    {"yolo_missing_image", "yolo", Outcome::Error, "train.txt", "line 1", "image obj_train_data/1.jpg not found"},
    {"yolo_missing_subset_list", "yolo", Outcome::Fatal, "obj.data", "line 2: train", "subset list file data/train.txt not found"},
    {"yolo_missing_obj_data", "yolo", Outcome::Fatal, "obj.data", "", "cannot read the dataset descriptor file"},
    {"coco/bbox_5_values.json", "coco", Outcome::Error, "bbox_5_values.json", "annotations[0].bbox", "bbox has wrong value count: expected 4 values [x, y, width, height], found 5"},
    {"coco/undeclared_category.json", "coco", Outcome::Error, "undeclared_category.json", "annotations[0].category_id", "undeclared category id 2"},
    {"coco/polygon_odd_coords.json", "coco", Outcome::Warning, "polygon_odd_coords.json", "annotations[0].segmentation[0]", "polygon has 3 coordinates, not divisible by 2"},
    {"coco/polygon_lt_3_points.json", "coco", Outcome::Warning, "polygon_lt_3_points.json", "annotations[0].segmentation[0]", "a polygon needs at least 3 (x, y) pairs, found 2"},
    {"coco/unknown_image_id.json", "coco", Outcome::Error, "unknown_image_id.json", "annotations[0].image_id", "unknown image id 10"},
    {"coco/image_missing_id.json", "coco", Outcome::Error, "image_missing_id.json", "images[0].id", "missing field"},
    {"coco/image_missing_file_name.json", "coco", Outcome::Error, "image_missing_file_name.json", "images[0].file_name", "missing field"},
    {"coco/ann_missing_id.json", "coco", Outcome::Warning, "ann_missing_id.json", "annotations[0].id", "missing field in 1 annotations"},
    {"coco/ann_missing_image_id.json", "coco", Outcome::Error, "ann_missing_image_id.json", "annotations[0].image_id", "missing field"},
    {"coco/ann_missing_iscrowd.json", "coco", Outcome::Warning, "ann_missing_iscrowd.json", "annotations[0].iscrowd", "missing field in 1 annotations; read as 0"},
    {"coco/ann_missing_category_id.json", "coco", Outcome::Error, "ann_missing_category_id.json", "annotations[0].category_id", "missing field"},
    {"coco/ann_missing_bbox.json", "coco", Outcome::Error, "ann_missing_bbox.json", "annotations[0].bbox", "missing field (and no polygon to compute it from)"},
    {"coco/missing_top_images.json", "coco", Outcome::Fatal, "missing_top_images.json", "images", "missing field"},
    {"coco/missing_top_annotations.json", "coco", Outcome::Warning, "missing_top_annotations.json", "annotations", "missing field: read as an image-info file"},
    {"coco/missing_top_categories.json", "coco", Outcome::Fatal, "missing_top_categories.json", "categories", "missing field"},
    {"coco/category_missing_id.json", "coco", Outcome::Error, "category_missing_id.json", "categories[0].id", "missing field"},
    {"coco/category_missing_name.json", "coco", Outcome::Error, "category_missing_name.json", "categories[0].name", "missing field"},
    {"coco/image_bad_type_id.json", "coco", Outcome::Error, "image_bad_type_id.json", "images[0].id", "invalid field type: expected an integer"},
    {"coco/image_bad_type_width.json", "coco", Outcome::Error, "image_bad_type_width.json", "images[0].width", "invalid field type: expected an integer"},
    {"coco/image_bad_type_height.json", "coco", Outcome::Error, "image_bad_type_height.json", "images[0].height", "invalid field type: expected an integer"},
    {"coco/image_bad_type_file_name.json", "coco", Outcome::Error, "image_bad_type_file_name.json", "images[0].file_name", "invalid field type: expected a string"},
};
// clang-format on

bool mentions(const std::string& text, const Case& c) {
    std::string expected = std::string(c.file) + ": ";
    if (*c.where)
        expected += std::string(c.where) + ": ";
    return text.find(expected) != std::string::npos && text.find(c.message) != std::string::npos;
}

} // namespace

class TestBrokenInputs : public QObject {
    Q_OBJECT
private slots:
    void everyCaseIsListed() {
        OSPREY_REQUIRE_FIXTURE("formats/broken");
        // 7 YOLO folders + 21 COCO files; a new fixture must get a row here.
        QCOMPARE(std::size(kCases), std::size_t(28));
        int coco = 0;
        for (const auto& entry : std::filesystem::directory_iterator(test::fixture("formats/broken/coco")))
            coco += entry.path().extension() == ".json" && entry.path().filename() != "valid_template.json";
        QCOMPARE(coco, 21);
    }

    void reportsFileAndField_data() {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < std::size(kCases); ++i)
            QTest::newRow(kCases[i].source) << static_cast<int>(i);
    }
    void reportsFileAndField() {
        OSPREY_REQUIRE_FIXTURE("formats/broken");
        QFETCH(int, index);
        const Case& c = kCases[index];
        ReadOptions options;
        options.source = test::fixture(std::string("formats/broken/") + c.source);
        options.probe = ImageProbe::SizeOnly;
        const auto read = readSource(options, c.format);
        if (c.outcome == Outcome::Fatal) {
            QVERIFY2(!read, "expected the read to fail");
            QVERIFY2(mentions(read.message(), c), read.message().c_str());
            return;
        }
        QVERIFY2(read.hasValue(), read ? "" : read.message().c_str());
        const Severity severity = c.outcome == Outcome::Error ? Severity::Error : Severity::Warning;
        bool found = false;
        std::string all;
        for (const auto& problem : read->problems) {
            all += problem.text() + "\n";
            found = found || (problem.severity == severity && mentions(problem.text(), c));
        }
        QVERIFY2(found, all.c_str());
        if (c.outcome == Outcome::Warning) {
            // A lenient reading still imports the item.
            QCOMPARE(read->dataset.images.size(), std::size_t(1));
            for (const auto& problem : read->problems)
                QVERIFY2(problem.severity == Severity::Warning, problem.text().c_str());
        }
    }

    void lenientReadingsKeepTheData() {
        OSPREY_REQUIRE_FIXTURE("formats/broken");
        ReadOptions options;
        options.source = test::fixture("formats/broken/coco/ann_missing_iscrowd.json");
        auto read = readSource(options, "coco");
        QVERIFY(read.hasValue());
        QCOMPARE(read->dataset.boxCount(), std::size_t(1));
        QCOMPARE(read->dataset.images[0].boxes[0].flags.crowd, false);

        options.source = test::fixture("formats/broken/coco/missing_top_annotations.json");
        read = readSource(options, "coco");
        QVERIFY(read.hasValue());
        QCOMPARE(read->dataset.images.size(), std::size_t(1));
        QVERIFY(read->dataset.images[0].status == project::ImageStatus::New);

        options.source = test::fixture("formats/broken/yolo_missing_ann");
        read = readSource(options, "yolo");
        QVERIFY(read.hasValue());
        QCOMPARE(read->dataset.images.size(), std::size_t(1));
        QVERIFY(read->dataset.images[0].status == project::ImageStatus::New);
        QCOMPARE(read->dataset.images[0].width, 15);
    }

    void validTemplateImports() {
        OSPREY_REQUIRE_FIXTURE("formats/broken");
        ReadOptions options;
        options.source = test::fixture("formats/broken/coco/valid_template.json");
        const auto read = readSource(options, "auto");
        QVERIFY(read.hasValue());
        QCOMPARE(read->dataset.classes.size(), std::size_t(1));
        QCOMPARE(read->dataset.classes[0].name, std::string("test"));
        QCOMPARE(read->dataset.images.size(), std::size_t(1));
        const auto& image = read->dataset.images[0];
        QCOMPARE(image.name, std::string("a.jpg"));
        QCOMPARE(image.width, 10);
        QCOMPARE(image.height, 5);
        QCOMPARE(image.boxes.size(), std::size_t(1));
        QCOMPARE(image.boxes[0].x1, 2.0);
        QCOMPARE(image.boxes[0].y1, 2.0);
        QCOMPARE(image.boxes[0].x2, 5.0);
        QCOMPARE(image.boxes[0].y2, 3.0);
        for (const auto& problem : read->problems)
            QVERIFY2(problem.severity == Severity::Warning && problem.kind == ProblemKind::MissingImage,
                     problem.text().c_str());
    }

    void syntaxErrorsGiveLineAndColumn() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "bad.json";
        {
            std::ofstream out(path);
            out << "{\n  \"images\": [\n    {\"id\": 1,, }\n  ]\n}\n";
        }
        ReadOptions options;
        options.source = path;
        const auto read = readSource(options, "coco");
        QVERIFY(!read);
        // Column 14 is the second comma: "    {\"id\": 1,, }".
        QVERIFY2(read.message().find("bad.json: line 3, column 14: not valid JSON") != std::string::npos,
                 read.message().c_str());
    }
};

QTEST_GUILESS_MAIN(TestBrokenInputs)
#include "tst_broken_inputs.moc"
