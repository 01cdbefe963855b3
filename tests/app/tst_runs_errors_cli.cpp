// Issue 20's acceptance for the worst images: on a demo project where 5 val images are deliberately
// mislabelled (every box's class swapped to the next class), a short training records per-image
// validation results, and `osprey-cli runs errors` ranks those 5 among the 10 worst. The training starts
// from the shapes detector in ../shared/fixtures (Ultralytics-trained on the same four classes) and runs one
// epoch of one batch at imgsz 320, so the test takes seconds; it skips without the fixtures.
#include "project/project.h"
#include "run/run_folder.h"
#include "run/val_results.h"

#include "app/cli_process.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace osprey;
namespace fs = std::filesystem;

class TestRunsErrorsCli : public QObject {
    Q_OBJECT
private slots:
    void mislabelledImagesRankWorst() {
        const fs::path weights =
            OSPREY_SHARED_DIR "/fixtures/models/ultralytics-trained/yolov8n-shapes-best.pt";
        if (!fs::exists(weights))
            QSKIP("../shared/fixtures/models/ultralytics-trained is absent (the pretrained shapes detector)");
        QTemporaryDir dir;
        const fs::path folder = fs::path(dir.path().toStdString()) / "demo";
        auto run = test::runCli({"demo", test::pathArg("path", folder), "images=200", "seed=3"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));

        std::set<std::int64_t> mislabelled;
        {
            auto opened = project::Project::open(folder);
            QVERIFY(opened);
            auto& project = **opened;
            auto classes = project.classes();
            QVERIFY(classes && classes->size() == 4);
            // Train on 16 images only (one batch): the detector is already trained; the val split stays 40.
            auto train = project.listImages({.split = project::Split::Train, .limit = 0});
            QVERIFY(train && train->size() == 160);
            for (size_t i = 16; i < train->size(); ++i)
                QVERIFY(project.setImageSplit((*train)[i].id, project::Split::None));
            auto val = project.listImages({.split = project::Split::Val, .limit = 0});
            QVERIFY(val && val->size() == 40);
            // Five val images spread over the split: every box becomes the next class.
            for (size_t i = 3; i < val->size() && mislabelled.size() < 5; i += 8) {
                const auto imageId = (*val)[i].id;
                auto boxes = project.boxes(imageId);
                QVERIFY(boxes && !boxes->empty());
                for (auto box : *boxes) {
                    size_t index = 0;
                    while ((*classes)[index].id != box.classId)
                        ++index;
                    box.classId = (*classes)[(index + 1) % classes->size()].id;
                    QVERIFY(project.updateBox(box));
                }
                mislabelled.insert(imageId);
            }
            QCOMPARE(mislabelled.size(), size_t(5));
        }

        // amp=false: the ranking below was measured in float32. With pip's torch on a CPU with bf16 the
        // default amp=true trains and validates under bf16 autocast, and 4 of the 5 ranked in the top 10
        // (ranks 1, 2, 3 and 8; measured on an AVX512-BF16 EPYC).
        run = test::runCli({"train", test::pathArg("project", folder), test::pathArg("weights", weights),
                            "model=yolov8n", "epochs=1", "imgsz=320", "batch=16", "workers=1", "threads=2",
                            "device=cpu", "amp=false", "name=err"},
                           600000);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.right(3000)));
        const fs::path file = run::RunFolder(folder / "runs" / "err").validation();
        auto epochs = run::readValidationFile(file);
        QVERIFY2(epochs, epochs ? "" : epochs.message().c_str());
        QCOMPARE(epochs->size(), size_t(1));
        QCOMPARE(epochs->front().totals.images, 40LL);

        run = test::runCli(
            {"runs", "errors", test::pathArg("project", folder), "run=err", "limit=10", "json=true"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        const QJsonObject out = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QCOMPARE(out["epoch"].toInt(), 1);
        const QJsonArray images = out["images"].toArray();
        QCOMPARE(images.size(), 10);
        QStringList ranks;
        int found = 0;
        for (int i = 0; i < images.size(); ++i) {
            const auto id = static_cast<std::int64_t>(images[i].toObject()["image_id"].toInteger());
            const bool bad = mislabelled.count(id) != 0;
            found += bad ? 1 : 0;
            ranks << QString("%1:%2%3").arg(i + 1).arg(id).arg(bad ? "*" : "");
        }
        qInfo("top 10 (* mislabelled): %s", qPrintable(ranks.join(' ')));
        QVERIFY2(found == 5, qPrintable(ranks.join(' ')));
        // The wrong class shows in the boxes of the worst image, and in the confusion matrix's cells.
        bool wrongClass = false;
        for (const auto& box : images[0].toObject()["boxes"].toArray())
            wrongClass = wrongClass || box.toObject()["mark"].toString() == "wrong_class";
        QVERIFY(wrongClass);

        // The text table and the errors a user can make.
        run = test::runCli(
            {"runs", "errors", test::pathArg("project", folder), "run=err", "epoch=1", "matrix=true"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.startsWith("Run err, epoch 1: 40 val images") && run.out.contains("RANK  SCORE") &&
                     run.out.contains("Confusion matrix") && run.out.contains("background"),
                 qPrintable(run.out));
        run = test::runCli({"runs", "errors", test::pathArg("project", folder), "run=err", "epoch=7"});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("no validation results for epoch 7 (it has epochs 1)"),
                 qPrintable(run.err));
        run = test::runCli({"runs", "errors", test::pathArg("project", folder), "run=err", "epoch=x"});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("'x' is not best, last or an epoch number"), qPrintable(run.err));
    }
};

QTEST_GUILESS_MAIN(TestRunsErrorsCli)
#include "tst_runs_errors_cli.moc"
