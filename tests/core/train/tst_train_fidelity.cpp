// Accuracy and repeatability of a seeded run from scratch (issue 37): yolov8n with the defaults a user gets
// (optimizer=auto, the recipe's warmup, mosaic and augmentation), float32, 2 threads, on 160 demo images of
// 160 px. Speed work must not cost accuracy, and a seeded run must repeat itself (the seed option's help
// promises it).
//
// - Two runs with the same seed give the same results.csv, every column but the time, to the last digit.
// - The mean mAP50-95 and mAP50 of the last five epochs stay above floors set between two recorded runs
//   (2-core AMD EPYC, Debian's LibTorch 1.13): 0.0850 and 0.1510 as it should be; 0.0540 and 0.1137 with
//   issue 37's drop (optimizer=auto warming the biases up from 0 instead of 0.1 from scratch, which took
//   the 30-epoch demo run at imgsz 320 from mAP50-95 0.717 to 0.582). The mean of five epochs is steadier
//   than the last one (0.0912 and 0.0589); the floors leave room for other CPUs' float32 rounding.
#include "job/project_training.h"
#include "run/run_files.h"
#include "train_test_util.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace osprey;

namespace {

// Midway between the figures above (docs/training.md#accuracy-from-scratch-the-bias-warmup).
constexpr double kMap5095Floor = 0.07;
constexpr double kMap50Floor = 0.13;
constexpr size_t kLastEpochs = 5;

run::TrainConfig fidelityConfig(const std::string& name) {
    run::TrainConfig config;
    config.model = "yolov8n";
    config.epochs = 30;
    config.imgsz = 160;
    config.batch = 16;
    config.workers = 2;
    config.threads = 2;
    config.amp = false;
    config.seed = 0;
    config.name = name;
    return config;
}

} // namespace

class TestTrainFidelity : public QObject {
    Q_OBJECT
private slots:
    void seededRunRepeatsAndKeepsItsAccuracy() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::filesystem::path project = std::filesystem::path(dir.path().toStdString()) / "demo";
        QVERIFY(test::makeDemo(project, 200, 160));

        std::vector<test::Csv> results;
        for (const std::string name : {"first", "second"}) {
            test::CollectingSink sink;
            auto result = job::trainProject(project, fidelityConfig(name), sink);
            QVERIFY2(result, result ? "" : result.message().c_str());
            QCOMPARE(result->status, std::string("finished"));
            QCOMPARE(result->epochsCompleted, 30);
            results.push_back(test::readCsv(project / "runs" / name / "results.csv"));
        }
        const auto& a = results[0];
        const auto& b = results[1];
        QCOMPARE(a.header, run::resultsCsvColumns());
        QCOMPARE(b.header, a.header);
        QCOMPARE(a.rows.size(), size_t(30));
        QCOMPARE(b.rows.size(), a.rows.size());
        for (size_t row = 0; row < a.rows.size(); ++row)
            for (const auto& column : a.header) {
                if (column == "time")
                    continue;
                QVERIFY2(a.at(row, column) == b.at(row, column),
                         qPrintable(QString("epoch %1 %2: %3 in the first run, %4 in the second")
                                        .arg(row + 1)
                                        .arg(QString::fromStdString(column))
                                        .arg(a.at(row, column), 0, 'g', 10)
                                        .arg(b.at(row, column), 0, 'g', 10)));
            }

        double map5095 = 0, map50 = 0;
        for (size_t row = a.rows.size() - kLastEpochs; row < a.rows.size(); ++row) {
            map5095 += a.at(row, "metrics/mAP50-95(B)") / kLastEpochs;
            map50 += a.at(row, "metrics/mAP50(B)") / kLastEpochs;
        }
        qInfo("last %zu epochs: mean mAP50-95 %.5f (floor %.3f), mean mAP50 %.5f (floor %.3f); final "
              "mAP50-95 %.5f",
              kLastEpochs, map5095, kMap5095Floor, map50, kMap50Floor,
              a.at(a.rows.size() - 1, "metrics/mAP50-95(B)"));
        QVERIFY2(map5095 >= kMap5095Floor,
                 qPrintable(QString("mean mAP50-95 %1 of the last epochs fell below %2: a fidelity drop")
                                .arg(map5095)
                                .arg(kMap5095Floor)));
        QVERIFY2(map50 >= kMap50Floor,
                 qPrintable(QString("mean mAP50 %1 of the last epochs fell below %2: a fidelity drop")
                                .arg(map50)
                                .arg(kMap50Floor)));
    }
};

QTEST_APPLESS_MAIN(TestTrainFidelity)
#include "tst_train_fidelity.moc"
