// The planner's arithmetic: the articles' break-even example, cost = hours x $/h, the scaling model on a
// hand-made catalogue, VRAM fit monotone in batch and imgsz, the rows of a plan and its recommendation.
#include "planner/break_even.h"
#include "planner/estimate_plan.h"
#include "planner/model_figures.h"
#include "planner/scaling_model.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace osprey::planner;

namespace {

GpuSpec gpu(const std::string& name, Tier tier, double vram, double bf16, double bandwidth,
            std::optional<double> price) {
    GpuSpec g;
    g.name = name;
    g.tier = tier;
    g.vramGb = vram;
    g.fp32Tflops = bf16 / 4;
    g.bf16Tflops = bf16;
    g.bandwidthGbs = bandwidth;
    g.pricePerHour = price;
    g.priceSource = "test";
    g.priceDate = "2026-01-01";
    return g;
}

/// Two GPUs: "Fast" has twice Slow's compute and bandwidth at three times the price.
Catalogue handMade() {
    Catalogue c;
    c.gpus = {gpu("Slow", Tier::Balanced, 24, 100, 1000, 1.0), gpu("Fast", Tier::Heavy, 80, 200, 2000, 3.0)};
    return c;
}

Workload workload(const std::string& model, std::int64_t train, std::int64_t val, int epochs, int imgsz,
                  int batch) {
    Workload w;
    [[maybe_unused]] const auto ok = setModel(w, model);
    w.trainImages = train;
    w.valImages = val;
    w.epochs = epochs;
    w.imgsz = imgsz;
    w.batch = batch;
    return w;
}

} // namespace

class TestPlanner : public QObject {
    Q_OBJECT
private slots:
    void breakEvenExampleComesOutExactly() {
        const auto result =
            breakEven({.hardwareCost = 3000, .powerPerHour = 0.10, .cloudPerHour = 0.89, .hoursPerDay = 24});
        QVERIFY(result);
        QCOMPARE(result->savingPerHour, 0.79);
        QVERIFY(std::abs(result->hours - 3000.0 / 0.79) < 1e-9);
        QCOMPARE(result->roundedHours, 3800.0);
        QCOMPARE(result->roundedMonths, 5.3);
        const auto eight =
            breakEven({.hardwareCost = 3000, .powerPerHour = 0.10, .cloudPerHour = 0.89, .hoursPerDay = 8});
        QVERIFY(eight);
        QCOMPARE(eight->roundedMonths, 15.8);
        QVERIFY(std::abs(eight->months - 3000.0 / 0.79 / 8 / 30) < 1e-9);
        QCOMPARE(breakEvenCaveats().size(), std::size_t(4));
    }

    void breakEvenRejectsBadInputsByField() {
        const auto never = breakEven({.hardwareCost = 3000, .powerPerHour = 1.0, .cloudPerHour = 0.89});
        QVERIFY(!never);
        QCOMPARE(never.error().code, std::string("never"));
        const auto day = breakEven({.hoursPerDay = 25});
        QVERIFY(!day);
        QVERIFY(day.message().rfind("hours_per_day:", 0) == 0);
        QCOMPARE(roundSignificant(3797.47, 2), 3800.0);
        QCOMPARE(roundSignificant(0.012345, 3), 0.0123);
    }

