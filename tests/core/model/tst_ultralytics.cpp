// Ultralytics checkpoints: the strict pickle reader (real files and hostile ones), the zip container of
// torch.save (complete and truncated), the architecture recovered from the module tree, and numerical
// parity with what Ultralytics 8.4.90 itself computed from the same checkpoint.
#include "../../fixtures.h"
#include "common/hash.h"
#include "imaging/image.h"
#include "model/pickle_impl.h"
#include "model/predictor.h"
#include "model/ultralytics_impl.h"
#include "model/weights_torch_impl.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>
#include <sstream>

using namespace osprey;
using namespace osprey::model;
namespace fs = std::filesystem;

namespace {

const std::string kCoco = "models/ultralytics-coco/";
const std::string kTrained = "models/ultralytics-trained/";
const std::string kYolo26 = "models/ultralytics-trained/yolo26n/";

std::string readBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const fs::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// Rows of a tab-separated file with a header, as maps from column name to value.
std::vector<std::map<std::string, std::string>> readTsv(const fs::path& path) {
    std::ifstream in(path);
    std::string line;
    std::vector<std::string> header;
    std::vector<std::map<std::string, std::string>> rows;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream split(line);
        std::string cell;
        while (std::getline(split, cell, '\t'))
            cells.push_back(cell);
        if (line.size() > 0 && line.back() == '\t')
            cells.emplace_back();
        if (header.empty()) {
            header = cells;
            continue;
        }
        std::map<std::string, std::string> row;
        for (size_t i = 0; i < header.size() && i < cells.size(); ++i)
            row[header[i]] = cells[i];
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string shapeText(const std::vector<std::int64_t>& sizes) {
    if (sizes.empty())
        return "scalar";
    std::ostringstream text;
    for (size_t i = 0; i < sizes.size(); ++i)
        text << (i > 0 ? "x" : "") << sizes[i];
    return text.str();
}

std::string le32(std::uint32_t value) {
    std::string out(4, '\0');
    for (int i = 0; i < 4; ++i)
        out[static_cast<size_t>(i)] = static_cast<char>((value >> (8 * i)) & 0xFF);
    return out;
}
std::string le16(std::uint16_t value) {
    return le32(value).substr(0, 2);
}

/// A minimal stored zip with the given records (for malformed-archive cases).
std::string makeZip(const std::vector<std::pair<std::string, std::string>>& records) {
    std::string out, directory;
    for (const auto& [name, data] : records) {
        const auto offset = static_cast<std::uint32_t>(out.size());
        const std::uint32_t crc = crc32(data);
        std::string common = le16(20) + le16(0) + le16(0) + le16(0) + le16(0) + le32(crc) +
                             le32(static_cast<std::uint32_t>(data.size())) +
                             le32(static_cast<std::uint32_t>(data.size())) +
                             le16(static_cast<std::uint16_t>(name.size())) + le16(0);
        out += le32(0x04034b50) + common + name + data;
        directory += le32(0x02014b50) + le16(20) + common + le16(0) + le16(0) + le16(0) + le32(0) +
                     le32(offset) + name;
    }
    const auto start = static_cast<std::uint32_t>(out.size());
    out += directory;
    out += le32(0x06054b50) + le16(0) + le16(0) + le16(static_cast<std::uint16_t>(records.size())) +
           le16(static_cast<std::uint16_t>(records.size())) +
           le32(static_cast<std::uint32_t>(directory.size())) + le32(start) + le16(0);
    return out;
}

std::string replaceAll(std::string text, const std::string& from, const std::string& to) {
    size_t count = 0;
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
        ++count;
    }
    if (count == 0)
        qFatal("replaceAll: '%s' not found", from.c_str());
    return text;
}

double boxIou(const Detection& a, double x1, double y1, double x2, double y2) {
    const double iw = std::max(0.0, std::min<double>(a.x2, x2) - std::max<double>(a.x1, x1));
    const double ih = std::max(0.0, std::min<double>(a.y2, y2) - std::max<double>(a.y1, y1));
    const double inter = iw * ih;
    return inter / ((a.x2 - a.x1) * (a.y2 - a.y1) + (x2 - x1) * (y2 - y1) - inter);
}

std::vector<float> readFloats(const fs::path& path) {
    const std::string bytes = readBytes(path);
    std::vector<float> values(bytes.size() / 4);
    std::memcpy(values.data(), bytes.data(), values.size() * 4);
    return values;
}

/// The trained checkpoint with its pickle replaced by `pickleBytes` (the tensor records kept).
std::string withPickle(const std::string& pickleBytes) {
    auto archive = ZipArchive::open(test::fixture(kTrained + "yolov8n-shapes-best.pt")).value();
    std::vector<std::pair<std::string, std::string>> records;
    for (const auto& record : archive.records())
        records.emplace_back(record.name, record.name.ends_with("/data.pkl")
                                              ? pickleBytes
                                              : std::string(archive.bytes(record)));
    return makeZip(records);
}

std::string trainedPickle() {
    auto archive = ZipArchive::open(test::fixture(kTrained + "yolov8n-shapes-best.pt")).value();
    return std::string(archive.bytes(*archive.findSuffix("data.pkl")));
}

} // namespace

