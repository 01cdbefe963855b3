// What MlflowMapper makes of trainer events (issue 35), without a server: params from args.yaml in
// batches of MLflow's 100, metrics named and valued as results.csv holds them, the dataset input with the
// snapshot digest, the closing artifacts and status; plus the URI check and the answer classes the sender
// acts on.
#include "remote/mlflow_client.h"
#include "remote/mlflow_mapper.h"
#include "run/run_files.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <fstream>

using namespace osprey;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr std::int64_t kNow = 1764720000123;

json data(const remote::MlflowCall& call) {
    return json::parse(call.dataJson);
}

run::TrainEvent runStarted(const fs::path& dir, bool resume = false) {
    run::TrainEvent event;
    event.type = run::TrainEvent::Type::RunStarted;
    event.runDir = dir.string();
    event.modelName = "yolo11s";
    event.config = {{"device", "cpu"},
                    {"dataset_snapshot", std::string(64, 'a').replace(0, 4, "beef")},
                    {"resume", resume ? "true" : "false"}};
    event.trainImages = 12;
    event.valImages = 4;
    event.trainBoxes = 30;
    event.valBoxes = 9;
    event.classNames = {"螺丝", "nut"};
    return event;
}

run::TrainEvent epoch(int number) {
    run::TrainEvent event;
    event.type = run::TrainEvent::Type::Epoch;
    event.epoch = number;
    event.epochs = 3;
    event.metrics.epoch = number;
    event.metrics.timeS = 12.3456 * number;
    event.metrics.boxLoss = 1.234567891;
    event.metrics.map50to95 = 0.1234567;
    event.metrics.lrPg0 = 0.000123456789;
    return event;
}

} // namespace

class TestMlflowMapper : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    fs::path m_run;

    remote::MlflowMapper mapper() {
        return remote::MlflowMapper("parts", "/data/projects/widgets", [] { return kNow; });
    }

