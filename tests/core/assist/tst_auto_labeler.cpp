// Class mapping by name and batch auto-label into a project database, with the Darknet fixture.
#include "assist/auto_labeler.h"
#include "assist/inference_threads.h"
#include "assist/review_queue.h"
#include "demo/demo_dataset.h"
#include "fixtures.h"
#include "model/detector.h"
#include "model/weights.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace osprey;
using namespace osprey::assist;

class TestAutoLabeler : public QObject {
    Q_OBJECT
private slots:
    void mapsClassesByName() {
        QTemporaryDir dir;
        auto project = project::Project::create(dir.path().toStdString());
        QVERIFY(project);
        const auto dog = *(*project)->classes().add("Dog");
        const auto cat = *(*project)->classes().add("cat");
        const std::vector<std::string> model{"person", "dog", "car", "cat"};
        // The project has classes: by default nothing is added, unmapped classes stay unmapped.
        auto mapping = mapClassesByName(**project, model, AddClasses::Auto);
        QVERIFY(mapping);
        QCOMPARE(mapping->mappedCount(), 2);
        QVERIFY(!mapping->projectClassIds[0]);
        QCOMPARE(*mapping->projectClassIds[1], dog);
        QCOMPARE(*mapping->projectClassIds[3], cat);
        QCOMPARE((*project)->classes().list()->size(), size_t(2));
        // add_classes=true adds the missing ones at the end.
        mapping = mapClassesByName(**project, model, AddClasses::Yes);
        QVERIFY(mapping);
        QCOMPARE(mapping->mappedCount(), 4);
        const auto classes = *(*project)->classes().list();
        QCOMPARE(classes.size(), size_t(4));
        QCOMPARE(classes[2].name, std::string("person"));
        QCOMPARE(classes[3].name, std::string("car"));
        QCOMPARE(*mapping->projectClassIds[2], classes[3].id);
    }

    void savedMappingOverridesNames() {
        QTemporaryDir dir;
        auto project = project::Project::create(dir.path().toStdString());
        const auto dog = *(*project)->classes().add("dog");
        const auto animal = *(*project)->classes().add("animal");
        const std::vector<std::string> model{"dog", "cat", "car"};
        ClassMapping edited;
        edited.projectClassIds = {std::nullopt, animal, std::nullopt}; // dog ignored, cat -> animal
        QVERIFY(saveClassMapping(**project, "m.onnx", model, edited));
        auto mapping = mapClassesByName(**project, model, AddClasses::No, "m.onnx");
        QVERIFY(mapping);
        QVERIFY(!mapping->projectClassIds[0]);
        QCOMPARE(*mapping->projectClassIds[1], animal);
        QVERIFY(!mapping->projectClassIds[2]);
        // Another model key (or none) still maps by name.
        QCOMPARE(*mapClassesByName(**project, model, AddClasses::No, "other.onnx")->projectClassIds[0], dog);
    }

    void emptyProjectGetsModelClasses() {
        QTemporaryDir dir;
        auto project = project::Project::create(dir.path().toStdString());
        auto mapping = mapClassesByName(**project, {"a", "b"}, AddClasses::Auto);
        QVERIFY(mapping);
        QCOMPARE(mapping->mappedCount(), 2);
        QCOMPARE((*project)->classes().list()->size(), size_t(2));
        // add_classes=false on an empty project maps nothing.
        QTemporaryDir other;
        auto bare = project::Project::create(other.path().toStdString());
        QCOMPARE(mapClassesByName(**bare, {"a"}, AddClasses::No)->mappedCount(), 0);
    }

    void parsesSelections() {
        AutoLabelOptions options;
        QVERIFY(parseImageSelection("split:val", options));
        QVERIFY(options.images == ImageSelection::Split && options.split == project::Split::Val);
        QVERIFY(parseImageSelection("all", options));
        QVERIFY(options.images == ImageSelection::All);
        QVERIFY(!parseImageSelection("split:nope", options));
        QVERIFY(!parseImageSelection("everything", options));
    }

