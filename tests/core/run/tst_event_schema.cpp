// The events schema has one writer (run::toJson) and one reader (run::parseEvent), and EVENTS.md is its
// public description: for every event type the keys the writer puts on a line are exactly the keys
// EVENTS.md documents (and the documented keys of `metrics`, `dataset` and `gpu`), and the reader reads
// back every field the writer wrote. Missing or null numbers read as NaN; non-events are refused.

#include "run/run_files.h"
#include "run/train_events.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <set>

using namespace osprey::run;
using Type = TrainEvent::Type;

namespace {

std::set<std::string> backticked(const std::string& text) {
    std::set<std::string> names;
    static const std::regex pattern("`([^`]+)`");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), pattern); it != std::sregex_iterator();
         ++it)
        names.insert((*it)[1]);
    return names;
}

/// type -> documented top-level keys, and "type.key" -> the backticked names of that row's meaning.
struct Documented {
    std::map<std::string, std::set<std::string>> keys;
    std::map<std::string, std::set<std::string>> meanings;
};

Documented readEventsMd() {
    Documented doc;
    std::ifstream in(OSPREY_SOURCE_DIR "/core/run/EVENTS.md");
    std::string line, section;
    while (std::getline(in, line)) {
        if (line.rfind("## ", 0) == 0) {
            const auto names = backticked(line);
            section = line.rfind("## `", 0) == 0 && !names.empty() ? *names.begin() : std::string();
            continue;
        }
        if (section.empty() || line.rfind("| `", 0) != 0)
            continue;
        const auto second = line.find('|', 1);
        const auto keys = backticked(line.substr(1, second - 1));
        const auto lastBar = line.rfind('|');
        const auto meaningStart = line.rfind('|', lastBar - 1);
        const auto meaning = backticked(line.substr(meaningStart + 1, lastBar - meaningStart - 1));
        for (const auto& key : keys) {
            doc.keys[section].insert(key);
            doc.meanings[section + "." + key] = meaning;
        }
    }
    return doc;
}

std::set<std::string> keysOf(const nlohmann::json& object) {
    std::set<std::string> keys;
    for (const auto& [key, value] : object.items())
        keys.insert(key);
    return keys;
}

/// An event of `type` with every field of that type set to a distinct, non-default value.
TrainEvent populated(Type type) {
    TrainEvent e;
    e.type = type;
    e.timeS = 12.5;
    e.config = {{"model", "yolo11s"}, {"epochs", "7"}};
    e.trainImages = 11, e.valImages = 12, e.trainBoxes = 13, e.valBoxes = 14, e.negatives = 15;
    e.classNames = {"circle", "star"};
    e.modelName = "yolo11s";
    e.parameters = 9458752;
    e.gflops = 21.5;
    e.runDir = "/p/runs/exp";
    e.startEpoch = 3;
    e.pid = 4242;
    e.epoch = 4, e.epochs = 7, e.batch = 5, e.batches = 9;
    e.boxLoss = 1.25, e.clsLoss = 2.5, e.dflLoss = 1.125;
    e.imagesPerS = 17.25, e.etaS = 905.5, e.instances = 118;
    e.rankImagesPerS = {8.5, 8.75}; // a data-parallel run's two ranks
    e.metrics.epoch = 4;
    double value = 0.5;
    for (const MetricColumn& column : metricColumns())
        e.metrics.*column.value = (value += 0.25);
    e.best = true;
    e.cpuPercent = 55.5, e.ramUsedMb = 1024.5, e.ramTotalMb = 4096.5, e.processRssMb = 512.5;
    e.gpu = true;
    e.gpuName = "NVIDIA H200";
    e.gpuUtilPercent = 37.5, e.gpuMemUsedMb = 1000.5, e.gpuMemTotalMb = 143771.5, e.gpuTempC = 45.5;
    e.level = "warning";
    e.message = "something to say";
    e.path = "/p/runs/exp/weights/best.pt";
    e.kind = "best";
    e.status = "early_stopped";
    e.bestEpoch = 3;
    e.bestFitness = 0.625;
    e.bestPath = "/p/runs/exp/weights/best.pt";
    e.lastPath = "/p/runs/exp/weights/last.pt";
    e.remoteState = "retrying";
    e.queued = 3, e.delivered = 5, e.remoteFailed = 1;
    e.dashboardUrl = "https://platform.example.com/u/p/exp";
    e.uploading = true;
    e.uploadSent = 1000, e.uploadTotal = 4000;
    e.cancelled = true;
    return e;
}

const Type kTypes[] = {Type::RunStarted, Type::Batch,    Type::Epoch,  Type::System, Type::Log,
                       Type::Checkpoint, Type::Finished, Type::Failed, Type::Remote, Type::Advice};

} // namespace

