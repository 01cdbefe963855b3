// Parity on checkpoints Ultralytics writes in this run (any family, scale, class count): a Python with
// ultralytics (OSPREY_ULTRALYTICS_PYTHON, else ~/.cache/osprey/ultralytics-venv/bin/python; see
// docs/weights.md, "Ultralytics weights") runs reference/ultralytics_fresh.py, which saves yolov8s (nc 80),
// yolo11n (nc 3), yolo11s (nc 5), yolo26n (nc 80) and yolo26s (nc 3) with YOLO.save and records their raw
// outputs (YOLO26: both heads); Osprey loads each .pt and must give the same output within 1e-3 px on boxes
// and 1e-4 on scores. Skips with a message where no such Python exists.
#include "../../peer_python.h"
#include "model/weights_torch_impl.h"

#include <QDir>
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

} // namespace

class TestUltralyticsFresh : public QObject {
    Q_OBJECT
private slots:
    void matchesCheckpointsUltralyticsWritesNow() {
        const QString python = osprey::test::ultralyticsPython();
        if (python.isEmpty())
            QSKIP("no Python with ultralytics (set OSPREY_ULTRALYTICS_PYTHON or make "
                  "~/.cache/osprey/ultralytics-venv; docs/weights.md); skipping");
        QProcess probe;
        probe.start(python, {"-c", "import ultralytics"});
        if (!probe.waitForFinished(120000) || probe.exitCode() != 0)
            QSKIP(qPrintable(python + " cannot import ultralytics; skipping"));
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
};

QTEST_GUILESS_MAIN(TestUltralyticsFresh)
#include "tst_ultralytics_fresh.moc"
