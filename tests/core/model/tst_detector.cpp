// The detector networks: Ultralytics state_dict names and shapes, parameter counts and GFLOPs from the
// recipe, forward layouts in both modes, and Conv+BN fusion.
#include "model/detector_impl.h"

#include "fixtures.h"
#include "model_figures.h"

#include <QtTest>

#include <fstream>
#include <sstream>

using namespace osprey::model;

namespace {

ModelSpec spec(const std::string& name, int nc = 80) {
    return parseModelName(name, nc).value();
}

std::string shapeText(const std::vector<std::int64_t>& shape) {
    if (shape.empty())
        return "scalar";
    std::string text;
    for (size_t i = 0; i < shape.size(); ++i)
        text += (i ? "x" : "") + std::to_string(shape[i]);
    return text;
}

} // namespace

class TestDetector : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { torch::set_num_threads(2); }

    void parsesModelNames() {
        QCOMPARE(spec("yolov8n").name(), std::string("yolov8n"));
        QCOMPARE(spec("YOLO11x.pt").name(), std::string("yolo11x"));
        QVERIFY(spec("yolo11m").family == Family::Yolo11);
        QVERIFY(!parseModelName("yolov5s"));
        QVERIFY(!parseModelName("yolov8q"));
        QVERIFY(!parseModelName("yolov8n", 0));
    }

    void matchesUltralyticsStateDict_data() {
        QTest::addColumn<QString>("model");
        for (const char* name : {"yolov8n", "yolov8s", "yolo11n", "yolo11s"})
            QTest::newRow(name) << QString(name);
    }
    void matchesUltralyticsStateDict() {
        QFETCH(QString, model);
        const std::string file = "models/ultralytics-names/" + model.toStdString() + "-nc80.tsv";
        OSPREY_REQUIRE_FIXTURE(file);
        std::ifstream in(osprey::test::fixture(file));
        std::string line;
        std::getline(in, line);
        QCOMPARE(line, std::string("name\tshape"));
        std::vector<std::pair<std::string, std::string>> expected;
        while (std::getline(in, line)) {
            const auto tab = line.find('\t');
            expected.emplace_back(line.substr(0, tab), line.substr(tab + 1));
        }
        auto detector = Detector::create(spec(model.toStdString()));
        QVERIFY(detector);
        const auto entries = detector->stateDictEntries();
        QCOMPARE(entries.size(), expected.size());
        for (size_t i = 0; i < entries.size(); ++i) {
            QCOMPARE(entries[i].name, expected[i].first);
            QCOMPARE(shapeText(entries[i].shape), expected[i].second);
        }
    }

    void parameterCountsAndGflops_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qlonglong>("params");
        QTest::addColumn<double>("gflops");
        for (const auto& figures : osprey::test::kModelFigures)
            if (figures.small)
                QTest::newRow(figures.name)
                    << QString(figures.name) << static_cast<qlonglong>(figures.params) << figures.gflops;
    }
    void parameterCountsAndGflops() {
        QFETCH(QString, model);
        QFETCH(qlonglong, params);
        QFETCH(double, gflops);
        QElapsedTimer timer;
        timer.start();
        auto detector = Detector::create(spec(model.toStdString()));
        QVERIFY(detector);
        QCOMPARE(static_cast<qlonglong>(detector->parameterCount()), params);
        QCOMPARE(static_cast<qlonglong>(detector->gradientCount()), params - 16);
        const auto measured = detector->gflops(640);
        QVERIFY(measured);
        qInfo("%s: %lld params, %.3f GFLOPs, %lld ms", qPrintable(model),
              static_cast<long long>(detector->parameterCount()), *measured,
              static_cast<long long>(timer.elapsed()));
        QCOMPARE(std::round(*measured * 10) / 10, gflops);
    }
};

QTEST_GUILESS_MAIN(TestDetector)
#include "tst_detector.moc"
