// The readers on real datasets written by other tools: datumaro's edge cases with their exact boxes, and
// the same 273 boxes in VOC, YOLO and two COCO variants (formats/multiformat), which must agree.
#include "formats/format_registry.h"
#include "formats/project_import.h"

#include "fixtures.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace osprey;
using namespace osprey::formats;

namespace {

ReadResult readOk(const std::string& relative, const std::string& format, const std::string& imagesDir = {},
                  CrowdPolicy crowd = CrowdPolicy::Keep) {
    ReadOptions options;
    options.source = test::fixture(relative);
    if (!imagesDir.empty())
        options.imagesDir = test::fixture(imagesDir);
    options.crowd = crowd;
    auto read = readSource(options, format);
    if (!read)
        qFatal("%s", read.message().c_str());
    return std::move(*read);
}

const DatasetImage* imageNamed(const Dataset& dataset, const std::string& name, project::Split split) {
    for (const auto& image : dataset.images)
        if (image.name == name && image.split == split)
            return &image;
    return nullptr;
}

bool near(double a, double b, double tolerance = 1e-4) {
    return std::fabs(a - b) <= tolerance;
}

/// Checks one box (class name and xyxy px) within `tolerance`.
bool hasBox(const Dataset& dataset, const DatasetImage& image, const std::string& cls, double x1, double y1,
            double x2, double y2, double tolerance = 1e-4) {
    return std::any_of(image.boxes.begin(), image.boxes.end(), [&](const DatasetBox& b) {
        return dataset.classes[static_cast<std::size_t>(b.classIndex)].name == cls &&
               near(b.x1, x1, tolerance) && near(b.y1, y1, tolerance) && near(b.x2, x2, tolerance) &&
               near(b.y2, y2, tolerance);
    });
}

using BoxKey = std::tuple<std::string, double, double, double, double>;

/// file name -> sorted boxes (class name, x1, y1, x2, y2).
std::map<std::string, std::vector<BoxKey>> boxesByImage(const Dataset& dataset) {
    std::map<std::string, std::vector<BoxKey>> out;
    for (const auto& image : dataset.images) {
        auto& list = out[image.name];
        for (const auto& b : image.boxes)
            list.emplace_back(dataset.classes[static_cast<std::size_t>(b.classIndex)].name, b.x1, b.y1, b.x2,
                              b.y2);
        std::sort(list.begin(), list.end());
    }
    return out;
}

} // namespace

class TestFormatReaders : public QObject {
    Q_OBJECT
private slots:
    void detectsFormats() {
        OSPREY_REQUIRE_FIXTURE("formats/datumaro");
        const auto& registry = FormatRegistry::instance();
        const std::pair<const char*, const char*> cases[] = {
            {"formats/datumaro/yolo_dataset/strict", "yolo"},
            {"formats/datumaro/yolo_dataset/labels", "yolo"},
            {"formats/datumaro/roboflow_dataset/yolo", "yolo"},
            {"formats/datumaro/kaggle_dataset/relaxed_yolo", "yolo"},
            {"formats/datumaro/coco_dataset/coco_instances", "coco"},
            {"formats/datumaro/coco_dataset/coco_roboflow", "coco"},
            {"formats/datumaro/voc_dataset/voc_dataset1", "voc"},
            {"formats/datumaro/voc_dataset/voc_dataset2", "voc"},
            {"formats/multiformat/gts/pascalvoc_format", "voc"},
            {"formats/multiformat/gts/yolo_format", "yolo"},
            {"formats/multiformat/gts/coco_format_v2", "coco"},
            {"formats/multiformat/images", "images"},
        };
        for (const auto& [path, expected] : cases) {
            const auto format = registry.detect(test::fixture(path));
            QVERIFY2(format.hasValue(), path);
            QVERIFY2((*format)->name() == expected, (std::string(path) + " -> " + (*format)->name()).c_str());
        }
        QVERIFY(!registry.detect(test::fixture("formats/nope")));
    }

