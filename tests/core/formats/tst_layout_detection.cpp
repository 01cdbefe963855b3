// Layout detection that finds the labels wherever they are: VOC XML in annots/, xml/ or beside the images,
// YOLO labels beside the images or in a parallel labels/, COCO JSON in any folder; pairing by relative
// path then stem; the one-line layout report; and the import that refuses to drop every label.
#include "formats/layout_scan.h"
#include "formats/project_import.h"

#include "layout_fixtures.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace osprey;
using namespace osprey::formats;
namespace fs = std::filesystem;

namespace {

fs::path root(const QTemporaryDir& dir) {
    return fs::path(dir.path().toStdString()) / "DATASET";
}

Expected<ReadResult> read(const fs::path& source, const std::string& format = "auto",
                          std::string* chosen = nullptr) {
    ReadOptions options;
    options.source = source;
    options.probe = ImageProbe::SizeOnly;
    return readSource(options, format, chosen);
}

std::unique_ptr<project::Project> newProject(const fs::path& folder) {
    auto project = project::Project::create(folder);
    if (!project)
        qFatal("%s", project.message().c_str());
    return std::move(*project);
}

std::string problems(const ReadResult& result) {
    std::string all;
    for (const auto& p : result.problems)
        all += p.text() + "\n";
    return all;
}

} // namespace

class TestLayoutDetection : public QObject {
    Q_OBJECT
private slots:
    void vocInAnnotsBesideImagesIsDetected() {
        QTemporaryDir dir;
        const fs::path data = root(dir);
        test::makeAnnotsBesideImages(data);
        for (const char* format : {"auto", "voc"}) {
            std::string chosen;
            const auto result = read(data, format, &chosen);
            QVERIFY2(result.hasValue(), result ? "" : result.message().c_str());
            QCOMPARE(chosen, std::string("voc"));
            QCOMPARE(result->dataset.images.size(), std::size_t(4));
            QCOMPARE(result->dataset.boxCount(), std::size_t(7));
            QCOMPARE(result->dataset.classes.size(), std::size_t(2));
            for (const auto& image : result->dataset.images) {
                QVERIFY(image.found);
                QCOMPARE(image.path.parent_path().filename().string(), std::string("images"));
                QCOMPARE(image.path.stem().string(), image.labelPath.stem().string());
                QCOMPARE(image.width, 40);
            }
            QCOMPARE(result->layout,
                     std::string("4 VOC annotations in annots/, 4 images in images/, all paired"));
            QCOMPARE(result->labelFiles, std::int64_t(4));
            QVERIFY2(result->problems.empty(), problems(*result).c_str());
        }
    }

    void importReportsTheLayoutBeforeWriting() {
        QTemporaryDir dir;
        const fs::path data = root(dir);
        test::makeAnnotsBesideImages(data);
        auto project = newProject(fs::path(dir.path().toStdString()) / "p");
        ImportOptions options;
        options.read.source = data;
        std::string layoutSeen;
        std::int64_t imagesWhenReported = -1;
        options.afterRead = [&](const ReadResult& r) {
            layoutSeen = r.layout;
            imagesWhenReported = project->images().count().value();
        };
        const auto summary = importDataset(*project, options);
        QVERIFY2(summary.hasValue(), summary ? "" : summary.message().c_str());
        QCOMPARE(summary->format, std::string("voc"));
        QCOMPARE(summary->images, std::int64_t(4));
        QCOMPARE(summary->boxes, std::int64_t(7));
        QCOMPARE(summary->unlabeled, std::int64_t(0));
        QCOMPARE(layoutSeen, std::string("4 VOC annotations in annots/, 4 images in images/, all paired"));
        QCOMPARE(summary->layout, layoutSeen);
        QCOMPARE(imagesWhenReported, std::int64_t(0));
        QCOMPARE(project->images().count().value(), std::int64_t(4));
    }

    void vocInXmlFolderAndBesideImages() {
        QTemporaryDir dir;
        const fs::path data = root(dir);
        test::writeImage(data / "photos" / "p1.png", 50, 40);
        test::writeText(data / "xml" / "p1.xml",
                        test::vocXml("p1.png", 50, 40, test::vocObject("car", 1, 1, 30, 30)));
        test::writeImage(data / "more" / "q1.jpg", 20, 20);
        test::writeText(data / "more" / "q1.xml",
                        test::vocXml("q1.jpg", 20, 20, test::vocObject("car", 1, 1, 10, 10)));
        std::string chosen;
        const auto result = read(data, "auto", &chosen);
        QVERIFY2(result.hasValue(), result ? "" : result.message().c_str());
        QCOMPARE(chosen, std::string("voc"));
        QCOMPARE(result->dataset.images.size(), std::size_t(2));
        QCOMPARE(result->dataset.boxCount(), std::size_t(2));
        for (const auto& image : result->dataset.images)
            QVERIFY2(image.found, image.path.string().c_str());
        QCOMPARE(result->layout,
                 std::string("2 VOC annotations in more/ (1), xml/ (1), 2 images in more/ (1), "
                             "photos/ (1), all paired"));
    }

