// VOC-style AP: the published values of ../shared/fixtures/metrics (README there) read through every
// input notation, plus hand-built cases.
#include "fixtures.h"
#include "formats/eval_reader.h"
#include "metrics/voc_evaluator.h"
#include "metrics_test_util.h"

#include <QtTest>

using namespace osprey::formats;
using namespace osprey::metrics;
using namespace osprey::metrics::test;

namespace {

// The published values have ten decimals.
constexpr double kPublishedTolerance = 1e-9;

double vocAp(const EvalSet& set, double iou, PixelConvention pixels, VocInterpolation interpolation) {
    const auto result = evaluateVoc(set, VocParams{iou, pixels, interpolation});
    if (!result)
        qFatal("%s", result.message().c_str());
    return result->map;
}

EvalSet read(const std::string& truth, const std::string& detections, BoxNotation notation,
             std::vector<std::string> names = {}, int imageSizePx = 0) {
    EvalReadOptions options;
    // The published values come from tools that round relative boxes to whole pixels.
    options.roundNormalizedToPixels = true;
    options.notation = notation;
    options.classNames = std::move(names);
    options.imageWidthPx = options.imageHeightPx = imageSizePx;
    auto set = readEvalSet(osprey::test::fixture(truth), osprey::test::fixture(detections), options);
    if (!set)
        qFatal("%s", set.message().c_str());
    return std::move(*set);
}

} // namespace

class TestVocEvaluator : public QObject {
    Q_OBJECT
private slots:
    void vocCase1PublishedValues() {
        OSPREY_REQUIRE_FIXTURE("metrics/voc_case_1");
        const auto set = read("metrics/voc_case_1/gts", "metrics/voc_case_1/dets", BoxNotation::Xywh);
        QCOMPARE(set.images.size(), size_t(7));
        QCOMPARE(set.classNames, std::vector<std::string>{"object"});
        const auto plusOne = PixelConvention::PlusOne;
        const auto all = VocInterpolation::AllPoints, eleven = VocInterpolation::ElevenPoints;
        QVERIFY(qAbs(vocAp(set, 0.10, plusOne, all) - 0.3371980676) < kPublishedTolerance);
        QVERIFY(qAbs(vocAp(set, 0.30, plusOne, all) - 0.2456866804) < kPublishedTolerance);
        QVERIFY(qAbs(vocAp(set, 0.50, plusOne, all) - 0.0222222222) < kPublishedTolerance);
        QCOMPARE(vocAp(set, 0.75, plusOne, all), 0.0);
        QVERIFY(qAbs(vocAp(set, 0.30, plusOne, eleven) - 0.2683982683) < kPublishedTolerance);
        QVERIFY(qAbs(vocAp(set, 0.50, plusOne, eleven) - 0.0303030303) < kPublishedTolerance);
        QCOMPARE(vocAp(set, 0.75, plusOne, eleven), 0.0);
        // Our documented choice: recall points are floating k * 0.1 (numpy linspace), so a recall of 9/15
        // does not reach 0.6000000000000001 and the published 0.3333333333 comes out (exact k/10 would give
        // 0.3689064559).
        QVERIFY(qAbs(vocAp(set, 0.10, plusOne, eleven) - 0.3333333333) < kPublishedTolerance);
        // Without "+1".
        const auto continuous = PixelConvention::Continuous;
        QVERIFY(qAbs(vocAp(set, 0.10, continuous, all) - 0.2801328502) < kPublishedTolerance);
        QVERIFY(qAbs(vocAp(set, 0.30, continuous, all) - 0.2253968254) < kPublishedTolerance);
    }

    void toyExampleAllNotations_data() {
        QTest::addColumn<QString>("detections");
        QTest::addColumn<int>("notation");
        QTest::addColumn<bool>("ids");
        QTest::newRow("classid_abs_xywh") << "dets_classid_abs_xywh" << int(BoxNotation::Xywh) << true;
        QTest::newRow("classid_abs_xyx2y2") << "dets_classid_abs_xyx2y2" << int(BoxNotation::Xyxy) << true;
        QTest::newRow("classid_rel_xcycwh")
            << "dets_classid_rel_xcycwh" << int(BoxNotation::YoloNormalized) << true;
        QTest::newRow("classname_abs_xywh") << "dets_classname_abs_xywh" << int(BoxNotation::Xywh) << false;
        QTest::newRow("classname_abs_xyx2y2")
            << "dets_classname_abs_xyx2y2" << int(BoxNotation::Xyxy) << false;
        QTest::newRow("classname_rel_xcycwh")
            << "dets_classname_rel_xcycwh" << int(BoxNotation::YoloNormalized) << false;
        QTest::newRow("coco_json") << "dets_coco_format/coco_dets.json" << int(BoxNotation::Xyxy) << false;
    }
    void toyExampleAllNotations() {
        OSPREY_REQUIRE_FIXTURE("metrics/toyexample");
        QFETCH(QString, detections);
        QFETCH(int, notation);
        QFETCH(bool, ids);
        std::vector<std::string> names;
        if (ids) {
            const auto read = readClassNames(osprey::test::fixture("metrics/toyexample/voc.names"));
            QVERIFY(read.hasValue());
            names = *read;
            QCOMPARE(names[7], std::string("cat"));
        }
        const auto set = read("metrics/toyexample/gts_vocpascal_format",
                              "metrics/toyexample/" + detections.toStdString(), BoxNotation(notation), names);
        int truths = 0, found = 0;
        for (const auto& image : set.images) {
            truths += static_cast<int>(image.truths.size());
            found += static_cast<int>(image.detections.size());
        }
        QCOMPARE(truths, 12);
        QCOMPARE(found, 12);
        // The values do not depend on "+1"; check both conventions.
        for (const auto pixels : {PixelConvention::Continuous, PixelConvention::PlusOne}) {
            QVERIFY(qAbs(vocAp(set, 0.5, pixels, VocInterpolation::ElevenPoints) - 0.8863636364) <
                    kPublishedTolerance);
            QVERIFY(qAbs(vocAp(set, 0.5, pixels, VocInterpolation::AllPoints) - 0.8958333333) <
                    kPublishedTolerance);
            QVERIFY(qAbs(vocAp(set, 0.75, pixels, VocInterpolation::ElevenPoints) - 0.4924242424) <
                    kPublishedTolerance);
            QVERIFY(qAbs(vocAp(set, 0.75, pixels, VocInterpolation::AllPoints) - 0.5097222222) <
                    kPublishedTolerance);
        }
    }