    // A GPU run's measured memory per image replaces the activation estimate in every row's VRAM fit,
    // scaled to the planned imgsz by pixel count.
    void vramFitUsesAMeasuredRun() {
        PlanInputs in{.catalogue = handMade(), .workload = workload("yolov8s", 1000, 200, 10, 640, 16)};
        const Plan estimated = makePlan(in);
        Measurement run;
        run.machine = "other";
        run.device = "NVIDIA Slow";
        run.model = "yolov8s";
        run.imgsz = 320;
        run.batch = 32;
        run.trainImagesPerS = 100;
        run.gpuMemPerImageMb = 256; // 0.25 GB per image at 320 -> 1 GB at 640
        run.source = MeasurementSource::Run;
        run.date = "2026-11-30T10:00:00Z";
        in.measurements = {run};
        const Plan measured = makePlan(in);
        const double fixed = fixedMemoryGb(in.workload);
        for (size_t i = 0; i < measured.rows.size(); ++i) {
            const auto& row = measured.rows[i];
            if (row.thisMachine)
                continue;
            const double usable = row.vramGb * kUsableVramShare;
            QCOMPARE(row.maxBatch, static_cast<int>(std::floor((usable - fixed) / 1.0)));
            QVERIFY(row.maxBatch != estimated.rows[i].maxBatch);
        }
        const auto fastRow = [](const Plan& plan) {
            for (const auto& row : plan.rows)
                if (row.name == "Fast")
                    return row.maxBatch;
            return -1;
        };
        // Another model's run does not count; a newer run of the model wins.
        in.measurements[0].model = "yolov8n";
        QCOMPARE(fastRow(makePlan(in)), fastRow(estimated));
        in.measurements[0].model = "yolov8s";
        Measurement newer = run;
        newer.gpuMemPerImageMb = 128;
        newer.date = "2026-12-01T10:00:00Z";
        in.measurements.push_back(newer);
        QCOMPARE(fastRow(makePlan(in)), static_cast<int>(std::floor((80 * kUsableVramShare - fixed) / 0.5)));
    }

    void costIsHoursTimesPrice() {
        PlanInputs in{.catalogue = handMade(),
                      .workload = workload("yolov8s", 1000, 200, 100, 640, 16),
                      .machine = "m"};
        const Plan plan = makePlan(in);
        QCOMPARE(plan.rows.size(), std::size_t(3));
        for (const auto& row : plan.rows) {
            if (row.thisMachine)
                continue;
            QVERIFY(row.time && row.cost && row.costPerEpoch);
            QVERIFY(std::abs(row.cost->midS - row.time->midS / 3600.0 * *row.pricePerHour) < 1e-12);
            QVERIFY(std::abs(row.cost->lowS - row.time->lowS / 3600.0 * *row.pricePerHour) < 1e-12);
            QVERIFY(std::abs(*row.costPerEpoch * 100 - row.cost->midS) < 1e-9);
            QVERIFY(row.time->lowS < row.time->midS && row.time->midS < row.time->highS);
        }
        // Epochs scale time and cost linearly (no start-up on modelled GPU rows).
        in.workload.epochs = 50;
        const Plan half = makePlan(in);
        QVERIFY(std::abs(half.rows[1].cost->midS * 2 - plan.rows[1].cost->midS) < 1e-12);
    }

    void scalingModelOnAHandMadeCatalogue() {
        const Catalogue c = handMade();
        const Workload w = workload("yolov8m", 1000, 0, 1, 640, 16);
        const ScalingFit fit{.computeEfficiency = 0.25, .memoryTrafficFactor = 10};
        const double slow = modelSecondsPerImage(c.gpus[0], w, fit);
        const double fast = modelSecondsPerImage(c.gpus[1], w, fit);
        // Twice the compute and twice the bandwidth: exactly half the time.
        QVERIFY(std::abs(slow / fast - 2.0) < 1e-12);
        // The formula by hand: F / (P e) + k A / B.
        const double flops = 3 * 79.3e9;
        const double expected = flops / (100e12 * 0.25) + 10 * activationGbPerImage(w) / 1000;
        QVERIFY(std::abs(slow - expected) < 1e-15);
        // Fitting to points made with known constants gives the constants back.
        std::vector<TimingPoint> points;
        for (const char* model : {"yolov8n", "yolov8m", "yolov8x"})
            for (const auto& g : c.gpus) {
                const Workload pw = workload(model, 1, 0, 1, 640, 16);
                points.push_back({g, pw, modelSecondsPerImage(g, pw, fit), 1});
            }
        // Unequal compute/bandwidth ratios so that e and k are separable.
        GpuSpec odd = gpu("Odd", Tier::Light, 16, 50, 3000, 0.5);
        const Workload ow = workload("yolov8s", 1, 0, 1, 640, 16);
        points.push_back({odd, ow, modelSecondsPerImage(odd, ow, fit), 1});
        const ScalingFit back = fitScaling(points);
        QVERIFY(std::abs(back.computeEfficiency - 0.25) < 1e-9);
        QVERIFY(std::abs(back.memoryTrafficFactor - 10) < 1e-6);
        QVERIFY(back.relativeError < 1e-9);
    }