class TestUltralytics : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { torch::set_num_threads(2); }

    void readsTheOfficialCocoPickles_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("family");
        QTest::addColumn<QString>("version");
        QTest::newRow("yolov8n") << "yolov8n" << static_cast<int>(Family::YoloV8) << "8.0.0.dev0";
        QTest::newRow("yolo11n") << "yolo11n" << static_cast<int>(Family::Yolo11) << "8.2.100";
    }
    void readsTheOfficialCocoPickles() {
        OSPREY_REQUIRE_FIXTURE(kCoco);
        QFETCH(QString, model);
        QFETCH(int, family);
        QFETCH(QString, version);
        const std::string name = model.toStdString();
        const auto described =
            describeUltralytics(readBytes(test::fixture(kCoco + name + ".data.pkl")), name + ".pt");
        QVERIFY2(described, described ? "" : described.message().c_str());
        QCOMPARE(static_cast<int>(described->meta.spec.family), family);
        QCOMPARE(described->meta.spec.scale, Scale::N);
        QCOMPARE(described->meta.spec.numClasses, 80);
        QVERIFY(described->meta.spec.sppfActivation); // the official files pickle SiLU at SPPF.cv1
        QCOMPARE(described->meta.names.size(), size_t{80});
        QCOMPARE(described->meta.names.front(), std::string("person"));
        QCOMPARE(described->meta.names.back(), std::string("toothbrush"));
        QCOMPARE(described->version, version.toStdString());
        QCOMPARE(described->meta.imgsz, 640);
        QCOMPARE(described->meta.epoch, -1);
        QVERIFY(described->ema.empty()); // stripped: ema is None
        // Every state_dict name and shape, in order, as Ultralytics lists them.
        const auto expected = readTsv(test::fixture("models/ultralytics-names/" + name + "-nc80.tsv"));
        QCOMPARE(described->model.size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(described->model[i].name, expected[i].at("name"));
            QCOMPARE(shapeText(described->model[i].ref.sizes), expected[i].at("shape"));
        }
        // And the same network built by Osprey has exactly those names and shapes.
        ModelSpec spec = described->meta.spec;
        DetectionModel network(spec);
        const auto state = network.stateDict();
        QCOMPARE(state.size(), expected.size());
        for (size_t i = 0; i < state.size(); ++i) {
            QCOMPARE(state[i].first, expected[i].at("name"));
            std::vector<std::int64_t> sizes(state[i].second.sizes().begin(), state[i].second.sizes().end());
            QCOMPARE(shapeText(sizes), expected[i].at("shape"));
        }
        QCOMPARE(described->extras.size(), size_t{4}); // DetectionModel.stride, Detect.stride/anchors/strides
    }

    void checksTheTensorsOfATruncatedDownload_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("complete");
        QTest::newRow("yolov8n") << "yolov8n" << 158;
        QTest::newRow("yolo11n") << "yolo11n" << 244;
    }
    void checksTheTensorsOfATruncatedDownload() {
        OSPREY_REQUIRE_FIXTURE(kCoco);
        QFETCH(QString, model);
        QFETCH(int, complete);
        const std::string name = model.toStdString();
        const fs::path part = test::fixture(kCoco + name + ".pt.part");
        // Loading says plainly that the file is cut short.
        const auto opened = ZipArchive::open(part);
        QVERIFY(!opened);
        QCOMPARE(opened.error().code, std::string("truncated"));
        QVERIFY2(opened.message().find("truncated") != std::string::npos, opened.message().c_str());
        QVERIFY(opened.message().find(name + ".pt.part") != std::string::npos);
        const auto loaded = loadDetector(part);
        QVERIFY(!loaded);
        QVERIFY2(loaded.message().find("truncated") != std::string::npos, loaded.message().c_str());
        // What the prefix holds: the pickle (identical to the extracted one) and the complete tensor records,
        // whose bytes hash to the recorded CRC-32s, and which the pickle maps to the right tensors.
        const std::string bytes = readBytes(part);
        const auto records = scanLocalRecords(bytes);
        std::map<std::string, ZipRecord> byName;
        for (const auto& record : records)
            byName[record.name] = record;
        const auto& pkl = byName.at(name + "/data.pkl");
        QCOMPARE(bytes.substr(pkl.offset, pkl.size), readBytes(test::fixture(kCoco + name + ".data.pkl")));
        QCOMPARE(crc32(bytes.substr(pkl.offset, pkl.size)), pkl.crc);
        const auto described = describeUltralytics(bytes.substr(pkl.offset, pkl.size), name + ".pt").value();
        std::map<std::string, const UltralyticsTensor*> byKey;
        for (const auto* list : {&described.model, &described.extras})
            for (const auto& tensor : *list)
                byKey[tensor.ref.storageKey] = &tensor;
        int checked = 0;
        for (const auto& row : readTsv(test::fixture(kCoco + name + "-records.tsv"))) {
            const std::string key = row.at("record").substr(std::string("data/").size());
            const UltralyticsTensor* tensor = byKey.at(key);
            QCOMPARE(tensor->name, row.at("name"));
            QCOMPARE(shapeText(tensor->ref.sizes), row.at("shape"));
            QCOMPARE(std::to_string(tensor->ref.storageNumel), row.at("storage_numel"));
            const auto it = byName.find(name + "/" + row.at("record"));
            QCOMPARE(it != byName.end(), row.at("in_partial") == "yes");
            if (it == byName.end())
                continue;
            QCOMPARE(it->second.size,
                     static_cast<std::uint64_t>(tensor->ref.storageNumel) *
                         static_cast<std::uint64_t>(storageElementSize(tensor->ref.storageClass)));
            char hex[9];
            std::snprintf(hex, sizeof hex, "%08x", crc32(bytes.substr(it->second.offset, it->second.size)));
            QCOMPARE(std::string(hex), row.at("crc32"));
            ++checked;
        }
        QCOMPARE(checked, complete);
    }

    void loadsACheckpointUltralyticsWrote() {
        OSPREY_REQUIRE_FIXTURE(kTrained);
        CheckpointMeta meta;
        auto detector = loadDetector(test::fixture(kTrained + "yolov8n-shapes-best.pt"), &meta);
        QVERIFY2(detector, detector ? "" : detector.message().c_str());
        QCOMPARE(meta.spec.name(), std::string("yolov8n"));
        QCOMPARE(meta.spec.numClasses, 4);
        QVERIFY(!meta.spec.sppfActivation); // built by 8.4.90: SPPF.cv1 has no activation
        QCOMPARE(meta.names, (std::vector<std::string>{"circle", "square", "triangle", "star"}));
        QCOMPARE(meta.imgsz, 320);
        QCOMPARE(meta.trainArgs.at("epochs"), std::string("30"));
        QCOMPARE(meta.metrics.at("metrics/mAP50-95(B)"), 0.62065);
        QVERIFY2(meta.origin.find("Ultralytics 8.4.90") != std::string::npos, meta.origin.c_str());
        // The metadata alone reads the same.
        const auto onlyMeta = readCheckpointMeta(test::fixture(kTrained + "yolov8n-shapes-best.pt"));
        QVERIFY(onlyMeta);
        QCOMPARE(onlyMeta->spec.name(), meta.spec.name());
        QCOMPARE(onlyMeta->spec.sppfActivation, false);
    }

    void rawOutputEqualsUltralytics() {
        OSPREY_REQUIRE_FIXTURE(kTrained);
        CheckpointMeta meta;
        auto detector = loadDetector(test::fixture(kTrained + "yolov8n-shapes-best.pt"), &meta).value();
        auto& network = *detector.impl().model;
        network.eval();
        const auto input = readFloats(test::fixture(kTrained + "raw-input.f32"));
        const auto expected = readFloats(test::fixture(kTrained + "raw-output.f32"));
        QCOMPARE(input.size(), size_t{3 * 320 * 320});
        QCOMPARE(expected.size(), size_t{8 * 2100});
        torch::NoGradGuard noGrad;
        const auto x = torch::from_blob(const_cast<float*>(input.data()), {1, 3, 320, 320}).clone();
        const auto y = network.forwardDecoded(x).contiguous();
        QCOMPARE(y.sizes().vec(), (std::vector<std::int64_t>{1, 8, 2100}));
        const auto reference = torch::from_blob(const_cast<float*>(expected.data()), {1, 8, 2100});
        const double boxDiff = (y.slice(1, 0, 4) - reference.slice(1, 0, 4)).abs().max().item<double>();
        const double scoreDiff = (y.slice(1, 4) - reference.slice(1, 4)).abs().max().item<double>();
        qInfo("max |diff| vs Ultralytics: boxes %.2e px, scores %.2e", boxDiff, scoreDiff);
        QVERIFY2(boxDiff <= 1e-3, qPrintable(QString::number(boxDiff)));
        QVERIFY2(scoreDiff <= 1e-3, qPrintable(QString::number(scoreDiff)));
        // With SiLU at SPPF.cv1 (the wrong variant for this file) the output differs: the flag matters.
        ModelSpec wrong = meta.spec;
        wrong.sppfActivation = true;
        auto other = std::make_shared<DetectionModel>(wrong);
        QVERIFY(loadState(*other, network.stateDict(), LoadMode::Exact));
        other->eval();
        QVERIFY((other->forwardDecoded(x) - y).abs().max().item<double>() > 0.01);
    }

    /// A YOLO26n that Ultralytics 8.4.190 trained: its metadata, and both heads' raw outputs on the same
    /// input as Ultralytics' (one-to-many decoded, one-to-one end to end).
    void loadsAYolo26Checkpoint() {
        OSPREY_REQUIRE_FIXTURE(kYolo26);
        CheckpointMeta meta;
        auto detector = loadDetector(test::fixture(kYolo26 + "yolo26n-shapes-best.pt"), &meta);
        QVERIFY2(detector, detector ? "" : detector.message().c_str());
        QCOMPARE(meta.spec.name(), std::string("yolo26n"));
        QCOMPARE(meta.spec.numClasses, 4);
        QVERIFY(!meta.spec.sppfActivation);
        QCOMPARE(meta.names, (std::vector<std::string>{"circle", "square", "triangle", "star"}));
        QCOMPARE(meta.imgsz, 320);
        QVERIFY2(meta.origin.find("Ultralytics 8.4.190") != std::string::npos, meta.origin.c_str());
        QVERIFY(detector->impl().model->head().endToEnd());
    }

    void yolo26RawOutputsEqualUltralytics() {
        OSPREY_REQUIRE_FIXTURE(kYolo26);
        auto detector = loadDetector(test::fixture(kYolo26 + "yolo26n-shapes-best.pt")).value();
        auto& network = *detector.impl().model;
        network.eval();
        const auto input = readFloats(test::fixture(kYolo26 + "raw-input.f32"));
        const auto manyExpected = readFloats(test::fixture(kYolo26 + "raw-output-o2m.f32"));
        const auto oneExpected = readFloats(test::fixture(kYolo26 + "raw-output-e2e.f32"));
        QCOMPARE(manyExpected.size(), size_t{8 * 2100});
        QCOMPARE(oneExpected.size(), size_t{300 * 6});
        torch::NoGradGuard noGrad;
        const auto x = torch::from_blob(const_cast<float*>(input.data()), {1, 3, 320, 320}).clone();

        const auto many = network.forwardDecoded(x).contiguous();
        QCOMPARE(many.sizes().vec(), (std::vector<std::int64_t>{1, 8, 2100}));
        const auto manyRef = torch::from_blob(const_cast<float*>(manyExpected.data()), {1, 8, 2100});
        const double boxDiff = (many.slice(1, 0, 4) - manyRef.slice(1, 0, 4)).abs().max().item<double>();
        const double scoreDiff = (many.slice(1, 4) - manyRef.slice(1, 4)).abs().max().item<double>();
        qInfo("one-to-many vs Ultralytics: boxes %.2e px, scores %.2e", boxDiff, scoreDiff);
        QVERIFY2(boxDiff <= 1e-3, qPrintable(QString::number(boxDiff)));
        QVERIFY2(scoreDiff <= 1e-4, qPrintable(QString::number(scoreDiff)));

        const auto one = network.forwardEndToEnd(x, 300).contiguous();
        QCOMPARE(one.sizes().vec(), (std::vector<std::int64_t>{1, 300, 6}));
        const auto oneRef = torch::from_blob(const_cast<float*>(oneExpected.data()), {1, 300, 6});
        // Rows are ranked by score: where two scores tie to float precision the order may differ, so
        // compare the scores row by row and the boxes and classes where the ranking is clear.
        const double rankedScores = (one.select(2, 4) - oneRef.select(2, 4)).abs().max().item<double>();
        double worstBox = 0;
        int compared = 0;
        for (int row = 0; row < 300; ++row) {
            const double score = oneRef[0][row][4].item<double>();
            // Ranked clearly: more than twice the score tolerance between this row and its neighbours.
            const bool clear = (row == 0 || oneRef[0][row - 1][4].item<double>() - score > 2e-4) &&
                               (row == 299 || score - oneRef[0][row + 1][4].item<double>() > 2e-4);
            if (!clear)
                continue;
            QCOMPARE(one[0][row][5].item<double>(), oneRef[0][row][5].item<double>());
            worstBox = std::max(
                worstBox,
                (one[0][row].slice(0, 0, 4) - oneRef[0][row].slice(0, 0, 4)).abs().max().item<double>());
            ++compared;
        }
        qInfo("one-to-one vs Ultralytics: scores %.2e, boxes %.2e px over %d clearly ranked rows",
              rankedScores, worstBox, compared);
        QVERIFY(compared >= 20);
        QVERIFY2(rankedScores <= 1e-4, qPrintable(QString::number(rankedScores)));
        QVERIFY2(worstBox <= 1e-3, qPrintable(QString::number(worstBox)));
    }

    /// YOLO26 written in Ultralytics' layout (the trained fixture imported, a fresh yolo26s nc 3 saved) reads
    /// back as the same network: the same metadata, every tensor, and both heads' outputs bit for bit.
    /// (What Ultralytics itself makes of these files: tst_ultralytics_fresh.)
    void writesAYolo26Checkpoint() {
        OSPREY_REQUIRE_FIXTURE(kYolo26);
        QTemporaryDir dir;
        const fs::path folder(dir.path().toStdString());
        const fs::path source = test::fixture(kYolo26 + "yolo26n-shapes-best.pt");
        const fs::path imported = folder / "yolo26n-osprey.pt";
        const auto report = importWeights(source, imported);
        QVERIFY2(report, report ? "" : report.message().c_str());

        torch::manual_seed(7);
        auto fresh = Detector::create(parseModelName("yolo26s", 3).value()).value();
        {
            torch::NoGradGuard noGrad;
            for (auto& module : fresh.impl().model->modules())
                if (auto* bn = dynamic_cast<torch::nn::BatchNorm2dImpl*>(module.get())) {
                    bn->running_mean.uniform_(-0.5, 0.5);
                    bn->running_var.uniform_(0.5, 2.0);
                    bn->weight.uniform_(0.5, 1.5);
                    bn->bias.uniform_(-0.2, 0.2);
                }
        }
        CheckpointMeta freshMeta;
        freshMeta.spec = fresh.spec();
        freshMeta.names = {"a", "b", "c"};
        const fs::path saved = folder / "yolo26s-nc3.pt";
        QVERIFY(saveWeights(fresh, freshMeta, saved));

        auto trained = loadDetector(source).value();
        const std::vector<std::tuple<Detector*, fs::path, std::string, int>> cases = {
            {&trained, imported, "yolo26n", 4}, {&fresh, saved, "yolo26s", 3}};
        for (const auto& [before, written, name, nc] : cases) {
            CheckpointMeta meta;
            auto after = loadDetector(written, &meta);
            QVERIFY2(after, after ? "" : after.message().c_str());
            QCOMPARE(meta.spec.name(), name);
            QCOMPARE(meta.spec.numClasses, nc);
            QVERIFY(!meta.spec.sppfActivation);
            auto& a = *before->impl().model;
            auto& b = *after->impl().model;
            QVERIFY(b.head().endToEnd() && b.head().hasOneToMany());
            const auto stateA = a.stateDict(), stateB = b.stateDict();
            QCOMPARE(stateB.size(), stateA.size());
            for (size_t i = 0; i < stateA.size(); ++i) {
                QCOMPARE(stateB[i].first, stateA[i].first);
                QVERIFY2(stateB[i].second.to(torch::kFloat).equal(stateA[i].second.to(torch::kFloat)),
                         stateA[i].first.c_str());
            }
            a.eval();
            b.eval();
            torch::NoGradGuard noGrad;
            const auto x = torch::rand({1, 3, 256, 256});
            QVERIFY(b.forwardDecoded(x).equal(a.forwardDecoded(x)));
            QVERIFY(b.forwardEndToEnd(x, 300).equal(a.forwardEndToEnd(x, 300)));
        }
        // A training checkpoint (model and EMA, as `last.pt` mid-run): both networks come back as written.
        Checkpoint training = makeCheckpoint(*fresh.impl().model, freshMeta);
        for (const auto& [name, tensor] : fresh.impl().model->stateDict())
            training.ema.emplace_back(name, tensor.is_floating_point() ? tensor * 0.5 : tensor);
        training.meta.epoch = 3;
        QVERIFY(saveCheckpoint(training, folder / "last.pt"));
        const auto reread = loadCheckpoint(folder / "last.pt");
        QVERIFY2(reread, reread ? "" : reread.message().c_str());
        QCOMPARE(reread->ema.size(), training.ema.size());
        for (size_t i = 0; i < training.ema.size(); ++i) {
            QCOMPARE(reread->ema[i].first, training.ema[i].first);
            QVERIFY(reread->ema[i].second.equal(training.ema[i].second));
            QVERIFY(reread->model[i].second.equal(training.model[i].second));
        }

        // The trained file's names and image size survive the import.
        const auto meta = readCheckpointMeta(imported).value();
        QCOMPARE(meta.names, (std::vector<std::string>{"circle", "square", "triangle", "star"}));
        QCOMPARE(meta.imgsz, 320);
    }

    void predictsWhatUltralyticsPredicts_data() {
        QTest::addColumn<QString>("weights");
        QTest::addColumn<QString>("predictions");
        QTest::addColumn<bool>("endToEnd");
        QTest::newRow("yolov8n") << QString::fromStdString(kTrained + "yolov8n-shapes-best.pt")
                                 << QString::fromStdString(kTrained + "predictions.json") << false;
        QTest::newRow("yolo26n one-to-many + NMS")
            << QString::fromStdString(kYolo26 + "yolo26n-shapes-best.pt")
            << QString::fromStdString(kYolo26 + "predictions.json") << false;
        QTest::newRow("yolo26n end to end (nms=false)")
            << QString::fromStdString(kYolo26 + "yolo26n-shapes-best.pt")
            << QString::fromStdString(kYolo26 + "predictions-e2e.json") << true;
    }
    void predictsWhatUltralyticsPredicts() {
        QFETCH(QString, weights);
        QFETCH(QString, predictions);
        QFETCH(bool, endToEnd);
        OSPREY_REQUIRE_FIXTURE(weights.toStdString());
        auto predictor = Predictor::load(test::fixture(weights.toStdString())).value();
        QFile file(QString::fromStdString(test::fixture(predictions.toStdString()).string()));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject images =
            QJsonDocument::fromJson(file.readAll()).object().value("images").toObject();
        QCOMPARE(images.size(), 20);
        NmsOptions nms;
        nms.confThreshold = 0.25F;
        nms.iouThreshold = 0.7F;
        nms.branch = endToEnd ? HeadBranch::OneToOne : HeadBranch::OneToMany;
        int matched = 0;
        double worstIou = 1, worstConf = 0;
        for (auto it = images.begin(); it != images.end(); ++it) {
            const auto path = test::fixture(kTrained + "shapes13/images/val/" + it.key().toStdString());
            auto image = imaging::decodeImage(path);
            QVERIFY2(image, image ? "" : image.message().c_str());
            const ImageView view{image->pixels.data(), image->width, image->height};
            const auto found = predictor.predict({view}, 320, nms).value().at(0);
            const QJsonArray reference = it.value().toArray();
            QCOMPARE(static_cast<qsizetype>(found.size()), reference.size());
            for (int i = 0; i < reference.size(); ++i) {
                const QJsonObject want = reference[i].toObject();
                const QJsonArray box = want.value("xyxy").toArray();
                const Detection& got = found[static_cast<size_t>(i)];
                QCOMPARE(got.classId, want.value("cls").toInt());
                const double iou =
                    boxIou(got, box[0].toDouble(), box[1].toDouble(), box[2].toDouble(), box[3].toDouble());
                worstIou = std::min(worstIou, iou);
                worstConf = std::max(worstConf, std::abs(got.score - want.value("conf").toDouble()));
                ++matched;
            }
        }
        qInfo("%d detections matched; worst IoU %.5f, worst |dconf| %.5f", matched, worstIou, worstConf);
        QVERIFY(matched > 0);
        QVERIFY(worstIou >= 0.99);
        QVERIFY(worstConf <= 0.005);
        // The NMS-free head is YOLO26's only.
        if (!endToEnd && weights.contains("yolov8")) {
            nms.branch = HeadBranch::OneToOne;
            auto image =
                imaging::decodeImage(test::fixture(kTrained + "shapes13/images/val/val_00000.jpg")).value();
            const auto refused =
                predictor.predict({ImageView{image.pixels.data(), image.width, image.height}}, 320, nms);
            QVERIFY(!refused);
            QVERIFY2(refused.message().find("nms=false is for YOLO26") != std::string::npos,
                     refused.message().c_str());
        }
    }

    void refusesHostilePickles_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("says");
        QTest::newRow("os.system") << QByteArray("\x80\x02"
                                                 "cos\nsystem\nq\x00X\x02\x00\x00\x00lsq\x01\x85q\x02R.",
                                                 28)
                                   << "unsafe"
                                   << "os.system";
        QTest::newRow("builtins.eval") << QByteArray("\x80\x02"
                                                     "c__builtin__\neval\nX\x01\x00\x00\x00"
                                                     "1\x85R.",
                                                     30)
                                       << "unsafe"
                                       << "__builtin__.eval";
        QTest::newRow("recursive list") << QByteArray("\x80\x02]q\x00h\x00"
                                                      "a.",
                                                      8)
                                        << "corrupt"
                                        << "recursive";
        QTest::newRow("recursive dict")
            << QByteArray("\x80\x02}q\x00X\x01\x00\x00\x00kh\x00s.", 15) << "corrupt"
            << "recursive";
        // fuzz_pickle: a dict key holding the dict (a tuple key) made a cycle the check did not see.
        QTest::newRow("recursive dict key") << QByteArray("}q\x00(h\x00\x85Nu.", 10) << "corrupt"
                                            << "recursive";
        QTest::newRow("2^31 string") << QByteArray("\x80\x02X\x00\x00\x00\x80"
                                                   "abc.",
                                                   10)
                                     << "truncated"
                                     << "2147483648";
        QTest::newRow("unknown opcode") << QByteArray("\x80\x02I1\n.", 6) << "unsupported"
                                        << "opcode 0x49";
        QTest::newRow("undefined memo") << QByteArray("\x80\x02h\x07.", 5) << "corrupt"
                                        << "memo entry 7";
        QTest::newRow("no STOP") << QByteArray("\x80\x02]", 3) << "corrupt"
                                 << "without STOP";
        QTest::newRow("huge LONG1") << QByteArray("\x80\x02\x8a\x09"
                                                  "123456789.",
                                                  14)
                                    << "corrupt"
                                    << "9 bytes";
    }
    void refusesHostilePickles() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, code);
        QFETCH(QString, says);
        const auto parsed =
            pickle::read(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())), "evil.pt");
        QVERIFY(!parsed);
        QCOMPARE(QString::fromStdString(parsed.error().code), code);
        QVERIFY2(parsed.message().find(says.toStdString()) != std::string::npos, parsed.message().c_str());
        QVERIFY(parsed.message().starts_with("evil.pt"));
    }

    void refusesDeepNesting() {
        std::string bytes = "\x80\x02";
        for (int i = 0; i < 400; ++i)
            bytes += "]q" + std::string(1, static_cast<char>(i % 200)); // 400 lists, each memoised
        for (int i = 0; i < 399; ++i)
            bytes += "a";
        bytes += ".";
        const auto parsed = pickle::read(bytes, "deep.pt");
        QVERIFY(!parsed);
        QVERIFY2(parsed.message().find("nested deeper") != std::string::npos, parsed.message().c_str());
    }

    void explainsWhatItCannotRead() {
        OSPREY_REQUIRE_FIXTURE(kTrained);
        QTemporaryDir dir;
        const fs::path folder(dir.path().toStdString());
        const std::string real = trainedPickle();
        struct Case {
            std::string name, bytes, says;
        };
        const std::vector<Case> cases = {
            {"random.pt", std::string(4096, '\x5a'), "not a weights file"},
            {"nopickle.pt", makeZip({{"x/data/0", "abcd"}}), "without data.pkl"},
            {"truncated.pt", readBytes(test::fixture(kTrained + "yolov8n-shapes-best.pt")).substr(0, 100000),
             "truncated"},
            // A global nobody knows where a tensor belongs.
            {"global.pt", withPickle(replaceAll(real, "_rebuild_tensor_v2\n", "_rebuild_tensor_v9\n")),
             "'model.0.conv.weight' should be a tensor but is a torch._utils._rebuild_tensor_v9"},
            {"segment.pt", withPickle(replaceAll(real, "head\nDetect\n", "head\nSegment\n")), "segmentation"},
            {"segment26.pt", withPickle(replaceAll(real, "head\nDetect\n", "head\nSegment26\n")),
             "a YOLO26 segmentation checkpoint (Segment26 head)"},
            {"relu.pt", withPickle(replaceAll(real, "activation\nSiLU\n", "activation\nReLU\n")),
             "unsupported activation ReLU at 'model.0.act'"},
        };
        for (const auto& c : cases) {
            const fs::path path = folder / c.name;
            writeBytes(path, c.bytes);
            const auto loaded = loadDetector(path);
            QVERIFY2(!loaded, c.name.c_str());
            QVERIFY2(loaded.message().find(c.name) != std::string::npos, loaded.message().c_str());
            QVERIFY2(loaded.message().find(c.says) != std::string::npos, loaded.message().c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestUltralytics)
#include "tst_ultralytics.moc"
