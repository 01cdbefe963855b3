// training_complete as Ultralytics 8.4.190 builds it (specs/remote-platform.md), from trainer events and a
// run's curves.json, checked field by field: results.metrics (the best epoch's, plus the last fitness),
// bestEpoch (0-based), bestFitness, the validation payload (F1 ranking with ties by file name, ids cut at
// the first underscore, Python's half-to-even sampling, the extremes), classNames, and the five plots with
// their type keys (pr_curve's ap per class and IoU, and its classes when some have no labels).
#include "remote/event_mapper.h"
#include "run/run_curves.h"
#include "run/train_events.h"

#include <QtTest>

using namespace osprey;
using nlohmann::json;

namespace {

run::TrainEvent parsed(const json& line) {
    auto event = run::parseEvent(line.dump());
    if (!event)
        qFatal("%s", event.message().c_str());
    return *event;
}

json epoch(int n, double map, double fitness, bool best) {
    return {{"type", "epoch"},
            {"epoch", n},
            {"epochs", 3},
            {"best", best},
            {"metrics",
             {{"metrics/precision(B)", 0.1 * n},
              {"metrics/recall(B)", 0.2 * n},
              {"metrics/mAP50(B)", map},
              {"metrics/mAP50-95(B)", map / 2},
              {"val/box_loss", 1.0},
              {"val/cls_loss", 2.0},
              {"val/dfl_loss", 3.0},
              {"fitness", fitness}}}};
}

run::RunCurves curvesOf(std::vector<run::ImageCounts> images) {
    run::RunCurves c;
    c.epoch = 2;
    c.classNames = {"cat", "dog", "bird"};
    c.classes = {0, 2}; // dog has no validation labels
    for (int i = 0; i <= 100; ++i)
        c.x.push_back(i / 100.0);
    for (int row = 0; row < 2; ++row) {
        std::vector<double> rising, falling;
        for (const double x : c.x) {
            rising.push_back(x * (row + 1) / 2);
            falling.push_back(1 - x);
        }
        c.precisionAtRecall.push_back(falling);
        c.f1.push_back(rising);
        c.precision.push_back(rising);
        c.recall.push_back(falling);
        c.ap.push_back(std::vector<double>(10, 0.5 + 0.1 * row));
        c.classBestConfidence.push_back(0.4);
    }
    c.bestConfidence = 0.37;
    c.confusionMatrix = {4, 0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 1, 2, 0, 1, 0};
    c.images = std::move(images);
    return c;
}

} // namespace

class TestPlatformPayload : public QObject {
    Q_OBJECT
private slots:
    void completeDataFollows8_4_190() {
        remote::EventMapper mapper;
        mapper.map(parsed({{"type", "run_started"},
                           {"config", {{"epochs", "3"}}},
                           {"dataset", {{"names", {"cat", "dog", "bird"}}}},
                           {"run_dir", "/runs/r"},
                           {"epochs", 3}}));
        QCOMPARE(mapper.runDir(), std::string("/runs/r"));
        mapper.map(parsed(epoch(1, 0.2, 0.15, true)));
        mapper.map(parsed(epoch(2, 0.6, 0.45, true)));
        mapper.map(parsed(epoch(3, 0.4, 0.3, false)));
        mapper.map(parsed(
            {{"type", "finished"}, {"status", "finished"}, {"best_epoch", 2}, {"best_fitness", 0.45}}));
        const auto curves = curvesOf({{"b_2.jpg", 1, 1, 0},
                                      {"a_1.jpg", 1, 1, 0},
                                      {"z.png", 3, 0, 0},
                                      {"empty.jpg", 0, 0, 0},
                                      {"miss.jpg", 0, 2, 4}});
        const json data = mapper.completeData(&curves);

        // results: the best epoch's metrics (what validating best.pt gives) and the last epoch's fitness.
        const json& results = data["results"];
        QCOMPARE(results["metrics"], (json{{"metrics/precision(B)", 0.2},
                                           {"metrics/recall(B)", 0.4},
                                           {"metrics/mAP50(B)", 0.6},
                                           {"metrics/mAP50-95(B)", 0.3},
                                           {"fitness", 0.3}}));
        QCOMPARE(results["bestEpoch"].get<int>(), 1);
        QCOMPARE(results["bestFitness"].get<double>(), 0.45);
        QVERIFY(!data.contains("modelPath") && !results.contains("modelPath")); // the sender adds it
        QCOMPARE(data["classNames"], (json{"cat", "dog", "bird"}));
        QVERIFY(data["runId"].is_null());

        // validation: ranked by F1, ties by file name; the id is the stem up to the first underscore.
        const json& validation = results["validation"];
        QCOMPARE(validation["population"].get<int>(), 5);
        QCOMPARE(validation["sampling"].get<std::string>(), std::string("f1_rank"));
        const json expectedRows = {
            {"miss", 0, 2, 4}, {"a", 1, 1, 0}, {"b", 1, 1, 0}, {"empty", 0, 0, 0}, {"z", 3, 0, 0}};
        QCOMPARE(validation["rows"], expectedRows);
        QCOMPARE(validation["extremes"]["worst"], expectedRows);
        QCOMPARE(
            validation["extremes"]["best"],
            (json{{"z", 3, 0, 0}, {"empty", 0, 0, 0}, {"b", 1, 1, 0}, {"a", 1, 1, 0}, {"miss", 0, 2, 4}}));

        // plots: one per type, as the reference collects them from the validator.
        const json& plots = data["plots"];
        QCOMPARE(plots.size(), size_t(5));
        std::vector<std::string> types;
        for (const auto& plot : plots)
            types.push_back(plot["type"].get<std::string>());
        QCOMPARE(types, (std::vector<std::string>{"confusion_matrix", "r_curve", "p_curve", "f1_curve",
                                                  "pr_curve"}));
        QCOMPARE(
            plots[0]["matrix"],
            (json{{4.0, 0.0, 1.0, 0.0}, {0.0, 0.0, 0.0, 0.0}, {0.0, 0.0, 3.0, 1.0}, {2.0, 0.0, 1.0, 0.0}}));
        for (size_t i = 1; i < plots.size(); ++i) {
            QCOMPARE(plots[i]["x"].size(), size_t(101));
            QCOMPARE(plots[i]["x"][1].get<double>(), 0.01);
            QCOMPARE(plots[i]["y"].size(), size_t(2));
            QCOMPARE(plots[i]["y"][0].size(), size_t(101));
        }
        QCOMPARE(plots[3]["y"][1][50].get<double>(), 0.5); // f1 row 1 at x 0.5: 0.5 * 2 / 2
        QCOMPARE(plots[4]["y"][0][25].get<double>(), 0.75);
        QCOMPARE(plots[4]["ap"], (json{std::vector<double>(10, 0.5), std::vector<double>(10, 0.6)}));
        QCOMPARE(plots[4]["classes"], (json{0, 2}));
        QVERIFY(!plots[3].contains("classes"));
    }

