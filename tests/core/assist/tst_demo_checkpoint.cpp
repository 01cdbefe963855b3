// A checkpoint trained on the demo project proposes boxes that match the ground truth: at least 90% of
// the objects in the val split get a proposal of their class with IoU >= 0.7 (issue 9), through the same
// BoxPredictor the editor and auto-label use, at the editor's default thresholds (conf 0.25, IoU 0.7).
//
// The checkpoint (tests/data/demo-yolov8n-320.pt) is the best.pt of
//   osprey-cli demo path=D && osprey-cli train project=D model=yolov8n epochs=100 imgsz=320 name=e100
// stripped with `osprey-cli model strip` (EMA weights in float16). The demo generator is deterministic in
// its seed, so the val images here are the ones that run validated on; a change to the generator needs
// the checkpoint retrained.
#include "assist/box_predictor.h"
#include "assist/review_queue.h"
#include "demo/demo_dataset.h"
#include "imaging/image.h"
#include "project/project.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstdio>
#include <map>

using namespace osprey;

class TestDemoCheckpoint : public QObject {
    Q_OBJECT
private slots:
    void valObjectsAreProposedAtIou07() {
        const std::filesystem::path checkpoint =
            std::filesystem::path(OSPREY_TEST_DATA) / "demo-yolov8n-320.pt";
        QVERIFY2(std::filesystem::exists(checkpoint), checkpoint.c_str());
        QTemporaryDir dir;
        const std::filesystem::path folder = std::filesystem::path(dir.path().toStdString()) / "demo";
        QVERIFY(demo::createDemoProject(folder, demo::DemoOptions{}));
        auto project = project::Project::open(folder);
        QVERIFY(project);
        auto classes = (*project)->classes().list();
        QVERIFY(classes);
        std::map<std::string, std::int64_t> classIds;
        for (const auto& info : *classes)
            classIds[info.name] = info.id;

        auto predictor = assist::BoxPredictor::open({checkpoint, {}, {}, "cpu"});
        QVERIFY2(predictor, predictor ? "" : predictor.message().c_str());
        QCOMPARE((*predictor)->names(), demo::demoClassNames());
        QCOMPARE((*predictor)->inputSize(), 320);

        project::ImageQuery val;
        val.split = project::Split::Val;
        val.limit = 0;
        const auto images = (*project)->images().list(val);
        QVERIFY(images);
        QCOMPARE(images->size(), size_t(100));
        int objects = 0, matched = 0, proposals = 0, falsePositives = 0;
        std::map<std::string, std::pair<int, int>> perClass; // name -> (matched, objects)
        for (const auto& image : *images) {
            const auto pixels = imaging::decodeImage((folder / image.path).string());
            QVERIFY2(pixels, pixels ? "" : pixels.message().c_str());
            const auto proposed = (*predictor)->predict(*pixels, assist::SuggestOptions{});
            QVERIFY(proposed);
            std::vector<project::BoxRecord> model;
            for (const auto& p : *proposed) {
                project::BoxRecord box;
                box.classId = classIds.at((*predictor)->names().at(static_cast<size_t>(p.classIndex)));
                box.x1 = p.x1;
                box.y1 = p.y1;
                box.x2 = p.x2;
                box.y2 = p.y2;
                box.score = p.score;
                model.push_back(box);
            }
            const auto truth = (*project)->boxes().ofImage(image.id).value();
            const auto agreement = assist::compareBoxes(model, truth, 0.7);
            objects += static_cast<int>(truth.size());
            matched += agreement.matched;
            proposals += static_cast<int>(model.size());
            falsePositives += agreement.falsePositives;
            // The same matching, class by class, for the report.
            for (const auto& [name, id] : classIds) {
                std::vector<project::BoxRecord> m, t;
                for (const auto& b : model)
                    if (b.classId == id)
                        m.push_back(b);
                for (const auto& b : truth)
                    if (b.classId == id)
                        t.push_back(b);
                const auto byClass = assist::compareBoxes(m, t, 0.7);
                perClass[name].first += byClass.matched;
                perClass[name].second += static_cast<int>(t.size());
            }
        }
        const double recall = objects > 0 ? double(matched) / objects : 0;
        std::printf("val split: %d objects, %d matched at IoU >= 0.7 (%.1f%%); %d proposals, %d without a "
                    "match\n",
                    objects, matched, 100 * recall, proposals, falsePositives);
        for (const auto& [name, counts] : perClass)
            std::printf("  %-8s %3d / %3d = %.1f%%\n", name.c_str(), counts.first, counts.second,
                        counts.second ? 100.0 * counts.first / counts.second : 0.0);
        QVERIFY(objects > 200);
        QVERIFY2(recall >= 0.90,
                 qPrintable(QString("only %1 of %2 objects matched").arg(matched).arg(objects)));
    }
};

QTEST_MAIN(TestDemoCheckpoint)
#include "tst_demo_checkpoint.moc"
