// Parity on checkpoints Ultralytics writes in this run (any family, scale, class count): a Python with
// ultralytics (OSPREY_ULTRALYTICS_PYTHON, else ~/.cache/osprey/ultralytics-venv/bin/python; see
// docs/weights.md, "Ultralytics weights") runs reference/ultralytics_fresh.py, which saves yolov8s (nc 80),
// yolo11n (nc 3), yolo11s (nc 5), yolo26n (nc 80) and yolo26s (nc 3) with YOLO.save and records their raw
// outputs (YOLO26: both heads); Osprey loads each .pt and must give the same output within 1e-3 px on boxes
// and 1e-4 on scores. The other way round, Osprey writes YOLO26 checkpoints (the Ultralytics-trained fixture
// read and written back, a fresh yolo26s nc 3 and yolo26n nc 80 with random weights) and
// reference/ultralytics_reads_osprey.py loads them in Ultralytics: the same module tree and state_dict as its
// own, both heads' raw outputs and the predictions of both modes equal Osprey's, fine-tuning takes every
// tensor. Skips with a message where no such Python exists.
#include "../../fixtures.h"
#include "../../peer_python.h"
#include "imaging/image.h"
#include "model/predictor.h"
#include "model/weights_torch_impl.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

using namespace osprey::model;
namespace fs = std::filesystem;

namespace {

std::vector<float> readFloats(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), {});
    std::vector<float> values(bytes.size() / 4);
    std::memcpy(values.data(), bytes.data(), values.size() * 4);
    return values;
}

void writeFloats(const fs::path& path, const torch::Tensor& values) {
    const auto data = values.to(torch::kFloat).contiguous();
    std::ofstream out(path, std::ios::binary);
    out.write(static_cast<const char*>(data.data_ptr()), static_cast<std::streamsize>(data.nbytes()));
}

/// Ultralytics' Python, or empty after QSKIP's message.
QString ultralyticsOrEmpty() {
    const QString python = osprey::test::ultralyticsPython();
    if (python.isEmpty())
        return {};
    QProcess probe;
    probe.start(python, {"-c", "import ultralytics"});
    if (!probe.waitForFinished(120000) || probe.exitCode() != 0)
        return {};
    return python;
}

double iouOf(const Detection& a, const QJsonArray& b) {
    const double x1 = b[2].toDouble(), y1 = b[3].toDouble(), x2 = b[4].toDouble(), y2 = b[5].toDouble();
    const double iw = std::max(0.0, std::min<double>(a.x2, x2) - std::max<double>(a.x1, x1));
    const double ih = std::max(0.0, std::min<double>(a.y2, y2) - std::max<double>(a.y1, y1));
    const double inter = iw * ih;
    return inter / ((a.x2 - a.x1) * (a.y2 - a.y1) + (x2 - x1) * (y2 - y1) - inter);
}

const std::string kTrained = "models/ultralytics-trained/";
const std::string kYolo26 = "models/ultralytics-trained/yolo26n/";

} // namespace