    void pairsByRelativePathBeforeStem() {
        QTemporaryDir dir;
        const fs::path data = root(dir);
        // Two images called 1.jpg: the XML in annots/night/ must get images/night/1.jpg.
        test::writeImage(data / "images" / "day" / "1.jpg", 40, 30);
        test::writeImage(data / "images" / "night" / "1.jpg", 60, 50);
        test::writeText(data / "annots" / "day" / "1.xml",
                        test::vocXml("1.jpg", 40, 30, test::vocObject("a", 1, 1, 9, 9)));
        test::writeText(data / "annots" / "night" / "1.xml",
                        test::vocXml("1.jpg", 60, 50, test::vocObject("a", 1, 1, 55, 45)));
        const auto result = read(data, "voc");
        QVERIFY2(result.hasValue(), result ? "" : result.message().c_str());
        QCOMPARE(result->dataset.images.size(), std::size_t(2));
        for (const auto& image : result->dataset.images) {
            QCOMPARE(image.path.parent_path().filename(), image.labelPath.parent_path().filename());
            QCOMPARE(image.width, image.labelPath.parent_path().filename() == "night" ? 60 : 40);
        }
        QVERIFY2(result->problems.empty(), problems(*result).c_str());

        // The index itself: longest trailing run of components, then the label's own folder.
        const ImagePairIndex index(
            {data / "images/day/1.jpg", data / "images/night/1.jpg", data / "x/2.png"});
        QCOMPARE(index.find(data / "annots/night/1.xml").value(), data / "images/night/1.jpg");
        QCOMPARE(index.find(fs::path("day/1.jpg")).value(), data / "images/day/1.jpg");
        QCOMPARE(index.find(fs::path("2.jpg")).value(), data / "x/2.png"); // stem, any extension
        QVERIFY(!index.find(fs::path("3.jpg")));
    }

    void vocImagesWithoutXmlImportUnlabeled() {
        QTemporaryDir dir;
        const fs::path data = root(dir);
        test::makeAnnotsBesideImages(data);
        test::writeImage(data / "images" / "e.jpg", 40, 30);
        const auto result = read(data, "auto");
        QVERIFY(result.hasValue());
        QCOMPARE(result->dataset.images.size(), std::size_t(5));
        QCOMPARE(result->layout, std::string("4 VOC annotations in annots/, 5 images in images/: 4 paired, "
                                             "1 images without labels"));
    }

    void yoloBesideAndInParallelLabels() {
        QTemporaryDir dir;
        const fs::path data = root(dir);
        test::writeImage(data / "images" / "train" / "a.jpg", 100, 50);
        test::writeText(data / "labels" / "train" / "a.txt", "0 0.5 0.5 0.2 0.4\n");
        test::writeImage(data / "images" / "train" / "b.jpg", 100, 50);
        test::writeText(data / "labels" / "train" / "b.txt", "1 0.25 0.5 0.1 0.2\n");
        std::string chosen;
        auto result = read(data, "auto", &chosen);
        QVERIFY2(result.hasValue(), result ? "" : result.message().c_str());
        QCOMPARE(chosen, std::string("yolo"));
        QCOMPARE(result->dataset.boxCount(), std::size_t(2));
        QCOMPARE(result->layout,
                 std::string("2 YOLO label files in labels/train/, 2 images in images/train/, all paired"));

        QTemporaryDir dir2;
        const fs::path flat = root(dir2);
        test::writeImage(flat / "a.jpg", 100, 50);
        test::writeText(flat / "a.txt", "0 0.5 0.5 0.2 0.4\n");
        result = read(flat, "auto", &chosen);
        QVERIFY(result.hasValue());
        QCOMPARE(chosen, std::string("yolo"));
        QCOMPARE(result->layout, std::string("1 YOLO label files in ./, 1 images in ./, all paired"));
    }