    void autoLabelsWithDarknet() {
        OSPREY_REQUIRE_FIXTURE("models/yolo-fastest-1.1/yolo-fastest-1.1.weights");
        OSPREY_REQUIRE_FIXTURE("models/fastestdet/images");
        const auto modelDir = test::fixture("models/yolo-fastest-1.1");
        auto predictor =
            BoxPredictor::open({modelDir / "yolo-fastest-1.1.cfg", modelDir / "yolo-fastest-1.1.weights",
                                modelDir / "coco.names", "cpu"});
        QVERIFY2(predictor, predictor ? "" : predictor.message().c_str());
        QTemporaryDir dir;
        auto project = project::Project::create(dir.path().toStdString());
        QVERIFY(project);
        std::vector<project::NewImage> images;
        for (int i = 0; i < 5; ++i)
            images.push_back(
                {test::fixture("models/fastestdet/images/" + std::to_string(i) + ".jpg").string(),
                 0,
                 0,
                 {},
                 project::ImageStatus::New,
                 project::Split::None,
                 false});
        images.push_back({(dir.path() + "/missing.jpg").toStdString(),
                          0,
                          0,
                          {},
                          project::ImageStatus::New,
                          project::Split::None,
                          false});
        QVERIFY((*project)->images().addAll(images));
        // Only "person" exists, so every other COCO class is ignored.
        const auto person = *(*project)->classes().add("person");
        AutoLabelOptions options;
        options.batchSize = 2;
        int calls = 0;
        auto report = autoLabel(**project, **predictor, options, [&](int, int total) {
            ++calls;
            return total == 6;
        });
        QVERIFY2(report, report ? "" : report.message().c_str());
        QCOMPARE(report->images, 6);
        QCOMPARE(report->failed, 1);
        QCOMPARE(calls, 3);
        QVERIFY(report->boxes > 0);
        int stored = 0;
        const auto listed = (*project)->images().list({std::nullopt, std::nullopt, std::nullopt, 0, 0});
        QVERIFY(listed);
        for (const auto& image : *listed) {
            const auto boxes = (*project)->boxes().ofImage(image.id);
            QVERIFY(boxes);
            for (const auto& box : *boxes) {
                ++stored;
                QCOMPARE(box.classId, person);
                QVERIFY(box.source == project::BoxSource::Model);
                QVERIFY(box.score && *box.score > 0.25 && *box.score <= 1.0);
                QVERIFY(box.x2 > box.x1 && box.y2 > box.y1);
            }
            if (image.boxCount > 0)
                QVERIFY(image.status == project::ImageStatus::Labeled);
        }
        QCOMPARE(stored, report->boxes);
        // images=all, mode=replace: the model boxes are replaced, not doubled.
        options.images = ImageSelection::All;
        options.mode = WriteMode::Replace;
        auto again = autoLabel(**project, **predictor, options);
        QVERIFY(again);
        QCOMPARE(again->boxes, report->boxes);
        int after = 0;
        const auto relisted = (*project)->images().list({std::nullopt, std::nullopt, std::nullopt, 0, 0});
        QVERIFY(relisted);
        for (const auto& image : *relisted)
            after += image.boxCount;
        QCOMPARE(after, report->boxes);
        // A second run over unlabeled images only touches those that got no boxes.
        options.images = ImageSelection::Unlabeled;
        options.mode = WriteMode::Add;
        auto unlabeled = autoLabel(**project, **predictor, options);
        QVERIFY(unlabeled);
        QCOMPARE(unlabeled->images, 6 - report->labeled);
    }

