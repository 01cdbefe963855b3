// YOLO26 ONNX files through Osprey's ONNX predictor (issue 30), against what Ultralytics 8.4.190 predicted
// from the same checkpoint (../shared/fixtures/models/ultralytics-trained/yolo26n, 20 val images):
// - Osprey's own one-to-many export, in OpenCV DNN, gives Ultralytics' detections;
// - files Ultralytics exports in the test (its venv; skipped without it), default and nms=False: read when
//   OpenCV DNN runs them, otherwise refused with a message that names the export to use;
// - the same Ultralytics files run in onnxruntime on Osprey's letterboxed input and read by Osprey's
//   decoding (the end-to-end rows with the confidence filter only, no NMS) give Ultralytics' detections.
#include "assist/box_predictor.h"
#include "assist/letterbox_impl.h"
#include "assist/output_layout.h"
#include "export/onnx_export.h"
#include "imaging/image.h"
#include "peer_python.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>

using namespace osprey;
namespace fs = std::filesystem;

namespace {

const fs::path kFixture = OSPREY_SHARED_DIR "/fixtures/models/ultralytics-trained/yolo26n";
const fs::path kImages = OSPREY_SHARED_DIR "/fixtures/models/ultralytics-trained/shapes13/images/val";
const QString kPeer = QStringLiteral(OSPREY_ONNX_PEER);

using Predictions = std::map<std::string, std::vector<assist::Proposal>>;

// predictions.json / predictions-e2e.json: per image, class, confidence (5 decimals), xyxy (3 decimals).
Predictions readPredictions(const fs::path& file) {
    QFile in(QString::fromStdString(file.string()));
    if (!in.open(QIODevice::ReadOnly))
        throw std::runtime_error("cannot read " + file.string());
    const auto images = QJsonDocument::fromJson(in.readAll()).object().value("images").toObject();
    Predictions out;
    for (auto it = images.begin(); it != images.end(); ++it) {
        auto& list = out[it.key().toStdString()];
        for (const auto& value : it.value().toArray()) {
            const auto object = value.toObject();
            const auto box = object.value("xyxy").toArray();
            list.push_back({static_cast<float>(box[0].toDouble()), static_cast<float>(box[1].toDouble()),
                            static_cast<float>(box[2].toDouble()), static_cast<float>(box[3].toDouble()),
                            static_cast<float>(object.value("conf").toDouble()),
                            object.value("cls").toInt()});
        }
    }
    return out;
}

float iou(const assist::Proposal& a, const assist::Proposal& b) {
    const float w = std::max(0.0f, std::min(a.x2, b.x2) - std::max(a.x1, b.x1));
    const float h = std::max(0.0f, std::min(a.y2, b.y2) - std::max(a.y1, b.y1));
    const float inter = w * h;
    const float sum = (a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1);
    return sum - inter > 0 ? inter / (sum - inter) : 0.0f;
}

// Each of Ultralytics' detections paired with an unused one of Osprey's of the same class, highest IoU.
struct Agreement {
    int ultralytics = 0, osprey = 0, paired = 0;
    float minIou = 1, maxScoreDiff = 0, maxCornerPx = 0;
    void add(const std::vector<assist::Proposal>& expected, const std::vector<assist::Proposal>& actual) {
        ultralytics += static_cast<int>(expected.size());
        osprey += static_cast<int>(actual.size());
        std::vector<bool> used(actual.size(), false);
        for (const auto& e : expected) {
            int best = -1;
            float bestIou = 0;
            for (size_t j = 0; j < actual.size(); ++j)
                if (!used[j] && actual[j].classIndex == e.classIndex && iou(e, actual[j]) > bestIou) {
                    bestIou = iou(e, actual[j]);
                    best = static_cast<int>(j);
                }
            if (best < 0) {
                minIou = 0;
                continue;
            }
            const auto& a = actual[static_cast<size_t>(best)];
            used[static_cast<size_t>(best)] = true;
            ++paired;
            minIou = std::min(minIou, bestIou);
            maxScoreDiff = std::max(maxScoreDiff, std::abs(a.score - e.score));
            for (const float d : {a.x1 - e.x1, a.y1 - e.y1, a.x2 - e.x2, a.y2 - e.y2})
                maxCornerPx = std::max(maxCornerPx, std::abs(d));
        }
    }
    std::string text() const {
        char line[200];
        std::snprintf(line, sizeof line,
                      "%d Ultralytics detections, %d Osprey, %d paired; min IoU %.5f, max |score diff| "
                      "%.2e, max corner diff %.3f px",
                      ultralytics, osprey, paired, minIou, maxScoreDiff, maxCornerPx);
        return line;
    }
    // The recorded figures are rounded to 5 decimals (scores) and 3 (pixels); the rest is float32 noise.
    bool same() const {
        return paired == ultralytics && osprey == ultralytics && ultralytics > 0 && minIou >= 0.99f &&
               maxScoreDiff <= 1e-4f && maxCornerPx <= 0.01f;
    }
};

int runPeer(const QString& python, const QStringList& arguments, QString* output) {
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(python, QStringList{kPeer} + arguments);
    if (!process.waitForFinished(300000)) {
        process.kill();
        process.waitForFinished(2000);
        *output = "timed out";
        return -1;
    }
    *output = QString::fromUtf8(process.readAll());
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

std::vector<std::string> imageNames(const Predictions& predictions) {
    std::vector<std::string> names;
    for (const auto& [name, list] : predictions)
        names.push_back(name);
    return names;
}

} // namespace

class TestOnnxUltralytics : public QObject {
    Q_OBJECT

