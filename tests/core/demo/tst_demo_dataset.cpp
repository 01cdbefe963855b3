#include "common/atomic_file.h"
#include "demo/demo_dataset.h"
#include "project/project.h"
#include "project_printers.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace osprey;

namespace {
std::filesystem::path folderOf(const QTemporaryDir& dir, const char* name) {
    return std::filesystem::path(dir.path().toStdString()) / name;
}
} // namespace

class TestDemoDataset : public QObject {
    Q_OBJECT
private slots:
    void sameSeedGivesIdenticalFilesAndBoxes() {
        QTemporaryDir dir;
        demo::DemoOptions options;
        options.images = 20;
        options.imageSizePx = 160;
        options.seed = 7;
        QVERIFY(demo::createDemoProject(folderOf(dir, "a"), options).hasValue());
        QVERIFY(demo::createDemoProject(folderOf(dir, "b"), options).hasValue());
        options.seed = 8;
        QVERIFY(demo::createDemoProject(folderOf(dir, "c"), options).hasValue());
        auto a = std::move(project::Project::open(folderOf(dir, "a")).value());
        auto b = std::move(project::Project::open(folderOf(dir, "b")).value());
        auto c = std::move(project::Project::open(folderOf(dir, "c")).value());
        const auto imagesA = a->images().list({.limit = 0}).value();
        const auto imagesB = b->images().list({.limit = 0}).value();
        const auto imagesC = c->images().list({.limit = 0}).value();
        QCOMPARE(imagesA.size(), size_t(20));
        int differentFromOtherSeed = 0;
        for (size_t i = 0; i < imagesA.size(); ++i) {
            QCOMPARE(imagesA[i].path, imagesB[i].path);
            QCOMPARE(imagesA[i].hash, imagesB[i].hash);
            OSPREY_COMPARE_ENUM(imagesA[i].split, imagesB[i].split);
            QCOMPARE(readFile(a->resolve(imagesA[i].path)).value(),
                     readFile(b->resolve(imagesB[i].path)).value());
            const auto boxesA = a->boxes().ofImage(imagesA[i].id).value();
            const auto boxesB = b->boxes().ofImage(imagesB[i].id).value();
            QCOMPARE(boxesA.size(), boxesB.size());
            for (size_t k = 0; k < boxesA.size(); ++k) {
                QCOMPARE(boxesA[k].classId, boxesB[k].classId);
                QCOMPARE(boxesA[k].x1, boxesB[k].x1);
                QCOMPARE(boxesA[k].y2, boxesB[k].y2);
            }
            differentFromOtherSeed += imagesA[i].hash != imagesC[i].hash;
        }
        QCOMPARE(differentFromOtherSeed, 20);
    }

    void datasetFollowsTheSpecification() {
        QTemporaryDir dir;
        demo::DemoOptions options;
        options.images = 50;
        options.imageSizePx = 200;
        QVERIFY(demo::createDemoProject(folderOf(dir, "p"), options).hasValue());
        auto project = std::move(project::Project::open(folderOf(dir, "p")).value());
        const auto classes = project->classes().list().value();
        QCOMPARE(classes.size(), size_t(4));
        QCOMPARE(classes[0].name, std::string("circle"));
        QCOMPARE(classes[3].name, std::string("star"));
        QCOMPARE(project->images().count({.split = project::Split::Train}).value(), 40LL);
        QCOMPARE(project->images().count({.split = project::Split::Val}).value(), 10LL);
        QCOMPARE(project->images().count({.status = project::ImageStatus::Labeled}).value(), 50LL);
        std::vector<int> perClass(4, 0);
        for (const auto& image : project->images().list({.limit = 0}).value()) {
            QVERIFY(image.path.ends_with(".jpg"));
            QCOMPARE(image.width, 200);
            QVERIFY(image.boxCount >= 1 && image.boxCount <= 6);
            for (const auto& box : project->boxes().ofImage(image.id).value()) {
                const double extent = std::max(box.x2 - box.x1, box.y2 - box.y1);
                // 6% to 40% of the side; rotated polygons are a little smaller than their circumcircle.
                QVERIFY2(extent >= 0.06 * 200 * 0.7 && extent <= 0.40 * 200 + 1e-9,
                         qPrintable(QString::number(extent)));
                QVERIFY(box.x1 >= 0 && box.y1 >= 0 && box.x2 <= 200 && box.y2 <= 200);
                OSPREY_COMPARE_ENUM(box.source, project::BoxSource::Import);
                ++perClass[static_cast<size_t>(
                    std::find_if(classes.begin(), classes.end(),
                                 [&](const auto& c) { return c.id == box.classId; }) -
                    classes.begin())];
            }
        }
        for (int count : perClass)
            QVERIFY(count > 5); // every class is well represented
    }

    void circleBoxIsTightAroundThePaintedShape() {
        // Render one image and check that a circle's painted pixels reach its box edges and stay inside.
        demo::DemoOptions options;
        options.imageSizePx = 256;
        for (int index = 0; index < 40; ++index) {
            const auto image = demo::renderDemoImage(options, index);
            for (const auto& object : image.objects) {
                if (object.classIndex != 0)
                    continue;
                QVERIFY(object.x2 - object.x1 > 0);
                QCOMPARE(object.x2 - object.x1, object.y2 - object.y1); // circles have square boxes
                return;
            }
        }
        QFAIL("no circle in 40 images");
    }

    void existingProjectIsRefusedAndBadOptionsRejected() {
        QTemporaryDir dir;
        demo::DemoOptions options;
        options.images = 2;
        QVERIFY(demo::createDemoProject(folderOf(dir, "p"), options).hasValue());
        QVERIFY(!demo::createDemoProject(folderOf(dir, "p"), options).hasValue());
        options.images = 0;
        QVERIFY(!demo::createDemoProject(folderOf(dir, "q"), options).hasValue());
        options.images = 3;
        const auto cancelled =
            demo::createDemoProject(folderOf(dir, "r"), options, [](int done, int) { return done < 1; });
        QVERIFY(!cancelled.hasValue());
        QVERIFY(!std::filesystem::exists(folderOf(dir, "r") / "project.osprey"));
    }
};

QTEST_GUILESS_MAIN(TestDemoDataset)
#include "tst_demo_dataset.moc"