private slots:
    void init() {
        QVERIFY(m_dir.isValid());
        m_run = fs::path(m_dir.path().toStdString()) / "runs" / "train3";
        fs::create_directories(m_run / "weights");
        std::map<std::string, std::string> args;
        for (int i = 0; i < 150; ++i)
            args["key" + std::to_string(1000 + i)] = "value " + std::to_string(i);
        QVERIFY(run::writeArgsYaml(m_run / "args.yaml", args));
    }

    void metricKeysAreSanitisedAsUltralyticsDoes() {
        QCOMPARE(remote::MlflowMapper::metricKey("metrics/mAP50-95(B)"), std::string("metrics/mAP50-95B"));
        QCOMPARE(remote::MlflowMapper::metricKey("train/box_loss"), std::string("train/box_loss"));
    }

    void runStartedCreatesTheRunWithParamsAndDataset() {
        auto m = mapper();
        const auto calls = m.map(runStarted(m_run));
        QCOMPARE(calls.size(), size_t(4));
        QCOMPARE(calls[0].event, std::string("create_run"));
        const json create = data(calls[0]);
        QCOMPARE(create["experiment"].get<std::string>(), std::string("parts"));
        QCOMPARE(create["runName"].get<std::string>(), std::string("train3"));
        QCOMPARE(create["startTime"].get<std::int64_t>(), kNow);
        std::map<std::string, std::string> tags;
        for (const auto& tag : create["tags"])
            tags[tag["key"]] = tag["value"];
        QCOMPARE(tags["osprey.family"], std::string("yolo11"));
        QCOMPARE(tags["osprey.scale"], std::string("s"));
        QCOMPARE(tags["osprey.device"], std::string("cpu"));
        // 150 params: 100 + 50, every one as args.yaml holds it.
        QCOMPARE(calls[1].event, std::string("log_batch"));
        QCOMPARE(data(calls[1])["params"].size(), size_t(100));
        QCOMPARE(data(calls[2])["params"].size(), size_t(50));
        QCOMPARE(data(calls[2])["params"][49]["value"].get<std::string>(), std::string("value 149"));
        QCOMPARE(calls[3].event, std::string("log_inputs"));
        const json dataset = data(calls[3])["datasets"][0]["dataset"];
        QCOMPARE(dataset["name"].get<std::string>(), std::string("widgets"));
        QCOMPARE(dataset["digest"].get<std::string>().size(), size_t(36));
        const json profile = json::parse(dataset["profile"].get<std::string>());
        QCOMPARE(profile["snapshot_digest"].get<std::string>().substr(0, 4), std::string("beef"));
        QCOMPARE(profile["snapshot_digest"].get<std::string>().size(), size_t(64));
        QCOMPARE(profile["classes"][0].get<std::string>(), std::string("螺丝"));
        QCOMPARE(profile["train_boxes"].get<int>(), 30);
        // A second run_started (a resume in the same events file) continues: nothing new.
        QVERIFY(m.map(runStarted(m_run, true)).empty());
    }

    void epochsCarryTheResultsCsvValues() {
        auto m = mapper();
        QVERIFY(m.map(epoch(1)).empty()); // nothing before the run exists
        m.map(runStarted(m_run));
        run::TrainEvent system;
        system.type = run::TrainEvent::Type::System;
        system.cpuPercent = 42.5;
        system.ramUsedMb = 1000;
        system.ramTotalMb = 4000;
        QVERIFY(m.map(system).empty());
        const auto calls = m.map(epoch(2));
        QCOMPARE(calls.size(), size_t(1));
        std::map<std::string, json> metrics;
        const json batch = data(calls[0]);
        for (const auto& metric : batch["metrics"]) {
            QCOMPARE(metric["step"].get<int>(), 2);
            QCOMPARE(metric["timestamp"].get<std::int64_t>(), kNow);
            metrics[metric["key"].get<std::string>()] = metric["value"];
        }
        const auto cells = run::resultsCsvCells(epoch(2).metrics);
        const auto& columns = run::resultsCsvColumns();
        QCOMPARE(metrics.count("epoch"), size_t(0));
        for (size_t i = 1; i < columns.size(); ++i) {
            QVERIFY2(metrics.count(remote::MlflowMapper::metricKey(columns[i])), columns[i].c_str());
            QCOMPARE(metrics.at(remote::MlflowMapper::metricKey(columns[i])).get<double>(),
                     std::stod(cells[i]));
        }
        for (const char* key : {"train/box_loss", "time", "system/cpu_utilization_percentage",
                                "system/system_memory_usage_percentage"})
            QVERIFY2(metrics.count(key), key);
        QCOMPARE(metrics.at("train/box_loss").get<double>(), 1.23457); // as results.csv rounds it
        QCOMPARE(metrics.at("time").get<double>(), 24.691);
        QCOMPARE(metrics.at("system/cpu_utilization_percentage").get<double>(), 42.5);
        QCOMPARE(metrics.at("system/system_memory_usage_percentage").get<double>(), 25.0);
        QCOMPARE(metrics.count("system/gpu_0_utilization_percentage"), size_t(0));
    }

    void finishSendsTheFilesAndTheStatus_data() {
        QTest::addColumn<QString>("ending");
        QTest::addColumn<QString>("status");
        QTest::newRow("finished") << "finished"
                                  << "FINISHED";
        QTest::newRow("early stopped") << "early_stopped"
                                       << "FINISHED";
        QTest::newRow("stopped on request") << "stopped"
                                            << "KILLED";
        QTest::newRow("failed") << "failed"
                                << "FAILED";
        QTest::newRow("no ending event") << ""
                                         << "FAILED";
    }

    void finishSendsTheFilesAndTheStatus() {
        QFETCH(QString, ending);
        QFETCH(QString, status);
        for (const char* file : {"weights/best.pt", "results.csv", "events.jsonl", "curves.json"})
            std::ofstream(m_run / file) << "x";
        auto m = mapper();
        m.map(runStarted(m_run));
        if (!ending.isEmpty()) {
            run::TrainEvent end;
            end.type = ending == "failed" ? run::TrainEvent::Type::Failed : run::TrainEvent::Type::Finished;
            end.status = ending.toStdString();
            QVERIFY(m.map(end).empty());
        }
        const auto calls = m.finish("FAILED");
        std::vector<std::string> artifacts;
        for (size_t i = 0; i + 1 < calls.size(); ++i) {
            QCOMPARE(calls[i].event, std::string("artifact"));
            artifacts.push_back(data(calls[i])["artifactPath"]);
        }
        // No last.pt here; events.jsonl is not one of the run's reports.
        QCOMPARE(artifacts,
                 (std::vector<std::string>{"weights/best.pt", "args.yaml", "curves.json", "results.csv"}));
        QCOMPARE(calls.back().event, std::string("update_run"));
        QCOMPARE(QString::fromStdString(data(calls.back())["status"]), status);
        QCOMPARE(data(calls.back())["endTime"].get<std::int64_t>(), kNow);
    }

    void aResumedTrainingContinuesItsRun() {
        auto m = mapper();
        m.setContinuing(true);
        const auto calls = m.map(runStarted(m_run, true));
        QCOMPARE(calls.size(), size_t(2));
        QCOMPARE(calls[0].event, std::string("create_run"));
        QCOMPARE(calls[1].event, std::string("update_run"));
        QCOMPARE(data(calls[1])["status"].get<std::string>(), std::string("RUNNING"));
        QVERIFY(!data(calls[1]).contains("endTime"));
    }

    void trackingUris() {
        QCOMPARE(remote::checkTrackingUri("http://127.0.0.1:5000/").value(),
                 std::string("http://127.0.0.1:5000"));
        QCOMPARE(remote::checkTrackingUri("https://mlflow.example/team").value(),
                 std::string("https://mlflow.example/team"));
        for (const char* bad :
             {"", "mlruns", "file:///tmp/mlruns", "databricks", "sqlite:///m.db", "http://"}) {
            auto checked = remote::checkTrackingUri(bad);
            QVERIFY2(!checked, bad);
            QCOMPARE(checked.error().code, std::string("bad_uri"));
        }
        auto secret = remote::checkTrackingUri("http://me:hunter2@mlflow.example");
        QVERIFY(!secret);
        QVERIFY(secret.message().find("hunter2") == std::string::npos);
        QVERIFY(secret.message().find("MLFLOW_TRACKING_PASSWORD") != std::string::npos);
    }

    void answerClasses() {
        using remote::MlflowOutcome;
        const auto answer = [](long status, const std::string& body) {
            return remote::classifyMlflow({remote::Transport::Ok, status, body, {}, {}});
        };
        QCOMPARE(answer(200, "{}"), MlflowOutcome::Success);
        QCOMPARE(answer(401, ""), MlflowOutcome::Refused);
        QCOMPARE(answer(403, R"({"error_code":"PERMISSION_DENIED"})"), MlflowOutcome::Refused);
        QCOMPARE(answer(503, ""), MlflowOutcome::Retry);
        QCOMPARE(answer(429, ""), MlflowOutcome::Retry);
        QCOMPARE(answer(400, R"({"error_code":"INVALID_PARAMETER_VALUE"})"), MlflowOutcome::Reject);
        QCOMPARE(answer(404, R"({"error_code":"RESOURCE_DOES_NOT_EXIST"})"), MlflowOutcome::Reject);
        QCOMPARE(answer(404, "<html>Not Found</html>"), MlflowOutcome::NotMlflow);
        QCOMPARE(answer(404, R"({"error_code":"ENDPOINT_NOT_FOUND"})"), MlflowOutcome::NotMlflow);
        QCOMPARE(remote::classifyMlflow({remote::Transport::ConnectFailed, 0, {}, "refused", {}}),
                 MlflowOutcome::Retry);
    }
};

QTEST_GUILESS_MAIN(TestMlflowMapper)
#include "tst_mlflow_mapper.moc"