    QString m_python, m_whyNoPeer;
    QTemporaryDir m_dir;
    fs::path folder() const { return m_dir.path().toStdString(); }

    /// Ultralytics' exports of the fixture, made once (default.onnx, e2e.onnx).
    QString ultralyticsExports() {
        if (!m_whyNoPeer.isEmpty() || fs::exists(folder() / "e2e.onnx"))
            return m_whyNoPeer;
        if (m_python.isEmpty())
            return m_whyNoPeer = "no Python with ultralytics (set OSPREY_ULTRALYTICS_PYTHON or make "
                                 "~/.cache/osprey/ultralytics-venv; docs/weights.md); skipping";
        // Ultralytics writes beside the weights: export from a copy in the temporary folder.
        fs::copy_file(kFixture / "yolo26n-shapes-best.pt", folder() / "yolo26n.pt");
        fs::permissions(folder() / "yolo26n.pt", fs::perms::owner_write, fs::perm_options::add);
        QString output;
        if (runPeer(m_python,
                    {"export", QString::fromStdString((folder() / "yolo26n.pt").string()), m_dir.path()},
                    &output) != 0)
            return m_whyNoPeer = "Ultralytics cannot export here: " + output.right(400);
        return {};
    }

private slots:
    void initTestCase() {
        if (!fs::exists(kFixture / "yolo26n-shapes-best.pt") || !fs::exists(kImages / "val_00000.jpg"))
            QSKIP("../shared/fixtures/models/ultralytics-trained (yolo26n, shapes13) is absent");
        QVERIFY(m_dir.isValid());
        m_python = test::ultralyticsPython();
    }

    void ospreysExportPredictsLikeUltralytics() {
        // The default head: one-to-many + NMS (conf 0.25, iou 0.7), in OpenCV DNN.
        exporter::OnnxExportOptions options;
        options.imgsz = 320;
        options.out = folder() / "osprey-o2m.onnx";
        const auto report = exporter::exportOnnx(kFixture / "yolo26n-shapes-best.pt", options);
        QVERIFY2(report, report ? "" : report.message().c_str());
        auto predictor = assist::BoxPredictor::open({options.out});
        QVERIFY2(predictor, predictor ? "" : predictor.message().c_str());
        const auto expected = readPredictions(kFixture / "predictions.json");
        QCOMPARE(expected.size(), size_t(20));
        Agreement agreement;
        for (const auto& name : imageNames(expected)) {
            const auto image = imaging::decodeImage(kImages / name);
            QVERIFY2(image, name.c_str());
            const auto detections = (*predictor)->predict(*image, {});
            QVERIFY2(detections, detections ? "" : detections.message().c_str());
            agreement.add(expected.at(name), *detections);
        }
        qInfo("Osprey's one-to-many export in OpenCV DNN vs Ultralytics' predict: %s",
              agreement.text().c_str());
        QVERIFY2(agreement.same(), agreement.text().c_str());

        // Its end-to-end export needs TopK, which OpenCV 4.6 lacks: refused, naming the export to use.
        options.nms = false;
        options.out = folder() / "osprey-e2e.onnx";
        QVERIFY(exporter::exportOnnx(kFixture / "yolo26n-shapes-best.pt", options));
        const auto refused = assist::BoxPredictor::open({options.out});
        QVERIFY(!refused);
        qInfo("%s", refused.message().c_str());
        QCOMPARE(refused.error().code, std::string("unsupported"));
        QVERIFY2(refused.message().find("end-to-end") != std::string::npos, refused.message().c_str());
        QVERIFY(refused.message().find("osprey-cli model export weights=X.pt (nms=true") !=
                std::string::npos);
    }