class TestUltralyticsFresh : public QObject {
    Q_OBJECT
private slots:
    void matchesCheckpointsUltralyticsWritesNow() {
        const QString python = ultralyticsOrEmpty();
        if (python.isEmpty())
            QSKIP("no Python with ultralytics (set OSPREY_ULTRALYTICS_PYTHON or make "
                  "~/.cache/osprey/ultralytics-venv; docs/weights.md); skipping");
        torch::set_num_threads(2);
        QTemporaryDir dir;
        QProcess writer;
        writer.start(
            python, {QStringLiteral(OSPREY_TEST_SOURCE_DIR) + "/reference/ultralytics_fresh.py", dir.path()});
        QVERIFY2(writer.waitForFinished(600000), "the Ultralytics script timed out");
        QVERIFY2(writer.exitCode() == 0, writer.readAllStandardError().right(3000).constData());
        qInfo("%s", writer.readAllStandardOutput().trimmed().constData());
        const fs::path folder(dir.path().toStdString());
        std::ifstream cases(folder / "cases.txt");
        std::string line;
        int checked = 0;
        while (std::getline(cases, line)) {
            std::istringstream fields(line);
            std::string name, model;
            int nc = 0, size = 0, rows = 0, anchors = 0;
            fields >> name >> model >> nc >> size >> rows >> anchors;
            CheckpointMeta meta;
            auto detector = loadDetector(folder / (name + ".pt"), &meta);
            QVERIFY2(detector, detector ? "" : detector.message().c_str());
            QCOMPARE(meta.spec.name(), model);
            QCOMPARE(meta.spec.numClasses, nc);
            qInfo("%s: SPPF.cv1 %s", name.c_str(), meta.spec.sppfActivation ? "SiLU" : "no activation");
            auto& network = *detector->impl().model;
            network.eval();
            auto input = readFloats(folder / (name + "-input.f32"));
            auto expected = readFloats(folder / (name + "-output.f32"));
            QCOMPARE(expected.size(), static_cast<size_t>(rows) * anchors);
            torch::NoGradGuard noGrad;
            const auto x = torch::from_blob(input.data(), {1, 3, size, size}).clone();
            const auto y = network.forwardDecoded(x).contiguous();
            QCOMPARE(y.sizes().vec(), (std::vector<std::int64_t>{1, rows, anchors}));
            const auto reference = torch::from_blob(expected.data(), {1, rows, anchors});
            const double boxes = (y.slice(1, 0, 4) - reference.slice(1, 0, 4)).abs().max().item<double>();
            const double scores = (y.slice(1, 4) - reference.slice(1, 4)).abs().max().item<double>();
            qInfo("%s: max |diff| vs Ultralytics: boxes %.2e px, scores %.2e", name.c_str(), boxes, scores);
            QVERIFY2(boxes <= 1e-3 && scores <= 1e-4, name.c_str());
            if (meta.spec.family == Family::Yolo26) {
                // The one-to-one head end to end: [1, 300, 6] by descending score.
                auto e2e = readFloats(folder / (name + "-e2e.f32"));
                QCOMPARE(e2e.size(), size_t{300 * 6});
                const auto one = network.forwardEndToEnd(x, 300).contiguous();
                const auto oneRef = torch::from_blob(e2e.data(), {1, 300, 6});
                const double rankedScores =
                    (one.select(2, 4) - oneRef.select(2, 4)).abs().max().item<double>();
                // The top row's box and class (its score leads the next clearly on random weights too).
                const double topBox =
                    (one[0][0].slice(0, 0, 4) - oneRef[0][0].slice(0, 0, 4)).abs().max().item<double>();
                qInfo("%s: one-to-one vs Ultralytics: scores %.2e, top box %.2e px", name.c_str(),
                      rankedScores, topBox);
                QVERIFY2(rankedScores <= 1e-4, name.c_str());
                QVERIFY2(topBox <= 1e-3 && one[0][0][5].item<double>() == oneRef[0][0][5].item<double>(),
                         name.c_str());
            }
            ++checked;
        }
        QCOMPARE(checked, 5);
    }