    /// A YOLO26 run's third loss reaches the platform under Ultralytics 8.4.190's YOLO26 names.
    void yolo26SendsItsL1Loss() {
        for (const char* model : {"yolo26n", "yolov8n"}) {
            remote::EventMapper mapper;
            mapper.map(parsed({{"type", "run_started"},
                               {"config", {{"epochs", "3"}}},
                               {"model", {{"name", model}, {"parameters", 1}, {"gflops", 1.0}}},
                               {"dataset", {{"names", {"cat"}}}},
                               {"epochs", 3}}));
            const auto sent = mapper.map(parsed(epoch(1, 0.2, 0.15, true)));
            QCOMPARE(sent.size(), size_t(1));
            const std::string text = sent.front().data.dump();
            const bool l1 = std::string(model) == "yolo26n";
            QVERIFY2((text.find("\"val/l1_loss\":3.0") != std::string::npos) == l1, text.c_str());
            QVERIFY2((text.find("\"val/dfl_loss\":3.0") != std::string::npos) == !l1, text.c_str());
            QVERIFY2(text.find("\"val/box_loss\":1.0") != std::string::npos, text.c_str());
        }
    }

    void withoutCurvesThereAreNoPlots() {
        remote::EventMapper mapper;
        mapper.map(parsed({{"type", "run_started"}, {"dataset", {{"names", {"cat"}}}}, {"run_dir", "/r"}}));
        // No validation: NaN metrics, no best epoch; the last epoch's metrics go out, NaN as null.
        mapper.map(parsed({{"type", "epoch"},
                           {"epoch", 1},
                           {"metrics", {{"train/box_loss", 1.0}, {"metrics/mAP50(B)", nullptr}}}}));
        const json data = mapper.completeData(nullptr);
        QCOMPARE(data["plots"], json::array());
        QVERIFY(!data["results"].contains("validation"));
        QVERIFY(data["results"]["metrics"].contains("val/box_loss"));
        QVERIFY(data["results"]["metrics"]["metrics/mAP50(B)"].is_null());
        QVERIFY(data["results"]["bestEpoch"].is_null());
        // Every class labelled: pr_curve has no classes key.
        auto curves = curvesOf({});
        curves.classNames = {"cat", "bird"};
        curves.confusionMatrix.assign(9, 0.0);
        QVERIFY(!remote::platformPlots(curves)[4].contains("classes"));
        QVERIFY(remote::validationPayload(curves).is_null());
    }

    void largeValidationsAreSampledEvenly() {
        // 10 images, a sample of 5: indices round(i * 9 / 4) with Python's half-to-even: 0, 2, 4, 7, 9.
        std::vector<run::ImageCounts> images;
        for (int i = 0; i < 10; ++i)
            images.push_back({"img" + std::to_string(i) + "_x.jpg", i, 10 - i, 0});
        const auto payload = remote::validationPayload(curvesOf(images), 5, 2);
        QCOMPARE(payload["population"].get<int>(), 10);
        json ids = json::array();
        for (const auto& row : payload["rows"])
            ids.push_back(row[0]);
        QCOMPARE(ids, (json{"img0", "img2", "img4", "img7", "img9"}));
        QCOMPARE(payload["extremes"]["worst"], (json{{"img0", 0, 10, 0}, {"img1", 1, 9, 0}}));
        QCOMPARE(payload["extremes"]["best"], (json{{"img9", 9, 1, 0}, {"img8", 8, 2, 0}}));
    }
};

QTEST_GUILESS_MAIN(TestPlatformPayload)
#include "tst_platform_payload.moc"