    void cocoJsonInAnyFolder() {
        QTemporaryDir dir;
        const fs::path data = root(dir);
        test::writeImage(data / "pics" / "a.jpg", 40, 30);
        test::writeText(data / "meta" / "deep" / "labels.json",
                        R"({"images":[{"id":1,"file_name":"a.jpg","width":40,"height":30}],
                            "annotations":[{"id":1,"image_id":1,"category_id":3,"bbox":[1,2,10,20],"iscrowd":0}],
                            "categories":[{"id":3,"name":"bird"}]})");
        std::string chosen;
        const auto result = read(data, "auto", &chosen);
        QVERIFY2(result.hasValue(), result ? "" : result.message().c_str());
        QCOMPARE(chosen, std::string("coco"));
        QCOMPARE(result->dataset.images.size(), std::size_t(1));
        QVERIFY(result->dataset.images[0].found);
        QCOMPARE(result->dataset.images[0].path, data / "pics" / "a.jpg");
        QCOMPARE(result->dataset.boxCount(), std::size_t(1));
        QCOMPARE(result->layout,
                 std::string("1 COCO JSON files in meta/deep/, 1 images in pics/, all paired"));
    }

    void plainImageFolderIsStillAnImageImport() {
        QTemporaryDir dir;
        const fs::path data = root(dir);
        for (const char* name : {"x.jpg", "y.png", "sub/z.jpg"})
            test::writeImage(data / name, 16, 16);
        test::writeText(data / "notes.txt", "taken on a sunny day\n");
        auto project = newProject(fs::path(dir.path().toStdString()) / "p");
        ImportOptions options;
        options.read.source = data;
        const auto summary = importDataset(*project, options);
        QVERIFY2(summary.hasValue(), summary ? "" : summary.message().c_str());
        QCOMPARE(summary->format, std::string("images"));
        QCOMPARE(summary->images, std::int64_t(3));
        QCOMPARE(summary->unlabeled, std::int64_t(3));
        QCOMPARE(summary->layout, std::string("3 images in ./ (2), sub/ (1), no label files"));
    }

    void labelFilesWithoutBoxesAreAnError() {
        QTemporaryDir dir;
        const fs::path data = root(dir);
        for (const char* stem : {"a", "b"}) {
            test::writeImage(data / "images" / (std::string(stem) + ".jpg"), 40, 30);
            // Every object lacks its <bndbox>: the XML are found, no box can be read.
            test::writeText(
                data / "annots" / (std::string(stem) + ".xml"),
                test::vocXml(std::string(stem) + ".jpg", 40, 30, "  <object><name>cat</name></object>\n"));
        }
        auto project = newProject(fs::path(dir.path().toStdString()) / "p");
        ImportOptions options;
        options.read.source = data;
        const auto summary = importDataset(*project, options);
        QVERIFY(!summary);
        QCOMPARE(summary.error().code, std::string("empty"));
        const std::string& message = summary.message();
        QVERIFY2(message.find(
                     "2 label files found but 0 boxes read from them (found 2 VOC XML annotations in "
                     "annots/, 2 images in images/); first problem: error: annots/a.xml: line 6: object 1 "
                     "'cat' has no <bndbox>") != std::string::npos,
                 message.c_str());
        QCOMPARE(project->images().count().value(), std::int64_t(0));
    }

    void zeroImagesIsAnErrorThatSaysWhatToPass() {
        QTemporaryDir dir;
        const fs::path data = root(dir);
        test::writeImage(data / "a.jpg", 16, 16);
        auto project = newProject(fs::path(dir.path().toStdString()) / "p");
        ImportOptions options;
        options.read.source = data;
        options.format = "voc";
        const auto summary = importDataset(*project, options);
        QVERIFY(!summary);
        QVERIFY2(summary.message().find("0 images to import with format=voc (found 1 images in ./); pass "
                                        "format=images (the folder has no label files)") != std::string::npos,
                 summary.message().c_str());

        // An explicit format=images on a labelled tree imports the images on purpose.
        QTemporaryDir dir2;
        test::makeAnnotsBesideImages(root(dir2));
        auto project2 = newProject(fs::path(dir2.path().toStdString()) / "p");
        options.read.source = root(dir2);
        options.format = "images";
        const auto images = importDataset(*project2, options);
        QVERIFY2(images.hasValue(), images ? "" : images.message().c_str());
        QCOMPARE(images->images, std::int64_t(4));
        QCOMPARE(images->boxes, std::int64_t(0));
    }

    void emptyLabelFilesAreNegativesNotAnError() {
        QTemporaryDir dir;
        const fs::path data = root(dir);
        test::writeImage(data / "images" / "a.jpg", 16, 16);
        test::writeText(data / "labels" / "a.txt", "");
        test::writeText(data / "classes.txt", "cat\n");
        auto project = newProject(fs::path(dir.path().toStdString()) / "p");
        ImportOptions options;
        options.read.source = data;
        options.format = "yolo";
        const auto summary = importDataset(*project, options);
        QVERIFY2(summary.hasValue(), summary ? "" : summary.message().c_str());
        QCOMPARE(summary->verifiedEmpty, std::int64_t(1));
    }

    void scanIsBounded() {
        QTemporaryDir dir;
        fs::path deep = root(dir);
        for (int i = 0; i < kMaxScanDepth + 2; ++i) {
            std::string name = "d";
            name += std::to_string(i);
            deep /= name;
        }
        test::writeText(deep / "lost.xml", test::vocXml("lost.jpg", 10, 10, ""));
        test::writeText(root(dir) / "d0" / "found.xml", test::vocXml("found.jpg", 10, 10, ""));
        const LayoutScan scan = scanLayout(root(dir));
        QVERIFY(scan.truncated);
        QCOMPARE(scan.vocXml.size(), std::size_t(1));
        QCOMPARE(scan.vocXml[0].filename().string(), std::string("found.xml"));
        QVERIFY2(describeScan(scan).find("the scan stopped at 8 folder levels") != std::string::npos,
                 describeScan(scan).c_str());
    }
};

QTEST_GUILESS_MAIN(TestLayoutDetection)
#include "tst_layout_detection.moc"