    void shippedReferencePointsFitWithinTheirSpread() {
        const auto catalogue = loadCatalogue({});
        QVERIFY(catalogue);
        const auto points = referenceTimings(*catalogue);
        QCOMPARE(points.size(), std::size_t(3));
        const ScalingFit fit = fitScaling(points);
        QVERIFY(fit.computeEfficiency > 0.01 && fit.computeEfficiency < 1);
        QVERIFY(fit.relativeError < 0.3);
        // The articles' RTX PRO 6000 figure: 1,000 images x 100 epochs of the m model in about 15 min.
        Workload w = workload("yolo11m", 800, 200, 100, 640, 16);
        PlanInputs in{.catalogue = *catalogue, .workload = w, .machine = "m"};
        const Plan plan = makePlan(in);
        const PlanRow* pro = nullptr;
        for (const auto& row : plan.rows)
            if (row.name == "RTX PRO 6000")
                pro = &row;
        QVERIFY(pro && pro->time);
        QVERIFY2(pro->time->lowS < 15 * 60 && 15 * 60 < pro->time->highS,
                 qPrintable(QString::number(pro->time->midS / 60)));
    }

    void vramFitIsMonotone() {
        const GpuSpec card = gpu("Card", Tier::Balanced, 24, 165, 1008, 0.89);
        for (const char* model : {"yolov8n", "yolov8s", "yolov8m", "yolov8l", "yolov8x", "yolo11x"}) {
            int previousMax = 1 << 30;
            for (int imgsz : {320, 480, 640, 960, 1280}) {
                double previousNeed = 0;
                for (int batch : {1, 2, 8, 16, 32, 64, 128}) {
                    const VramFit fit = fitVram(card, workload(model, 1, 0, 1, imgsz, batch));
                    QVERIFY(fit.neededGb > previousNeed);
                    previousNeed = fit.neededGb;
                    QCOMPARE(fit.fits, batch <= fit.maxBatch);
                    if (fit.fits)
                        QVERIFY(fit.neededGb <= 24 * kUsableVramShare + 1e-9);
                }
                const int maxBatch = fitVram(card, workload(model, 1, 0, 1, imgsz, 16)).maxBatch;
                QVERIFY(maxBatch <= previousMax);
                previousMax = maxBatch;
                // One more image than the largest batch does not fit.
                QVERIFY(!fitVram(card, workload(model, 1, 0, 1, imgsz, maxBatch + 1)).fits);
            }
        }
        // Bigger models need more at the same batch; a bigger card takes a larger batch.
        QVERIFY(fitVram(card, workload("yolov8x", 1, 0, 1, 640, 16)).neededGb >
                fitVram(card, workload("yolov8n", 1, 0, 1, 640, 16)).neededGb);
        QVERIFY(fitVram(gpu("Big", Tier::Heavy, 96, 500, 1792, 2.49), workload("yolov8m", 1, 0, 1, 640, 16))
                    .maxBatch > fitVram(card, workload("yolov8m", 1, 0, 1, 640, 16)).maxBatch);
    }

    void batchThatDoesNotFitIsWarned() {
        PlanInputs in{.catalogue = handMade(), .workload = workload("yolov8x", 5000, 1000, 100, 1280, 64)};
        const Plan plan = makePlan(in);
        QVERIFY(!plan.rows[1].batchFits);
        QVERIFY(!plan.warnings.empty());
        QVERIFY2(plan.warnings[0].find("batch 64 will not fit on Slow") != std::string::npos,
                 plan.warnings[0].c_str());
        QVERIFY(plan.recommendation.gpu != "Slow");
    }

