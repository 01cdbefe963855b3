// The planner's estimate recorded at a run's start (issue 19: "estimated X, took Y"): this machine's row
// from a measured point, written once to <run>/estimate.json (a resume keeps it), GPU runs and machines
// without a point say why they have none, and the error of a run that took longer.
#include "common/strings.h"
#include "planner/estimate_plan.h"
#include "planner/planner_paths.h"
#include "planner/run_estimate.h"
#include "run/run_folder.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace osprey;
namespace fs = std::filesystem;

namespace {

run::TrainEvent runStarted(const fs::path& runDir, const std::string& device) {
    run::TrainEvent event;
    event.type = run::TrainEvent::Type::RunStarted;
    event.config = {
        {"model", "yolov8n"}, {"epochs", "3"}, {"imgsz", "64"}, {"batch", "8"}, {"device", device}};
    event.trainImages = 40;
    event.valImages = 10;
    event.classNames = {"a", "b"};
    event.runDir = runDir.string();
    return event;
}

} // namespace

class TestRunEstimate : public QObject {
    Q_OBJECT
private slots:
    void recordsThisMachinesEstimateOnce() {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        const fs::path points = root / "measurements.json";
        planner::Measurement point;
        point.machine = planner::machineId();
        point.device = "cpu";
        point.model = "yolov8n";
        point.imgsz = 64;
        point.batch = 8;
        point.trainImagesPerS = 10;
        point.valImagesPerS = 40;
        point.epochOverheadS = 1;
        point.startupS = 2;
        point.source = planner::MeasurementSource::Run;
        point.date = osprey::utcNowIso8601();
        QVERIFY(planner::recordMeasurement(points, point));

        const fs::path runDir = root / "run";
        fs::create_directories(runDir);
        planner::EstimateRecorder recorder(points);
        recorder.onEvent(runStarted(runDir, "cpu"));
        auto read = planner::readRunEstimate(runDir);
        QVERIFY2(read && read->has_value(), read ? "no estimate.json" : read.message().c_str());
        const auto& e = **read;
        QVERIFY2(e.estimated, e.reason.c_str());
        QCOMPARE(e.basis, std::string("measured"));
        // The measured point itself: 2 s start-up + 3 x (40 / 10 + 10 / 40 + 1) s.
        QVERIFY2(std::abs(e.midS - 17.75) < 1e-6, qPrintable(QString::number(e.midS)));
        QVERIFY(e.lowS < e.midS && e.midS < e.highS);
        QCOMPARE(e.epochs, 3);
        QCOMPARE(e.trainImages, std::int64_t(40));
        QVERIFY(std::abs(planner::estimateErrorPercent(e, 17.75 * 1.2) - 20.0) < 1e-9);

        // A resumed run (startEpoch 2) or a second start keeps the first estimate.
        auto resumed = runStarted(runDir, "cpu");
        resumed.startEpoch = 2;
        resumed.config["epochs"] = "30";
        recorder.onEvent(resumed);
        recorder.onEvent(runStarted(runDir, "cpu"));
        read = planner::readRunEstimate(runDir);
        QVERIFY(read && read->has_value());
        QCOMPARE((*read)->epochs, 3);
    }

    // A GPU run: the catalogue row of its GPU (modelled) until this machine has a point on it.
    void estimatesAGpuRunFromItsCatalogueRow() {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        const std::string name = "NVIDIA GeForce RTX 4090";
        const auto modelled = planner::estimateRun(runStarted(root, "0"), root / "none.json", name);
        QVERIFY2(modelled.estimated, modelled.reason.c_str());
        QCOMPARE(modelled.basis, std::string("modelled"));
        QVERIFY2(modelled.basisDetail.find("RTX 4090") != std::string::npos, modelled.basisDetail.c_str());
        QVERIFY(modelled.lowS < modelled.midS && modelled.midS < modelled.highS);
        const fs::path points = root / "measurements.json";
        planner::Measurement point;
        point.machine = planner::machineId();
        point.device = name;
        point.model = "yolov8n";
        point.imgsz = 64;
        point.batch = 8;
        point.trainImagesPerS = 2000;
        point.valImagesPerS = 8000;
        point.source = planner::MeasurementSource::Run;
        point.date = osprey::utcNowIso8601();
        QVERIFY(planner::recordMeasurement(points, point));
        const auto measured = planner::estimateRun(runStarted(root, "0"), points, name);
        QVERIFY2(measured.estimated, measured.reason.c_str());
        QCOMPARE(measured.basis, std::string("measured"));
        // 3 x (40 / 2000 + 10 / 8000) s.
        QVERIFY2(std::abs(measured.midS - 3 * (40.0 / 2000 + 10.0 / 8000)) < 1e-9,
                 qPrintable(QString::number(measured.midS)));
    }

    void saysWhyThereIsNone() {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        const auto gpu = planner::estimateRun(runStarted(root, "0"), root / "none.json");
        QVERIFY(!gpu.estimated);
        QVERIFY2(gpu.reason.find("GPU's name is not known") != std::string::npos, gpu.reason.c_str());
        const auto unknown =
            planner::estimateRun(runStarted(root, "0"), root / "none.json", "NVIDIA Imaginary 9000");
        QVERIFY(!unknown.estimated);
        QVERIFY2(unknown.reason.find("not in the GPU catalogue") != std::string::npos,
                 unknown.reason.c_str());
        const auto uncalibrated = planner::estimateRun(runStarted(root, "cpu"), root / "none.json");
        QVERIFY(!uncalibrated.estimated);
        QVERIFY2(uncalibrated.reason.find("no measured point") != std::string::npos,
                 uncalibrated.reason.c_str());
        // A run from before estimates were recorded has none; a damaged file is an error naming it.
        auto none = planner::readRunEstimate(root);
        QVERIFY(none && !none->has_value());
        {
            std::ofstream out(run::RunFolder(root).estimate());
            out << "{\"estimated\": true";
        }
        auto bad = planner::readRunEstimate(root);
        QVERIFY(!bad);
        QVERIFY(bad.message().find("estimate.json") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestRunEstimate)
#include "tst_run_estimate.moc"
