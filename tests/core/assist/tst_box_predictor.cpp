// BoxPredictor sources on the shared fixtures: the Darknet yolo-fastest-1.1 COCO model, ONNX errors.
#include "assist/box_predictor.h"
#include "fixtures.h"

#include <QtTest>

#include <cstdio>
#include <set>

using namespace osprey;
using namespace osprey::assist;

class TestBoxPredictor : public QObject {
    Q_OBJECT
private slots:
    void namesMetadata() {
        const auto names = parseNamesMetadata("{0: 'person', 1: \"bicycle\", 2: 'traffic light'}");
        QCOMPARE(names, (std::vector<std::string>{"person", "bicycle", "traffic light"}));
        QVERIFY(parseNamesMetadata("{1: 'a'}").empty());
    }

    void darknetFindsCocoObjects() {
        OSPREY_REQUIRE_FIXTURE("models/yolo-fastest-1.1/yolo-fastest-1.1.weights");
        OSPREY_REQUIRE_FIXTURE("models/fastestdet/images");
        const auto dir = test::fixture("models/yolo-fastest-1.1");
        auto predictor = BoxPredictor::open(
            {dir / "yolo-fastest-1.1.cfg", dir / "yolo-fastest-1.1.weights", dir / "coco.names", "cpu"});
        QVERIFY2(predictor, predictor ? "" : predictor.message().c_str());
        QCOMPARE((*predictor)->names().size(), size_t(80));
        QCOMPARE((*predictor)->inputSize(), 320);
        for (int i = 0; i < 5; ++i) {
            const auto path = test::fixture("models/fastestdet/images/" + std::to_string(i) + ".jpg");
            auto image = imaging::decodeImage(path);
            QVERIFY(image);
            auto proposals = (*predictor)->predict(*image, {});
            QVERIFY2(proposals, proposals ? "" : proposals.message().c_str());
            for (const auto& p : *proposals)
                std::printf("%d.jpg %s %.3f [%.0f %.0f %.0f %.0f]\n", i,
                            (*predictor)->names()[static_cast<size_t>(p.classIndex)].c_str(), p.score, p.x1,
                            p.y1, p.x2, p.y2);
        }
    }

    void unknownKindAndMissingFiles() {
        auto missing = BoxPredictor::open({"/nonexistent/model.onnx", {}, {}, "cpu"});
        QVERIFY(!missing);
        QVERIFY(missing.message().find("/nonexistent/model.onnx") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestBoxPredictor)
#include "tst_box_predictor.moc"