    void thisMachineUsesItsMeasurement() {
        PlanInputs in{.catalogue = handMade(), .workload = workload("yolov8n", 64, 16, 2, 160, 8)};
        in.machine = "box";
        Measurement m{.machine = "box",
                      .device = "cpu",
                      .model = "yolov8n",
                      .imgsz = 160,
                      .batch = 8,
                      .trainImagesPerS = 4.0,
                      .valImagesPerS = 16.0,
                      .epochOverheadS = 0.5,
                      .startupS = 2.0};
        in.measurements = {m};
        const Plan plan = makePlan(in);
        const PlanRow& local = plan.rows.front();
        QVERIFY(local.thisMachine);
        QCOMPARE(local.basis, Basis::Measured);
        // 2 + 2 x (64 / 4 + 16 / 16 + 0.5) = 37 s.
        QVERIFY(std::abs(local.time->midS - 37.0) < 1e-9);
        QVERIFY(std::abs(local.cost->midS - 37.0 / 3600 * 0.10) < 1e-12);
        // A short local run is the recommendation; its reason says why.
        QCOMPARE(plan.recommendation.gpu, local.name);
        // Another imgsz on the same machine: scaled by the FLOPs (pixel) ratio.
        in.workload.imgsz = 320;
        const Plan scaled = makePlan(in);
        QCOMPARE(scaled.rows.front().basis, Basis::Scaled);
        QVERIFY(std::abs(scaled.rows.front().time->midS - (2 + 2 * (64 / 1.0 + 16 / 4.0 + 0.5))) < 1e-9);
        // Another machine's points do not count.
        in.machine = "other";
        QCOMPARE(makePlan(in).rows.front().basis, Basis::NotCalibrated);
    }

    void recommendationFollowsTheGuidance() {
        const auto catalogue = loadCatalogue({});
        QVERIFY(catalogue);
        const auto recommend = [&](const std::string& model, std::int64_t images, int imgsz) {
            PlanInputs in{.catalogue = *catalogue,
                          .workload = workload(model, images * 8 / 10, images * 2 / 10, 100, imgsz, 16)};
            return makePlan(in);
        };
        const Plan small = recommend("yolov8n", 800, 640);
        QCOMPARE(small.recommendation.gpu, std::string("RTX 4090"));
        QVERIFY(small.recommendation.reason.find("under about 1,000 images") != std::string::npos);
        const Plan mid = recommend("yolov8s", 5000, 640);
        QCOMPARE(mid.recommendation.gpu, std::string("RTX 4090"));
        const Plan big = recommend("yolov8s", 50000, 640);
        const GpuSpec* chosen = catalogue->find(big.recommendation.gpu);
        QVERIFY(chosen && chosen->tier == Tier::Heavy);
        const Plan large = recommend("yolov8x", 5000, 640);
        QVERIFY(catalogue->find(large.recommendation.gpu)->vramGb >= 48);
        QVERIFY(large.recommendation.reason.find("48 GB") != std::string::npos);
        // The start-small run: nano model, fewer epochs, on the recommended GPU, cheaper than the run.
        QCOMPARE(large.startSmall.model, std::string("yolov8n"));
        QCOMPARE(large.startSmall.epochs, 25);
        QCOMPARE(large.startSmall.gpu, large.recommendation.gpu);
        for (const auto& row : large.rows)
            if (row.name == large.recommendation.gpu)
                QVERIFY(large.startSmall.cost && large.startSmall.cost->midS < 0.5 * row.cost->midS);
        QVERIFY(big.startSmall.fraction < 1);
        QVERIFY(large.startSmall.note.find("patience") != std::string::npos);
        // Fastest and cheapest are rows of the table.
        QVERIFY(!large.fastest.empty() && !large.cheapest.empty());
    }