    void toyExampleCocoGroundTruth() {
        OSPREY_REQUIRE_FIXTURE("metrics/toyexample");
        const auto set = read("metrics/toyexample/gts_coco_format/toy_example_coco.JSON",
                              "metrics/toyexample/dets_coco_format/coco_dets.json", BoxNotation::Xyxy);
        QVERIFY(qAbs(vocAp(set, 0.5, PixelConvention::Continuous, VocInterpolation::AllPoints) -
                     0.8958333333) < kPublishedTolerance);
        QVERIFY(qAbs(vocAp(set, 0.75, PixelConvention::Continuous, VocInterpolation::ElevenPoints) -
                     0.4924242424) < kPublishedTolerance);
    }

    void odmPublishedValues() {
        OSPREY_REQUIRE_FIXTURE("metrics/odm");
        for (const bool relative : {false, true}) {
            const auto set =
                relative ? read("metrics/odm/groundtruths_rel", "metrics/odm/detections_rel",
                                BoxNotation::YoloNormalized, {}, 200)
                         : read("metrics/odm/groundtruths", "metrics/odm/detections", BoxNotation::Xywh);
            QCOMPARE(set.classNames, std::vector<std::string>{"person"});
            QVERIFY(qAbs(vocAp(set, 0.3, PixelConvention::PlusOne, VocInterpolation::AllPoints) -
                         0.2456866805) < 1e-9);
            // Published rounded to four decimals; the exact value is voc_case_1's 0.2683982683.
            QVERIFY(qAbs(vocAp(set, 0.3, PixelConvention::PlusOne, VocInterpolation::ElevenPoints) - 0.2684) <
                    5e-5);
            QVERIFY(qAbs(vocAp(set, 0.3, PixelConvention::PlusOne, VocInterpolation::ElevenPoints) -
                         0.2683982683) < 1e-9);
        }
    }

    void noFallbackToSecondBestTruth() {
        // G1 = (0,0,10,10), G2 = (3,0,13,10). D1 (0.9) equals G1; D2 (0.8) = (1,0,11,10) overlaps G1 by
        // 90/110 and G2 by 80/120. VOC takes D2's best box, G1, already matched: a false positive (COCO would
        // fall back to G2). Recall 1/2 at precision 1, then 1/2 at 1/2: all-point AP = 0.5 * 1 = 0.5.
        // 11-point: precision 1 at recall points 0..0.5 (six of them), 0 above: 6/11.
        const auto set = oneImage({truth(0, 0, 10, 10), truth(3, 0, 13, 10)},
                                  {detection(0, 0, 10, 10, 0.9), detection(1, 0, 11, 10, 0.8)});
        QCOMPARE(vocAp(set, 0.5, PixelConvention::Continuous, VocInterpolation::AllPoints), 0.5);
        QVERIFY(qAbs(vocAp(set, 0.5, PixelConvention::Continuous, VocInterpolation::ElevenPoints) -
                     6.0 / 11.0) < 1e-12);
        const auto result = evaluateVoc(set);
        QCOMPARE(result->perClass[0].truePositives, 1);
        QCOMPARE(result->perClass[0].falsePositives, 1);
    }

    void noDetectionsAndNoTruth() {
        // Class 0 has a box and no detection: AP 0. Class 1 has a detection and no box: undefined (-1) and
        // left out of the mean, so mAP = 0 (not a mean that includes class 1).
        const auto set = oneImage({truth(0, 0, 10, 10, 0)}, {detection(0, 0, 10, 10, 0.9, 1)}, 2);
        const auto result = evaluateVoc(set);
        QVERIFY(result.hasValue());
        QCOMPARE(result->perClass[0].ap, 0.0);
        QCOMPARE(result->perClass[1].ap, -1.0);
        QCOMPARE(result->map, 0.0);
    }

    void difficultAndPlusOne() {
        // A difficult box matched by the first detection: ignored, not a false positive; the second
        // detection finds the counted box: AP 1.
        auto hard = truth(100, 100, 150, 150);
        hard.ignore = true;
        const auto set = oneImage({hard, truth(0, 0, 10, 10)},
                                  {detection(100, 100, 150, 150, 0.9), detection(0, 0, 10, 10, 0.8)});
        QCOMPARE(vocAp(set, 0.5, PixelConvention::Continuous, VocInterpolation::AllPoints), 1.0);
        // "+1": boxes (0,0,1,1) and (1,1,2,2) touch at one pixel: intersection 1, areas 4, IoU 1/7.
        QCOMPARE(boxIou({0, 0, 1, 1}, {1, 1, 2, 2}, PixelConvention::PlusOne), 1.0 / 7.0);
        QCOMPARE(boxIou({0, 0, 1, 1}, {1, 1, 2, 2}, PixelConvention::Continuous), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestVocEvaluator)
#include "tst_voc_evaluator.moc"