    void autoLabeledImagesNeedReview() {
        // A reviewed image that gets model boxes goes back to labeled and into the review queue; marking
        // it reviewed takes it out again.
        OSPREY_REQUIRE_FIXTURE("models/yolo-fastest-1.1/yolo-fastest-1.1.weights");
        OSPREY_REQUIRE_FIXTURE("models/fastestdet/images");
        const auto modelDir = test::fixture("models/yolo-fastest-1.1");
        auto predictor =
            BoxPredictor::open({modelDir / "yolo-fastest-1.1.cfg", modelDir / "yolo-fastest-1.1.weights",
                                modelDir / "coco.names", "cpu"});
        QVERIFY(predictor);
        QTemporaryDir dir;
        auto project = project::Project::create(dir.path().toStdString());
        QVERIFY(project);
        const auto bus = *(*project)->classes().add("bus");
        const auto busImage =
            *(*project)->images().add({test::fixture("models/fastestdet/images/1.jpg").string(),
                                       0,
                                       0,
                                       {},
                                       {},
                                       project::Split::None,
                                       false});
        const auto personImage =
            *(*project)->images().add({test::fixture("models/fastestdet/images/2.jpg").string(),
                                       0,
                                       0,
                                       {},
                                       {},
                                       project::Split::None,
                                       false});
        // The bus was labelled by hand where the model puts it, and the image reviewed.
        auto decoded = imaging::decodeImage(test::fixture("models/fastestdet/images/1.jpg"));
        QVERIFY(decoded);
        auto proposals = (*predictor)->predict(*decoded, {});
        QVERIFY(proposals && !proposals->empty());
        const auto& found = (*proposals)[0];
        project::NewBox manual;
        manual.imageId = busImage, manual.classId = bus;
        manual.x1 = found.x1, manual.y1 = found.y1, manual.x2 = found.x2, manual.y2 = found.y2;
        QVERIFY((*project)->boxes().add(manual));
        QVERIFY((*project)->images().setStatus(busImage, project::ImageStatus::Reviewed));
        QVERIFY((*project)->images().setStatus(personImage, project::ImageStatus::Reviewed));

        AutoLabelOptions options;
        options.images = ImageSelection::All;
        auto report = autoLabel(**project, **predictor, options);
        QVERIFY2(report, report ? "" : report.message().c_str());
        // Only "bus" is mapped: the bus image gets a model box, the person image nothing.
        QCOMPARE(report->labeled, 1);
        QCOMPARE(report->reopened, 1);
        QVERIFY((*project)->images().get(busImage)->status == project::ImageStatus::Labeled);
        QVERIFY((*project)->images().get(personImage)->status == project::ImageStatus::Reviewed);
        auto queue = reviewQueue(**project, {ReviewOrder::Disagreement, 0.5, 0});
        QVERIFY(queue);
        QCOMPARE(queue->items.size(), size_t(1));
        QCOMPARE(queue->items[0].imageId, busImage);
        QCOMPARE(queue->items[0].agreement.matched, 1);
        QCOMPARE(queue->items[0].disagreement(), 0);
        QVERIFY((*project)->images().setStatus(busImage, project::ImageStatus::Reviewed));
        QCOMPARE(reviewQueue(**project)->needingReview, 0);
    }