    /// YOLO26 checkpoints Osprey writes, in Ultralytics 8.4.190.
    void ultralyticsReadsTheYolo26OspreyWrites() {
        OSPREY_REQUIRE_FIXTURE(kYolo26);
        const QString python = ultralyticsOrEmpty();
        if (python.isEmpty())
            QSKIP("no Python with ultralytics (set OSPREY_ULTRALYTICS_PYTHON or make "
                  "~/.cache/osprey/ultralytics-venv; docs/weights.md); skipping");
        torch::set_num_threads(2);
        QTemporaryDir dir;
        const fs::path folder(dir.path().toStdString());

        // Osprey writes: the trained fixture read and written back; fresh networks with random weights and
        // random BatchNorm statistics (every layer matters).
        struct Case {
            std::string name, model;
            int nc = 0, size = 320;
            bool predict = false;
        };
        const std::vector<Case> cases = {{"trained-yolo26n", "yolo26n", 4, 320, true},
                                         {"yolo26s-nc3", "yolo26s", 3},
                                         {"yolo26n-nc80", "yolo26n", 80}};
        const auto imported = importWeights(osprey::test::fixture(kYolo26 + "yolo26n-shapes-best.pt"),
                                            folder / "trained-yolo26n.pt");
        QVERIFY2(imported, imported ? "" : imported.message().c_str());
        fs::copy_file(osprey::test::fixture(kYolo26 + "raw-input.f32"), folder / "trained-yolo26n-input.f32");
        torch::manual_seed(26);
        for (const Case& c : cases) {
            if (c.name == "trained-yolo26n")
                continue;
            auto fresh = Detector::create(parseModelName(c.model, c.nc).value()).value();
            torch::NoGradGuard noGrad;
            for (auto& module : fresh.impl().model->modules())
                if (auto* bn = dynamic_cast<torch::nn::BatchNorm2dImpl*>(module.get())) {
                    bn->running_mean.uniform_(-0.5, 0.5);
                    bn->running_var.uniform_(0.5, 2.0);
                    bn->weight.uniform_(0.5, 1.5);
                    bn->bias.uniform_(-0.2, 0.2);
                }
            CheckpointMeta meta;
            meta.spec = fresh.spec();
            QVERIFY(saveWeights(fresh, meta, folder / (c.name + ".pt")));
            writeFloats(folder / (c.name + "-input.f32"), torch::rand({1, 3, c.size, c.size}));
        }

        // Ultralytics reads them.
        const fs::path data = folder / "shapes13";
        fs::copy(osprey::test::fixture(kTrained + "shapes13"), data, fs::copy_options::recursive);
        fs::permissions(data, fs::perms::owner_all, fs::perm_options::add);
        for (const auto& entry : fs::recursive_directory_iterator(data))
            fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
        std::ofstream(data / "data.yaml") << "path: " << data.string()
                                          << "\ntrain: images/train\nval: images/val\nnames:\n  0: circle\n"
                                             "  1: square\n  2: triangle\n  3: star\n";
        QJsonArray images;
        std::vector<fs::path> imagePaths;
        for (int i = 0; i < 20; ++i) {
            char file[32];
            std::snprintf(file, sizeof file, "val_%05d.jpg", i);
            imagePaths.push_back(data / "images" / "val" / file);
            images.append(QString::fromStdString(imagePaths.back().string()));
        }
        QJsonArray caseList;
        for (const Case& c : cases) {
            QJsonObject entry{{"name", QString::fromStdString(c.name)},
                              {"pt", QString::fromStdString((folder / (c.name + ".pt")).string())},
                              {"input", QString::fromStdString((folder / (c.name + "-input.f32")).string())},
                              {"size", c.size},
                              {"predict", c.predict}};
            if (c.predict) {
                entry["reference"] = QString::fromStdString(
                    osprey::test::fixture(kYolo26 + "yolo26n-shapes-best.pt").string());
                entry["finetune"] = 0.25;
            }
            if (c.nc == 80)
                entry["names_tsv"] = QString::fromStdString(
                    osprey::test::fixture("models/ultralytics-names/" + c.model + "-nc80.tsv").string());
            caseList.append(entry);
        }
        const QJsonObject config{
            {"imgsz", 320},      {"conf", 0.25},
            {"iou", 0.7},        {"images", images},
            {"cases", caseList}, {"data", QString::fromStdString((data / "data.yaml").string())}};
        const fs::path configPath = folder / "config.json", outPath = folder / "reference.json";
        std::ofstream(configPath) << QJsonDocument(config).toJson().toStdString();
        QProcess script;
        script.setWorkingDirectory(dir.path());
        script.start(python,
                     {QStringLiteral(OSPREY_TEST_SOURCE_DIR) + "/reference/ultralytics_reads_osprey.py",
                      QString::fromStdString(configPath.string()), QString::fromStdString(outPath.string())});
        QVERIFY2(script.waitForFinished(900000), "the Ultralytics script timed out");
        QVERIFY2(script.exitCode() == 0, script.readAllStandardError().right(3000).constData());
        qInfo("Ultralytics: %s", script.readAllStandardOutput().trimmed().constData());
        QFile file(QString::fromStdString(outPath.string()));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject reference = QJsonDocument::fromJson(file.readAll()).object()["cases"].toObject();

        for (const Case& c : cases) {
            const QJsonObject got = reference[QString::fromStdString(c.name)].toObject();
            const QString label = QString::fromStdString(c.name) + ": ";
            const auto json = [](const QJsonValue& v) {
                return QString::fromUtf8(v.isArray()
                                             ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)
                                             : QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
            };
            QVERIFY2(!got.contains("error"), qPrintable(label + got["error"].toString()));
            QVERIFY2(got["load_warnings"].toArray().isEmpty(),
                     qPrintable(label + json(got["load_warnings"])));
            QCOMPARE(got["safe_load"].toString(), QString("ok"));
            QVERIFY2(got["unknown_train_args"].toArray().isEmpty(),
                     qPrintable(label + json(got["unknown_train_args"])));
            QCOMPARE(got["task"].toString(), QString("detect"));
            QCOMPARE(got["names"].toObject().size(), c.nc);
            // Module by module, what Ultralytics' own build of the same YAML has (and, for the trained
            // network, what Ultralytics' own best.pt of it has); the head as yolo26.yaml makes it.
            QVERIFY2(got["structure_diff"].toArray().isEmpty(),
                     qPrintable(label + json(got["structure_diff"])));
            if (c.predict)
                QVERIFY2(got["reference_diff"].toArray().isEmpty(),
                         qPrintable(label + json(got["reference_diff"])));
            const QJsonObject head = got["head"].toObject();
            QCOMPARE(head["class"].toString(), QString("Detect"));
            QCOMPARE(head["reg_max"].toInt(), 1);
            QCOMPARE(head["no"].toInt(), c.nc + 4);
            QCOMPARE(head["dfl"].toString(), QString("Identity"));
            QVERIFY(head["one2one"].toBool());
            QVERIFY(!head["end2end"].toBool()); // 8.4.190's default: one-to-many + NMS
            QCOMPARE(head["max_det"].toInt(), 300);
            const QJsonObject sppf = got["sppf"].toObject();
            QCOMPARE(sppf["n"].toInt(), 3);
            QVERIFY(sppf["add"].toBool());
            QCOMPARE(sppf["cv1_act"].toString(), QString("Identity"));
            QVERIFY2(got["yaml_as_ultralytics"].toBool(), qPrintable(label + json(got["yaml_differs"])));
            const QJsonObject yaml = got["yaml"].toObject();
            QVERIFY(yaml["end2end"].toBool());
            QCOMPARE(yaml["reg_max"].toInt(), 1);
            QCOMPARE(yaml["nc"].toInt(), c.nc);
            QCOMPARE(yaml["scale"].toString(), QString(c.model.back()));
            QCOMPARE(yaml["yaml_file"].toString(), QString::fromStdString(c.model + ".yaml"));
            QCOMPARE(yaml["channels"].toInt(), 3);
            QCOMPARE(json(got["stride"]), QString("[8,16,32]"));
            // Its state_dict is the one Ultralytics builds (and lists in the names fixture), and fine-tuning
            // takes every tensor.
            const QJsonObject state = got["state_dict"].toObject();
            QVERIFY2(state["same_as_fresh"].toBool(), qPrintable(label + json(state)));
            if (c.nc == 80)
                QVERIFY2(state["same_as_tsv"].toBool(), qPrintable(label + json(state)));
            const QString transferred = got["transferred"].toArray().first().toString();
            const auto counts = QRegularExpression("Transferred (\\d+)/(\\d+)").match(transferred);
            QVERIFY2(counts.hasMatch() && counts.captured(1) == counts.captured(2), qPrintable(transferred));
            QCOMPARE(counts.captured(2).toInt(), state["entries"].toInt());
            if (got.contains("finetune")) {
                const QJsonObject finetune = got["finetune"].toObject();
                QVERIFY(finetune["ok"].toBool());
                const QString tuned = finetune["transferred"].toArray().first().toString();
                const auto tunedCounts = QRegularExpression("Transferred (\\d+)/(\\d+)").match(tuned);
                QVERIFY2(tunedCounts.hasMatch() && tunedCounts.captured(1) == tunedCounts.captured(2),
                         qPrintable(tuned));
            }

            // Both heads' raw outputs on the same input as Osprey's, from the file Osprey wrote.
            CheckpointMeta meta;
            auto detector = loadDetector(folder / (c.name + ".pt"), &meta);
            QVERIFY2(detector, detector ? "" : detector.message().c_str());
            auto& network = *detector->impl().model;
            network.eval();
            auto input = readFloats(folder / (c.name + "-input.f32"));
            const auto x = torch::from_blob(input.data(), {1, 3, c.size, c.size}).clone();
            torch::NoGradGuard noGrad;
            const auto many = network.forwardDecoded(x).contiguous();
            auto manyValues = readFloats(folder / (c.name + "-o2m.f32"));
            QCOMPARE(json(got["default_output_shape"]), QString("[1,%1,%2]").arg(c.nc + 4).arg(many.size(2)));
            QCOMPARE(manyValues.size(), static_cast<size_t>(many.numel()));
            const auto manyRef = torch::from_blob(manyValues.data(), many.sizes());
            const double boxes = (many.slice(1, 0, 4) - manyRef.slice(1, 0, 4)).abs().max().item<double>();
            const double scores = (many.slice(1, 4) - manyRef.slice(1, 4)).abs().max().item<double>();
            const auto one = network.forwardEndToEnd(x, 300).contiguous();
            auto oneValues = readFloats(folder / (c.name + "-e2e.f32"));
            QCOMPARE(json(got["e2e_output_shape"]), QString("[1,300,6]"));
            QCOMPARE(oneValues.size(), size_t{300 * 6});
            const auto oneRef = torch::from_blob(oneValues.data(), {1, 300, 6});
            // Rows are ranked by score: where two scores tie to float precision the order may differ, so the
            // scores are compared row by row, boxes and classes where the ranking is clear (a gap to both
            // neighbours of more than twice the largest score difference).
            const double rankedScores = (one.select(2, 4) - oneRef.select(2, 4)).abs().max().item<double>();
            const double gap = 2 * rankedScores;
            double rankedBoxes = 0;
            int clear = 0;
            for (int row = 0; row < 300; ++row) {
                const double score = oneRef[0][row][4].item<double>();
                if ((row > 0 && oneRef[0][row - 1][4].item<double>() - score <= gap) ||
                    (row < 299 && score - oneRef[0][row + 1][4].item<double>() <= gap))
                    continue;
                QCOMPARE(one[0][row][5].item<double>(), oneRef[0][row][5].item<double>());
                rankedBoxes = std::max(
                    rankedBoxes,
                    (one[0][row].slice(0, 0, 4) - oneRef[0][row].slice(0, 0, 4)).abs().max().item<double>());
                ++clear;
            }
            qInfo("%s: Ultralytics on Osprey's file vs Osprey: one-to-many boxes %.2e px, scores %.2e; "
                  "one-to-one scores %.2e, boxes %.2e px (%d clearly ranked rows)",
                  c.name.c_str(), boxes, scores, rankedScores, rankedBoxes, clear);
            QVERIFY2(boxes <= 1e-3 && scores <= 1e-4, c.name.c_str());
            QVERIFY2(rankedScores <= 1e-4 && rankedBoxes <= 1e-3, c.name.c_str());
            QVERIFY(clear >= 20);

            if (!c.predict)
                continue;
            // The same detections in both modes as Osprey's predictor on the same file.
            auto predictor = Predictor::load(folder / (c.name + ".pt")).value();
            for (const bool endToEnd : {false, true}) {
                NmsOptions nms;
                nms.confThreshold = 0.25F;
                nms.iouThreshold = 0.7F;
                nms.branch = endToEnd ? HeadBranch::OneToOne : HeadBranch::OneToMany;
                const QJsonArray predicted = got[endToEnd ? "predict_e2e" : "predict"].toArray();
                QCOMPARE(predicted.size(), static_cast<qsizetype>(imagePaths.size()));
                int matched = 0;
                double worstIou = 1, worstConf = 0;
                for (size_t i = 0; i < imagePaths.size(); ++i) {
                    auto image = osprey::imaging::decodeImage(imagePaths[i]).value();
                    const ImageView view{image.pixels.data(), image.width, image.height};
                    const auto found = predictor.predict({view}, 320, nms).value().at(0);
                    const QJsonArray want = predicted[static_cast<qsizetype>(i)].toArray();
                    QCOMPARE(static_cast<qsizetype>(found.size()), want.size());
                    for (qsizetype k = 0; k < want.size(); ++k) {
                        const QJsonArray box = want[k].toArray();
                        const Detection& d = found[static_cast<size_t>(k)];
                        QCOMPARE(d.classId, box[0].toInt());
                        worstIou = std::min(worstIou, iouOf(d, box));
                        worstConf = std::max(worstConf, std::abs(d.score - box[1].toDouble()));
                        ++matched;
                    }
                }
                qInfo("%s %s: %d detections matched; worst IoU %.5f, worst |dconf| %.2e", c.name.c_str(),
                      endToEnd ? "nms=False (one-to-one)" : "default (one-to-many + NMS)", matched, worstIou,
                      worstConf);
                QVERIFY(matched >= 20);
                QVERIFY(worstIou >= 0.999);
                QVERIFY(worstConf <= 1e-4);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestUltralyticsFresh)
#include "tst_ultralytics_fresh.moc"