    void ultralyticsExportsAreReadOrRefusedWithTheExportToUse() {
        if (const auto why = ultralyticsExports(); !why.isEmpty())
            QSKIP(qPrintable(why));
        const auto checkRefusal = [](const Expected<std::unique_ptr<assist::BoxPredictor>>& opened,
                                     const char* expectedAdvice) {
            QVERIFY(!opened);
            qInfo("%s", opened.message().c_str());
            QCOMPARE(opened.error().code, std::string("unsupported"));
            QVERIFY2(opened.message().find(expectedAdvice) != std::string::npos, opened.message().c_str());
            QVERIFY(opened.message().find("osprey-cli model export weights=X.pt") != std::string::npos);
        };
        // nms=False: [1, 300, 6] with end2end=True; OpenCV 4.6 cannot run its TopK (nor, without onnxslim,
        // its unsimplified decode), and the metadata says which layout it is.
        const auto endToEnd = assist::BoxPredictor::open({folder() / "e2e.onnx"});
        if (!endToEnd)
            checkRefusal(endToEnd, "end-to-end export (metadata end2end=True");
        else
            QFAIL("OpenCV DNN now imports Ultralytics' end-to-end export: compare it with "
                  "predictions-e2e.json");
        if (QTest::currentTestFailed())
            return;
        // The default: [1, 4+nc, A]. Read as a YOLOv8 file is when OpenCV imports it (opset 12, simplified
        // by onnxslim); otherwise (this Ultralytics picks opset 18 for torch 2.15, and onnxslim may be
        // missing) refused with the re-export to make.
        auto fallback = assist::BoxPredictor::open({folder() / "default.onnx"});
        if (!fallback) {
            const bool opset = fallback.message().find("opset=12") != std::string::npos;
            checkRefusal(fallback, opset ? "opset=12" : "simplify=True");
            return;
        }
        const auto expected = readPredictions(kFixture / "predictions.json");
        Agreement agreement;
        for (const auto& name : imageNames(expected)) {
            const auto detections = (*fallback)->predict(*imaging::decodeImage(kImages / name), {});
            QVERIFY(detections);
            agreement.add(expected.at(name), *detections);
        }
        qInfo("Ultralytics' default export in OpenCV DNN: %s", agreement.text().c_str());
        QVERIFY2(agreement.same(), agreement.text().c_str());
    }

    void ultralyticsExportsInOnnxRuntimeDecodeLikeUltralytics() {
        if (const auto why = ultralyticsExports(); !why.isEmpty())
            QSKIP(qPrintable(why));
        // Osprey's letterboxed inputs of the 20 images, run in onnxruntime by the peer, read by Osprey.
        const auto expectedO2m = readPredictions(kFixture / "predictions.json");
        const auto expectedE2e = readPredictions(kFixture / "predictions-e2e.json");
        const auto names = imageNames(expectedE2e);
        std::vector<assist::Letterbox> letterboxes;
        {
            std::ofstream inputs(folder() / "inputs.f32", std::ios::binary);
            for (const auto& name : names) {
                const auto image = imaging::decodeImage(kImages / name);
                QVERIFY2(image, name.c_str());
                assist::Letterbox letterbox;
                const auto planes = assist::letterboxPlanar(*image, 320, &letterbox);
                inputs.write(reinterpret_cast<const char*>(planes.data()),
                             static_cast<std::streamsize>(planes.size() * sizeof(float)));
                letterboxes.push_back(letterbox);
            }
        }
        const QString count = QString::number(names.size());
        for (const auto& [file, rows, columns] :
             {std::tuple{"e2e.onnx", 300, 6}, std::tuple{"default.onnx", 8, 2100}}) {
            QString output;
            const auto outFile = folder() / "outputs.f32";
            QVERIFY2(runPeer(m_python,
                             {"run", QString::fromStdString((folder() / file).string()),
                              QString::fromStdString((folder() / "inputs.f32").string()),
                              count + ",3,320,320", QString::fromStdString(outFile.string())},
                             &output) == 0,
                     qPrintable(output.right(1000)));
            std::ifstream in(outFile, std::ios::binary);
            std::vector<float> values(names.size() * static_cast<size_t>(rows * columns));
            in.read(reinterpret_cast<char*>(values.data()),
                    static_cast<std::streamsize>(values.size() * sizeof(float)));
            QVERIFY2(in.gcount() == static_cast<std::streamsize>(values.size() * sizeof(float)),
                     qPrintable(output));
            const bool endToEnd = columns == 6;
            const auto& expected = endToEnd ? expectedE2e : expectedO2m;
            Agreement agreement;
            size_t wouldBeSuppressed = 0;
            for (size_t i = 0; i < names.size(); ++i) {
                const auto detections =
                    assist::detectionsFromOutput(values.data() + i * static_cast<size_t>(rows * columns),
                                                 {1, rows, columns}, letterboxes[i], {}, 4);
                QVERIFY2(detections, detections ? "" : detections.message().c_str());
                agreement.add(expected.at(names[i]), *detections);
                wouldBeSuppressed += detections->size() - assist::suppressOverlaps(*detections, {}).size();
            }
            qInfo(
                "Ultralytics' %s in onnxruntime, read by Osprey, vs Ultralytics' predict: %s (NMS would drop "
                "%zu)",
                file, agreement.text().c_str(), wouldBeSuppressed);
            QVERIFY2(agreement.same(), agreement.text().c_str());
            // The one-to-one head keeps overlapping boxes of one class that NMS would drop, so the comparison
            // tells reading the end-to-end rows as they are from suppressing them.
            if (endToEnd)
                QVERIFY2(wouldBeSuppressed > 0, "no same-class overlaps: the test cannot tell NMS from none");
        }
    }
};

QTEST_GUILESS_MAIN(TestOnnxUltralytics)
#include "tst_onnx_ultralytics.moc"