    void parallelWorkersStoreWhatTheSequentialLoopStores() {
        // An untrained yolov8n at conf 0 proposes its 5 best boxes on every image; two workers (each with
        // its own predictor, one compute thread each) must store exactly what the sequential loop stores.
        QTemporaryDir dir;
        const std::filesystem::path folder = dir.path().toStdString();
        demo::DemoOptions demoOptions;
        demoOptions.images = 9;
        demoOptions.imageSizePx = 96;
        QVERIFY(demo::createDemoProject(folder / "a", demoOptions));
        QVERIFY(demo::createDemoProject(folder / "b", demoOptions));
        auto spec = model::parseModelName("yolov8n", 4);
        QVERIFY(spec);
        auto detector = model::Detector::create(*spec);
        QVERIFY(detector);
        model::CheckpointMeta meta;
        meta.names = demo::demoClassNames();
        meta.imgsz = 96;
        QVERIFY(model::saveWeights(*detector, meta, folder / "best.pt"));
        const ModelSource source{folder / "best.pt", {}, {}, "cpu"};
        setInferenceThreads(1);

        std::map<std::string, std::vector<std::string>> stored[2];
        for (int run = 0; run < 2; ++run) {
            auto project = project::Project::open(folder / (run == 0 ? "a" : "b"));
            QVERIFY(project);
            auto predictor = BoxPredictor::open(source);
            QVERIFY(predictor);
            AutoLabelOptions options;
            options.images = ImageSelection::All;
            options.batchSize = 4;
            options.suggest.confThreshold = 0.0f;
            options.suggest.maxDetections = 5;
            if (run == 0) {
                options.pipelining = Pipelining::Sequential;
            } else {
                options.workers = 2;
                options.openPredictor = [&] { return BoxPredictor::open(source); };
            }
            auto report = autoLabel(**project, **predictor, options);
            QVERIFY2(report, report ? "" : report.message().c_str());
            QCOMPARE(report->images, 9);
            QCOMPARE(report->boxes, 45);
            const auto images = (*project)->images().list({std::nullopt, std::nullopt, std::nullopt, 0, 0});
            for (const auto& image : *images) {
                const auto boxes = (*project)->boxes().ofImage(image.id);
                QVERIFY(boxes);
                for (const auto& box : *boxes)
                    if (box.source == project::BoxSource::Model)
                        stored[run][image.path].push_back(QString("%1 %2 %3 %4 %5 %6")
                                                              .arg(box.classId)
                                                              .arg(box.x1)
                                                              .arg(box.y1)
                                                              .arg(box.x2)
                                                              .arg(box.y2)
                                                              .arg(*box.score)
                                                              .toStdString());
            }
        }
        QCOMPARE(stored[1].size(), size_t(9));
        QVERIFY(stored[0] == stored[1]);

        // More than one worker needs a way to open the others.
        auto project = project::Project::open(folder / "a");
        auto predictor = BoxPredictor::open(source);
        AutoLabelOptions options;
        options.workers = 2;
        auto refused = autoLabel(**project, **predictor, options);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, std::string("invalid"));
    }

    void cliAutolabelStoresModelBoxes() {
        OSPREY_REQUIRE_FIXTURE("models/yolo-fastest-1.1/yolo-fastest-1.1.weights");
        OSPREY_REQUIRE_FIXTURE("models/fastestdet/images");
        QTemporaryDir dir;
        const QString folder = dir.path() + "/p";
        {
            auto project = project::Project::create(folder.toStdString());
            QVERIFY(project);
            QVERIFY((*project)->images().add({test::fixture("models/fastestdet/images/1.jpg").string(),
                                              0,
                                              0,
                                              {},
                                              project::ImageStatus::New,
                                              project::Split::None,
                                              false}));
        }
        const QString model = QString::fromStdString(test::fixture("models/yolo-fastest-1.1").string());
        QProcess cli;
        cli.start(OSPREY_CLI_PATH,
                  {"autolabel", "project=" + folder, "model=" + model + "/yolo-fastest-1.1.cfg",
                   "names=" + model + "/coco.names", "conf=0.5"});
        QVERIFY(cli.waitForFinished(60000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        auto project = project::Project::open(folder.toStdString());
        QVERIFY(project);
        // The project had no classes, so the 80 COCO classes were added; the bus is the one box above 0.5.
        const auto classes = (*project)->classes().list();
        QCOMPARE(classes->size(), size_t(80));
        const auto images = (*project)->images().list();
        QCOMPARE(images->size(), size_t(1));
        QVERIFY((*images)[0].status == project::ImageStatus::Labeled);
        const auto boxes = (*project)->boxes().ofImage((*images)[0].id);
        QCOMPARE(boxes->size(), size_t(1));
        const auto& box = (*boxes)[0];
        QVERIFY(box.source == project::BoxSource::Model);
        QVERIFY(box.score && *box.score > 0.99);
        std::string name;
        for (const auto& info : *classes)
            if (info.id == box.classId)
                name = info.name;
        QCOMPARE(name, std::string("bus"));
    }
};

QTEST_GUILESS_MAIN(TestAutoLabeler)
#include "tst_auto_labeler.moc"