class TestEventSchema : public QObject {
    Q_OBJECT
private slots:
    void writerKeysAreTheDocumentedKeys() {
        const Documented doc = readEventsMd();
        QCOMPARE(doc.keys.size(), std::size(kTypes));
        for (const Type type : kTypes) {
            const std::string name = toString(type);
            QVERIFY2(doc.keys.count(name), name.c_str());
            std::set<std::string> expected = doc.keys.at(name);
            expected.insert({"type", "v", "t"});
            const auto line = nlohmann::json::parse(toJson(populated(type)));
            QVERIFY2(keysOf(line) == expected, (name + ": " + line.dump()).c_str());
        }
        // The nested objects the tables spell out.
        const auto epoch = nlohmann::json::parse(toJson(populated(Type::Epoch)));
        QVERIFY(keysOf(epoch["metrics"]) == doc.meanings.at("epoch.metrics"));
        const auto started = nlohmann::json::parse(toJson(populated(Type::RunStarted)));
        QVERIFY(keysOf(started["dataset"]) == doc.meanings.at("run_started.dataset"));
        auto gpuKeys = doc.meanings.at("system.gpu");
        gpuKeys.erase("null");
        const auto system = nlohmann::json::parse(toJson(populated(Type::System)));
        QVERIFY(keysOf(system["gpu"]) == gpuKeys);
    }

    void readerReadsEveryWrittenField() {
        for (const Type type : kTypes) {
            const std::string line = toJson(populated(type));
            auto event = parseEvent(line);
            QVERIFY2(event.hasValue(), line.c_str());
            QVERIFY(event->type == type);
            // Written again from what was read, the line is the same: no field was lost or changed.
            QCOMPARE(toJson(event.value()), line);
        }
    }

    void missingNumbersAreGaps() {
        auto event =
            parseEvent(R"({"type":"epoch","v":1,"t":3,"epoch":2,"epochs":5,)"
                       R"("metrics":{"train/box_loss":1.5,"val/box_loss":null,"extra/key":7},"future":1})");
        QVERIFY(event.hasValue());
        QCOMPARE(event->epoch, 2);
        QCOMPARE(event->metrics.epoch, 2);
        QCOMPARE(event->metrics.boxLoss, 1.5);
        QVERIFY(std::isnan(event->metrics.valBoxLoss));
        QVERIFY(std::isnan(event->metrics.map50to95));
        QVERIFY(std::isnan(event->etaS));
        // A remote line may leave out the dashboard URL and the cancellation: "unchanged", not "empty".
        auto remote = parseEvent(R"({"type":"remote","t":"x","state":5,"queued":"many","upload_total":-3})");
        QVERIFY(remote.hasValue());
        QVERIFY(!remote->dashboardUrl);
        QVERIFY(!remote->cancelled);
        QCOMPARE(remote->queued, std::int64_t(0));
        QCOMPARE(remote->uploadTotal, std::int64_t(0));
        QVERIFY(remote->remoteState.empty());
    }

    // Data parallel: the per-rank speeds travel with batch and epoch events; one process writes no key.
    void rankSpeedsRoundTrip() {
        for (const Type type : {Type::Batch, Type::Epoch}) {
            TrainEvent event;
            event.type = type;
            event.imagesPerS = 6.0;
            event.rankImagesPerS = {3.125, 2.875};
            const auto line = toJson(event);
            QVERIFY2(line.find(R"("rank_images_per_s":[3.125,2.875])") != std::string::npos, line.c_str());
            auto read = parseEvent(line);
            QVERIFY(read.hasValue());
            QVERIFY(read->rankImagesPerS == event.rankImagesPerS);
            event.rankImagesPerS.clear();
            QVERIFY(toJson(event).find("rank_images_per_s") == std::string::npos);
        }
        // A rank whose figure is unknown stays a gap.
        auto gap = parseEvent(R"({"type":"batch","images_per_s":3,"rank_images_per_s":[3,null]})");
        QVERIFY(gap.hasValue());
        QCOMPARE(gap->rankImagesPerS.size(), size_t(2));
        QVERIFY(std::isnan(gap->rankImagesPerS[1]));
    }

    void nonEventsAreRefused() {
        QCOMPARE(parseEvent("not json").message(), std::string("not a JSON event line"));
        QCOMPARE(parseEvent("[1,2]").message(), std::string("not a JSON object"));
        QCOMPARE(parseEvent(R"({"v":1})").message(), std::string("the event has no \"type\""));
        QCOMPARE(parseEvent(R"({"type":"teleport"})").message(),
                 std::string("unknown event type 'teleport' (written by a newer Osprey?)"));
        QCOMPARE(parseEvent(R"({"type":"teleport"})").error().code, std::string("unknown_type"));
        QCOMPARE(parseEvent("[1]").error().code, std::string("not_json"));
    }

    void resultsCsvColumnsComeFromTheMetricList() {
        std::vector<std::string> expected{"epoch"};
        for (const MetricColumn& column : metricColumns())
            if (column.inResultsCsv)
                expected.emplace_back(column.key);
        QVERIFY(resultsCsvColumns() == expected);
        QCOMPARE(expected.size(), size_t(15));
        QCOMPARE(expected[1], std::string("time"));
        QCOMPARE(expected.back(), std::string("lr/pg2"));
    }
};

QTEST_APPLESS_MAIN(TestEventSchema)
#include "tst_event_schema.moc"