    void yoloLayoutsGiveTheSameBoxes_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("images");
        QTest::newRow("strict") << "formats/datumaro/yolo_dataset/strict" << 1;
        QTest::newRow("annotations") << "formats/datumaro/yolo_dataset/annotations" << 1;
        QTest::newRow("labels") << "formats/datumaro/yolo_dataset/labels" << 2;
    }
    void yoloLayoutsGiveTheSameBoxes() {
        OSPREY_REQUIRE_FIXTURE("formats/datumaro");
        QFETCH(QString, path);
        QFETCH(int, images);
        const auto read = readOk(path.toStdString(), "yolo");
        const Dataset& d = read.dataset;
        QCOMPARE(d.classes.size(), std::size_t(10));
        QCOMPARE(d.classes[9].name, std::string("label_9"));
        QCOMPARE(static_cast<int>(d.images.size()), images);
        for (const auto& image : d.images) {
            QCOMPARE(image.width, 15);
            QCOMPARE(image.height, 10);
            QCOMPARE(image.boxes.size(), std::size_t(2));
            QVERIFY(image.status == project::ImageStatus::Labeled);
            // (0,2,4,2) and (3,3,2,3) as xywh px; the labels carry 6 decimals.
            QVERIFY(hasBox(d, image, "label_2", 0, 2, 4, 4, 1e-4));
            QVERIFY(hasBox(d, image, "label_4", 3, 3, 5, 6, 1e-4));
        }
        if (images == 2) {
            QVERIFY(imageNamed(d, "1.jpg", project::Split::Train));
            QVERIFY(imageNamed(d, "1.jpg", project::Split::Val));
        }
    }

    void roboflowYaml() {
        OSPREY_REQUIRE_FIXTURE("formats/datumaro");
        const auto read = readOk("formats/datumaro/roboflow_dataset/yolo", "auto");
        QCOMPARE(read.dataset.classes.size(), std::size_t(2));
        QCOMPARE(read.dataset.classes[1].name, std::string("label_1"));
        QCOMPARE(read.dataset.images.size(), std::size_t(3));
        const auto* train = imageNamed(read.dataset, "train_001.jpg", project::Split::Train);
        QVERIFY(train);
        QCOMPARE(train->boxes.size(), std::size_t(1));
        // "0 0.35 0.3 0.3 0.2" on a 10x5 image
        QVERIFY(hasBox(read.dataset, *train, "label_0", 2, 1, 5, 2));
        QVERIFY(imageNamed(read.dataset, "val_001.jpg", project::Split::Val));
        // ../valid/images does not exist; the fallback to val/images is reported.
        QVERIFY(std::any_of(read.problems.begin(), read.problems.end(), [](const Problem& p) {
            return p.text().find("data.yaml: val: ../valid/images not found; using val/images") !=
                   std::string::npos;
        }));
    }

    void cocoInstances() {
        OSPREY_REQUIRE_FIXTURE("formats/datumaro");
        const auto read = readOk("formats/datumaro/coco_dataset/coco_instances", "auto");
        const Dataset& d = read.dataset;
        QCOMPARE(d.classes.size(), std::size_t(3));
        QCOMPARE(d.classes[2].name, std::string("c")); // category id 4 -> third class
        const auto* a = imageNamed(d, "a.jpg", project::Split::Train);
        QVERIFY(a);
        QVERIFY(a->found);
        QCOMPARE(a->width, 10);
        QCOMPARE(a->height, 5);
        QCOMPARE(a->boxes.size(), std::size_t(1));
        QVERIFY(hasBox(d, *a, "b", 2, 2, 5, 3, 0));
        const auto* b = imageNamed(d, "b.jpg", project::Split::Val);
        QVERIFY(b);
        QCOMPARE(b->width, 5);
        QCOMPARE(b->height, 10);
        QCOMPARE(b->boxes.size(), std::size_t(2));
        QVERIFY(hasBox(d, *b, "a", 0, 0, 1, 2, 0));
        QVERIFY(hasBox(d, *b, "b", 0, 0, 1, 9, 0));
        const auto crowd =
            std::find_if(b->boxes.begin(), b->boxes.end(), [](const DatasetBox& x) { return x.flags.crowd; });
        QVERIFY(crowd != b->boxes.end());
        QCOMPARE(crowd->y2, 9.0);

        const auto skipped =
            readOk("formats/datumaro/coco_dataset/coco_instances", "coco", {}, CrowdPolicy::Skip);
        QCOMPARE(skipped.skippedCrowd, std::int64_t(1));
        QCOMPARE(skipped.dataset.boxCount(), std::size_t(2));
    }

    void cocoRoboflowSplitsFromFolders() {
        OSPREY_REQUIRE_FIXTURE("formats/datumaro");
        const auto read = readOk("formats/datumaro/coco_dataset/coco_roboflow", "coco");
        QCOMPARE(read.dataset.images.size(), std::size_t(2));
        QVERIFY(imageNamed(read.dataset, "a.jpg", project::Split::Train));
        QVERIFY(imageNamed(read.dataset, "b.jpg", project::Split::Val));
        for (const auto& image : read.dataset.images)
            QVERIFY(image.found);
    }

    void vocDataset1() {
        OSPREY_REQUIRE_FIXTURE("formats/datumaro");
        const auto read = readOk("formats/datumaro/voc_dataset/voc_dataset1", "voc");
        const Dataset& d = read.dataset;
        QCOMPARE(d.images.size(), std::size_t(2));
        const auto* first = imageNamed(d, "2007_000001.jpg", project::Split::Train);
        QVERIFY(first);
        QCOMPARE(first->width, 20);
        QCOMPARE(first->height, 10);
        QCOMPARE(first->boxes.size(), std::size_t(2));
        QVERIFY(hasBox(d, *first, "cat", 1, 2, 3, 4, 0));
        QVERIFY(hasBox(d, *first, "person", 4, 5, 6, 7, 0));
        const auto cat = std::find_if(first->boxes.begin(), first->boxes.end(), [&](const DatasetBox& b) {
            return d.classes[b.classIndex].name == "cat";
        });
        QCOMPARE(cat->flags.truncated, true);
        QCOMPARE(cat->flags.difficult, false);
        // Listed in the test subset, no XML: unlabeled, with a warning.
        const auto* second = imageNamed(d, "2007_000002.jpg", project::Split::Test);
        QVERIFY(second);
        QVERIFY(second->status == project::ImageStatus::New);
        QVERIFY(std::any_of(read.problems.begin(), read.problems.end(), [](const Problem& p) {
            return p.kind == ProblemKind::ImageWithoutLabel &&
                   p.text().find("2007_000002") != std::string::npos;
        }));
    }

    void vocFractionalAndEmpty() {
        OSPREY_REQUIRE_FIXTURE("formats/datumaro");
        const auto read = readOk("formats/datumaro/voc_dataset/voc_dataset2", "voc");
        const Dataset& d = read.dataset;
        QCOMPARE(d.classes.size(), std::size_t(22)); // labelmap.txt order
        QCOMPARE(d.classes[0].name, std::string("background"));
        QCOMPARE(d.images.size(), std::size_t(5));
        const auto* empty = imageNamed(d, "@.jpg", project::Split::Train);
        QVERIFY(empty);
        QCOMPARE(empty->boxes.size(), std::size_t(0));
        QVERIFY(empty->status == project::ImageStatus::VerifiedEmpty);
        const auto* a = imageNamed(d, "a.jpg", project::Split::Train);
        QVERIFY(a);
        QVERIFY(hasBox(d, *a, "background", 1, 2, 4, 6, 0));

        const auto voc3 = readOk("formats/datumaro/kaggle_dataset/relaxed_voc1", "voc");
        QVERIFY(voc3.dataset.boxCount() >= 1);
    }

    void multiformatAgrees() {
        OSPREY_REQUIRE_FIXTURE("formats/multiformat");
        const std::string images = "formats/multiformat/images";
        const auto voc = readOk("formats/multiformat/gts/pascalvoc_format", "voc", images);
        const auto yolo = readOk("formats/multiformat/gts/yolo_format", "yolo", images);
        const auto coco1 = readOk("formats/multiformat/gts/coco_format_v1", "coco", images);
        const auto coco2 = readOk("formats/multiformat/gts/coco_format_v2", "coco", images);
        for (const auto* r : {&voc, &yolo, &coco1, &coco2}) {
            QCOMPARE(r->dataset.boxCount(), std::size_t(273));
            QCOMPARE(r->dataset.images.size(), std::size_t(100));
            QCOMPARE(r->dataset.classes.size(), std::size_t(20));
            for (const auto& image : r->dataset.images)
                QVERIFY2(image.found, image.name.c_str());
        }
        // The matching by name in images=DIR is reported.
        QVERIFY2(yolo.notes.front().find("matched 100 of 100 images by file name") != std::string::npos,
                 yolo.notes.front().c_str());
        const auto reference = boxesByImage(voc.dataset);
        double worst = 0;
        for (const auto* other : {&yolo, &coco1, &coco2}) {
            const auto boxes = boxesByImage(other->dataset);
            QCOMPARE(boxes.size(), reference.size());
            for (const auto& [name, list] : reference) {
                const auto it = boxes.find(name);
                QVERIFY2(it != boxes.end(), name.c_str());
                QCOMPARE(it->second.size(), list.size());
                for (std::size_t i = 0; i < list.size(); ++i) {
                    QCOMPARE(std::get<0>(it->second[i]), std::get<0>(list[i]));
                    worst = std::max({worst, std::fabs(std::get<1>(it->second[i]) - std::get<1>(list[i])),
                                      std::fabs(std::get<2>(it->second[i]) - std::get<2>(list[i])),
                                      std::fabs(std::get<3>(it->second[i]) - std::get<3>(list[i])),
                                      std::fabs(std::get<4>(it->second[i]) - std::get<4>(list[i]))});
                }
            }
        }
        qInfo("largest disagreement with the VOC XML: %.6f px", worst);
        QVERIFY(worst <= 0.001);
        QVERIFY(worst > 0); // YOLO's 6 decimals cannot be exact: the comparison really ran
    }
};

QTEST_GUILESS_MAIN(TestFormatReaders)
#include "tst_format_readers.moc"
