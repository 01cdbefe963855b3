// A real, short `osprey-cli train` (1 epoch at imgsz=64 on a 16-image demo project) records its dataset
// snapshot: snapshot.bin in the run folder, the hash in the runs table and in run_started's config (what
// the remote reporter sends to the platform as trainArgs), and `runs list` shows it.
#include "project/run_info.h"
#include "quality/run_snapshot.h"
#include "run/run_files.h"
#include "run/run_folder.h"

#include "app/cli_process.h"
#include "project_printers.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace osprey;
namespace fs = std::filesystem;

class TestRunsTrainCli : public QObject {
    Q_OBJECT
private slots:
    void trainingRecordsASnapshot() {
        QTemporaryDir dir;
        const fs::path folder = fs::path(dir.path().toStdString()) / "demo";
        auto run = test::runCli({"demo", test::pathArg("path", folder), "images=16", "imgsz=64", "seed=2"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        run =
            test::runCli({"train", test::pathArg("project", folder), "model=yolov8n", "epochs=1", "imgsz=64",
                          "batch=8", "workers=1", "threads=2", "device=cpu", "name=snap", "events=jsonl"},
                         600000);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.right(3000)));

        const fs::path file = run::RunFolder(folder / "runs" / "snap").snapshot();
        QVERIFY(fs::exists(file));
        auto snapshot = quality::readSnapshot(file);
        QVERIFY2(snapshot, snapshot ? "" : snapshot.message().c_str());
        QCOMPARE(snapshot->images.size(), size_t(16)); // the demo splits every image into train or val
        QCOMPARE(snapshot->classes.size(), size_t(4));

        auto project = project::Project::open(folder);
        QVERIFY(project);
        auto info = project::findRun(**project, "snap");
        QVERIFY(info);
        QCOMPARE(info->snapshotHash, snapshot->hash);
        OSPREY_COMPARE_ENUM(info->record.status, project::RunStatus::Finished);
        auto now = quality::projectSnapshotHash(**project);
        QVERIFY(now);
        QCOMPARE(*now, snapshot->hash); // training changed no data

        // run_started carries the hash in its config, in events.jsonl and on stdout alike.
        bool tagged = false;
        std::ifstream events(folder / "runs" / "snap" / "events.jsonl");
        for (std::string line; std::getline(events, line);) {
            const QJsonObject event = QJsonDocument::fromJson(QByteArray::fromStdString(line)).object();
            if (event["type"].toString() == "run_started")
                tagged = event["config"].toObject()[run::kSnapshotConfigKey].toString() ==
                         QString::fromStdString(snapshot->hash);
        }
        QVERIFY(tagged);
        QVERIFY(run.out.contains(QString::fromStdString(snapshot->hash)));

        // The run ends with its pictures (issue 33), Ultralytics' names; labels.jpg from the train split.
        for (const char* picture :
             {"results.png", "PR_curve.png", "F1_curve.png", "P_curve.png", "R_curve.png",
              "confusion_matrix.png", "confusion_matrix_normalized.png", "labels.jpg"})
            QVERIFY2(fs::file_size(folder / "runs" / "snap" / picture) > 10000, picture);
        // The first epoch's batches as the network saw them: 16 images at batch 8 make two.
        QVERIFY(fs::file_size(run::RunFolder(folder / "runs" / "snap").trainBatch(0)) > 1000);
        QVERIFY(fs::exists(run::RunFolder(folder / "runs" / "snap").trainBatch(1)));
        QVERIFY(!fs::exists(run::RunFolder(folder / "runs" / "snap").trainBatch(2)));
        // The val split's one batch with its labels and the best model's detections.
        QVERIFY(fs::file_size(run::RunFolder(folder / "runs" / "snap").valBatchLabels(0)) > 1000);
        QVERIFY(fs::file_size(run::RunFolder(folder / "runs" / "snap").valBatchPredictions(0)) > 1000);
        QVERIFY(!fs::exists(run::RunFolder(folder / "runs" / "snap").valBatchLabels(1)));
        // ... and `runs plots` draws them again, listing what it wrote.
        fs::remove(folder / "runs" / "snap" / "results.png");
        auto plots = test::runCli({"runs", "plots", "snap", test::pathArg("project", folder)});
        QVERIFY2(plots.exitCode == 0, qPrintable(plots.err));
        QCOMPARE(plots.out.count('\n'), 8);
        QVERIFY(fs::exists(folder / "runs" / "snap" / "results.png"));
        auto missing = test::runCli({"runs", "plots", "nosuchrun", test::pathArg("project", folder)});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains("nosuchrun"));

        run = test::runCli({"runs", "list", test::pathArg("project", folder)});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        const QStringList lines = run.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QVERIFY2(lines[1].startsWith("snap ") && lines[1].contains("finished") &&
                     lines[1].contains("yolov8n") &&
                     lines[1].contains(QString::fromStdString(quality::shortHash(snapshot->hash))),
                 qPrintable(run.out));

        // Retrain from this run (issue 36): its own options, its best.pt as the start, a new run folder.
        auto retrain = run::retrainArguments(folder / "runs" / "snap");
        QVERIFY2(retrain, retrain ? "" : retrain.message().c_str());
        const QStringList arguments = [&] {
            QStringList list;
            for (const auto& argument : *retrain)
                list.append(QString::fromStdString(argument));
            return list;
        }();
        for (const char* expected : {"epochs=1", "imgsz=64", "batch=8", "workers=1", "model=yolov8n"})
            QVERIFY2(arguments.contains(expected), qPrintable(arguments.join(' ') + " lacks " + expected));
        QCOMPARE(arguments.last(),
                 "weights=" +
                     QString::fromStdString(run::RunFolder(folder / "runs" / "snap").bestWeights().string()));
        for (const QString& argument : arguments)
            QVERIFY2(!argument.startsWith("name=") && !argument.startsWith("resume="), qPrintable(argument));
        // The data grows by one box before the retrain; the new run says so at its start.
        {
            auto grown = project::Project::open(folder);
            QVERIFY(grown);
            const auto image = (*grown)->images().list().value().front();
            const auto classId = (*grown)->classes().list().value().front().id;
            QVERIFY((*grown)->boxes().add(
                {.imageId = image.id, .classId = classId, .x1 = 4, .y1 = 4, .x2 = 30, .y2 = 30}));
        }
        run = test::runCli(QStringList{"train", test::pathArg("project", folder), "events=jsonl"} + arguments,
                           600000);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.right(3000)));
        QVERIFY2(run.out.contains("the data since run snap (dataset snapshot " +
                                  QString::fromStdString(quality::shortHash(snapshot->hash)) + " -> ") &&
                     run.out.contains("): 1 box added (`osprey-cli runs diff a=snap b=train` lists them)"),
                 qPrintable(run.out.left(3000)));
        auto again = run::readArgsYaml(run::RunFolder(folder / "runs" / "train").args());
        QVERIFY2(again, again ? "" : again.message().c_str());
        QCOMPARE(again->at("weights"), run::RunFolder(folder / "runs" / "snap").bestWeights().string());
        QCOMPARE(again->at("imgsz"), std::string("64"));
        // A run without best.pt cannot be retrained from, and says why.
        fs::remove(run::RunFolder(folder / "runs" / "snap").bestWeights());
        auto refused = run::retrainArguments(folder / "runs" / "snap");
        QVERIFY(!refused);
        QVERIFY(refused.message().find("best.pt") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestRunsTrainCli)
#include "tst_runs_train_cli.moc"