    void measurementFromARecordedRun() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("events.jsonl").toStdString();
        std::ofstream out(path);
        out << R"({"type":"run_started","v":1,"t":0.5,"config":{"model":"yolov8n","imgsz":"160","batch":"8","device":"cpu","workers":"2"},"dataset":{"train_images":40,"val_images":10,"train_boxes":1,"val_boxes":1,"negatives":0,"names":["a"]},"model":{"name":"yolov8n","parameters":1,"gflops":8.7},"run_dir":"/r","epochs":3,"start_epoch":1,"pid":1})"
            << "\n"
            // epoch 1: starts at t=2, 10 s train + 1 s val; epoch 2 and 3: 8 s train + 1 s val, 0.5 s
            // checkpoint
            << R"({"type":"epoch","v":1,"t":13,"epoch":1,"epochs":3,"metrics":{"time":11,"fitness":0.1},"best":true,"images_per_s":4,"eta_s":1})"
            << "\n"
            << R"({"type":"epoch","v":1,"t":22.5,"epoch":2,"epochs":3,"metrics":{"time":20,"fitness":0.2},"best":true,"images_per_s":5,"eta_s":1})"
            << "\n"
            << R"({"type":"epoch","v":1,"t":32,"epoch":3,"epochs":3,"metrics":{"time":29,"fitness":0.3},"best":true,"images_per_s":5,"eta_s":1})"
            << "\n"
            << R"({"type":"finished","v":1,"t":33.5,"status":"finished","epochs_completed":3,"best_epoch":3,"best_fitness":0.3,"best_path":"","last_path":"","message":""})"
            << "\n";
        out.close();
        const auto m = measurementFromEvents(path, "box");
        QVERIFY2(m, m ? "" : m.message().c_str());
        QCOMPARE(m->model, std::string("yolov8n"));
        QCOMPARE(m->imgsz, 160);
        QCOMPARE(m->device, std::string("cpu"));
        QCOMPARE(m->trainImagesPerS, 5.0);
        QCOMPARE(m->valImagesPerS, 10.0);
        QCOMPARE(m->epochOverheadS, 0.5);
        // Start-up 13 - 11 = 2 s, the first epoch's warm-up 40 / 4 - 40 / 5 = 2 s, and 33.5 - 32 - 0.5 = 1 s
        // after the last epoch.
        QCOMPARE(m->startupS, 5.0);

        const std::filesystem::path store = dir.filePath("cache/measurements.json").toStdString();
        QVERIFY(recordMeasurement(store, *m));
        QVERIFY(recordMeasurement(store, *m));
        const auto loaded = loadMeasurements(store);
        QVERIFY(loaded);
        QCOMPARE(loaded->size(), std::size_t(1));
        QCOMPARE(loaded->front().trainImagesPerS, 5.0);
        QVERIFY(findMeasurement(*loaded, "box", "cpu", "yolov8n", 160, 16));
        QVERIFY(!findMeasurement(*loaded, "box", "cpu", "yolov8s", 160, 16));
    }

    void modelNamesAndFigures() {
        QCOMPARE(findModelFigures("YOLOv8s.pt")->params, std::int64_t(11166560));
        QVERIFY(!findModelFigures("yolov9c"));
        QCOMPARE(withScale("yolo11x", 'n'), std::string("yolo11n"));
        Workload w;
        QVERIFY(!setModel(w, "resnet"));
        QVERIFY(setModel(w, "yolo11m"));
        w.imgsz = 320;
        QVERIFY(std::abs(w.gflops() - 68.5 / 4) < 1e-12);
        QCOMPARE(gpuForDevice(*loadCatalogue({}), "NVIDIA GeForce RTX 4090")->name, std::string("RTX 4090"));
        QCOMPARE(gpuForDevice(*loadCatalogue({}), "NVIDIA A100-SXM4-80GB")->name, std::string("A100 SXM"));
        QVERIFY(!gpuForDevice(*loadCatalogue({}), "NVIDIA RTX A4000"));
    }

    void formattedPlanShowsEveryRow() {
        PlanInputs in{.catalogue = *loadCatalogue({}),
                      .workload = workload("yolov8s", 4000, 1000, 100, 640, 16)};
        const Plan plan = makePlan(in);
        const std::string text = formatPlan(plan);
        for (const auto& row : plan.rows)
            QVERIFY2(text.find(row.name) != std::string::npos, row.name.c_str());
        QVERIFY(text.find("Recommended: ") != std::string::npos);
        QVERIFY(planToJson(plan).find("\"recommendation\"") != std::string::npos);
        QCOMPARE(formatDuration(45), std::string("45 s"));
        QCOMPARE(formatDuration(3900), std::string("1 h 05 min"));
        QCOMPARE(formatMoney(1234.4), std::string("$1,234"));
        QCOMPARE(formatMoney(0.62), std::string("$0.62"));
    }
};

QTEST_GUILESS_MAIN(TestPlanner)
#include "tst_planner.moc"
