// COCO-style evaluation: hand-built cases whose answers are derived in the comments, and a comparison
// with the straightforward pycocotools-shaped reference on seeded random data.
#include "coco_reference.h"
#include "metrics/coco_evaluator.h"
#include "metrics_test_util.h"
#include "synthetic_set.h"

#include <QtTest>

using namespace osprey::metrics;
using namespace osprey::metrics::test;

namespace {

enum Stat { AP, AP50, AP75, APs, APm, APl, AR1, AR10, AR100, ARs, ARm, ARl };

CocoResult evaluate(const EvalSet& set) {
    auto result = evaluateCoco(set);
    if (!result)
        qFatal("%s", result.message().c_str());
    return *result;
}

} // namespace

class TestCocoEvaluator : public QObject {
    Q_OBJECT
private slots:
    void perfectDetectionScoresOne() {
        // One 10x10 box (area 100: small) found exactly: every defined number is 1; medium and large have
        // no ground truth and stay -1.
        const auto r = evaluate(oneImage({truth(0, 0, 10, 10)}, {detection(0, 0, 10, 10, 0.9)}));
        for (const Stat s : {AP, AP50, AP75, APs, AR1, AR10, AR100, ARs})
            QCOMPARE(r.stats[s], 1.0);
        for (const Stat s : {APm, APl, ARm, ARl})
            QCOMPARE(r.stats[s], -1.0);
    }

    void noDetectionsScoresZero() {
        // Ground truth but nothing detected: the class is defined, recall 0, precision 0 at every point.
        const auto r = evaluate(oneImage({truth(0, 0, 50, 50)}, {}));
        QCOMPARE(r.stats[AP], 0.0);
        QCOMPARE(r.stats[AR100], 0.0);
        QCOMPARE(r.stats[APm], 0.0); // 2500 px² is medium
        QCOMPARE(r.stats[APs], -1.0);
    }

    void classWithoutTruthIsLeftOut() {
        // Class 0: found exactly (AP 1). Class 1: only a detection, no ground truth, so -1 and not part of
        // the mean. Class 2: nothing at all, -1. The mean is therefore 1, not 1/2 or 1/3.
        const auto r =
            evaluate(oneImage({truth(0, 0, 10, 10, 0)},
                              {detection(0, 0, 10, 10, 0.9, 0), detection(20, 20, 30, 30, 0.8, 1)}, 3));
        QCOMPARE(r.stats[AP], 1.0);
        QCOMPARE(r.classAp(0), 1.0);
        QCOMPARE(r.classAp(1), -1.0);
        QCOMPARE(r.classAp(2), -1.0);
        QCOMPARE(r.recallAt(0, 1, 0, 2), -1.0);
    }

    void crowdTruthIgnoresItsDetections() {
        // A counted box A (large, 100x100) and a crowd region C (200x200). Scores: two detections inside
        // C (0.95, 0.93), then A found exactly (0.9), then a miss far away (0.7).
        // With C a crowd: IoU with a crowd is intersection / detection area = 1, so both detections match
        // C (a crowd may match many) and are ignored. Order: ign, ign, TP, FP -> precision 0,0,1,1/2,
        // envelope 1,1,1,1/2; recall reaches 1 at the TP, so every recall point reads 1: AP = 1.
        // Recall counts only A: AR100 = 1.
        const std::vector<DetectionBox> detections{
            detection(210, 10, 260, 60, 0.95), detection(300, 100, 380, 180, 0.93),
            detection(0, 0, 100, 100, 0.9), detection(500, 500, 520, 520, 0.7)};
        const auto crowd =
            evaluate(oneImage({truth(0, 0, 100, 100), truth(200, 0, 400, 200, 0, true)}, detections));
        QCOMPARE(crowd.stats[AP], 1.0);
        QCOMPARE(crowd.stats[AR100], 1.0);
        // The same region as an ordinary box: the two detections have IoU 2500/40000 and 6400/40000 with it,
        // both below 0.5, so they are false positives: FP, FP, TP (precision 1/3), FP. The envelope is 1/3
        // up to recall 1/2 and at recall 1 (two ground truths, one found: recall stops at 1/2).
        // Recall points 0..0.50 (51 of 101) read 1/3: AP = 51/101/3 at every threshold.
        const auto plain = evaluate(oneImage({truth(0, 0, 100, 100), truth(200, 0, 400, 200)}, detections));
        QVERIFY(qAbs(plain.stats[AP] - 51.0 / 101.0 / 3.0) < 1e-12);
        QCOMPARE(plain.stats[AR100], 0.5);
    }

    void ignoredTruthNeitherCountsNorPenalises() {
        // The ignore flag (VOC difficult) without crowd: one detection matches the ignored box and is
        // ignored; the counted box is found. Exactly like a perfect result.
        auto hard = truth(200, 0, 260, 60);
        hard.ignore = true;
        const auto r = evaluate(oneImage({truth(0, 0, 50, 50), hard},
                                         {detection(200, 0, 260, 60, 0.95), detection(0, 0, 50, 50, 0.9)}));
        QCOMPARE(r.stats[AP], 1.0);
        QCOMPARE(r.stats[AR100], 1.0);
    }

    void maxDetsCutsDetectionsOff() {
        // Eleven confident misses (0.99 .. 0.89) and the only hit last at 0.5. With maxDets 1 and 10 the hit
        // is cut off: AR1 = AR10 = 0. With 100 it counts: AR100 = 1. Precision at the hit is 1/12 and the
        // envelope is 1/12 everywhere: AP = 1/12.
        std::vector<DetectionBox> detections;
        for (int i = 0; i < 11; ++i)
            detections.push_back(detection(300 + 20 * i, 300, 310 + 20 * i, 310, 0.99 - 0.01 * i));
        detections.push_back(detection(0, 0, 10, 10, 0.5));
        const auto r = evaluate(oneImage({truth(0, 0, 10, 10)}, detections));
        QCOMPARE(r.stats[AR1], 0.0);
        QCOMPARE(r.stats[AR10], 0.0);
        QCOMPARE(r.stats[AR100], 1.0);
        QVERIFY(qAbs(r.stats[AP] - 1.0 / 12.0) < 1e-12);

        // Two boxes found by two detections: maxDets 1 keeps only the first, recall 1/2.
        const auto two = evaluate(oneImage({truth(0, 0, 10, 10), truth(50, 50, 60, 60)},
                                           {detection(0, 0, 10, 10, 0.9), detection(50, 50, 60, 60, 0.8)}));
        QCOMPARE(two.stats[AR1], 0.5);
        QCOMPARE(two.stats[AR10], 1.0);
    }

    void detectionOverlappingTwoTruths() {
        // G1 = (0,0,10,10), G2 = (3,0,13,10). D1 (0.9) equals G1. D2 (0.8) = (1,0,11,10) has IoU 90/110 =
        // 0.818 with G1 and 80/120 = 0.667 with G2. Greedy matching: D1 takes G1; D2's best, G1, is taken,
        // so it falls back to G2 when 0.667 >= t. Thresholds 0.50..0.65 (4 of 10): both TP, AP 1.
        // Thresholds 0.70..0.95 (6): TP then FP: recall 1/2 with precision 1, so the 51 recall points
        // 0..0.5 read 1 and the rest 0: 51/101. AP = (4 + 6 * 51/101) / 10.
        const auto r = evaluate(oneImage({truth(0, 0, 10, 10), truth(3, 0, 13, 10)},
                                         {detection(0, 0, 10, 10, 0.9), detection(1, 0, 11, 10, 0.8)}));
        QCOMPARE(r.stats[AP50], 1.0);
        QVERIFY(qAbs(r.stats[AP75] - 51.0 / 101.0) < 1e-12);
        QVERIFY(qAbs(r.stats[AP] - (4 + 6 * 51.0 / 101.0) / 10) < 1e-12);
        // AR: recall 1 at 4 thresholds, 1/2 at 6: 0.7.
        QVERIFY(qAbs(r.stats[AR100] - 0.7) < 1e-12);

        // One detection between two boxes can only take one of them: D = (2,0,12,10) has IoU 80/120 with
        // G1 and 70/130 with G2; it takes G1 (the higher) at t <= 0.65 and G2 stays missed.
        const auto single =
            evaluate(oneImage({truth(0, 0, 10, 10), truth(5, 0, 15, 10)}, {detection(2, 0, 12, 10, 0.9)}));
        QCOMPARE(single.recallAt(0, 0, 0, 2), 0.5);
        QCOMPARE(single.recallAt(4, 0, 0, 2), 0.0); // t = 0.70
    }

    void areaRangesUseTruthArea() {
        // A small box (100 px²) found at 0.5, and a large false positive (40000 px²) at 0.9.
        // all: FP then TP -> precision 0, 1/2; envelope 1/2 everywhere: AP 0.5.
        // small: the unmatched large detection lies outside the range and is ignored: AP 1.
        // large: the only truth is outside the range (ignored), nothing to find: -1.
        const auto r = evaluate(oneImage({truth(0, 0, 10, 10)},
                                         {detection(0, 0, 10, 10, 0.5), detection(100, 100, 300, 300, 0.9)}));
        QCOMPARE(r.stats[AP], 0.5);
        QCOMPARE(r.stats[APs], 1.0);
        QCOMPARE(r.stats[APl], -1.0);
        // The range follows the truth's own area (COCO's "area" field), not its box: declared 5000 px² the
        // same box is medium.
        auto declared = truth(0, 0, 10, 10);
        declared.areaPx2 = 5000;
        const auto m = evaluate(oneImage({declared}, {detection(0, 0, 10, 10, 0.9)}));
        QCOMPARE(m.stats[APs], -1.0);
        QCOMPARE(m.stats[APm], 1.0);
    }

    void scoreTiesKeepImageOrder() {
        // Two images, equal scores: a miss in image 0 and a hit in image 1. Sorted stably (image order),
        // the miss comes first: precision 0 then 1/2, envelope 1/2: AP50 0.5. Reversing the images puts the
        // hit first: precision 1 at recall 1: AP50 1.
        EvalSet set;
        set.classNames = {"c"};
        set.images.push_back({"a", 0, 0, {}, {detection(0, 0, 10, 10, 0.5)}});
        set.images.push_back({"b", 0, 0, {truth(500, 500, 510, 510)}, {detection(500, 500, 510, 510, 0.5)}});
        QCOMPARE(evaluate(set).stats[AP50], 0.5);
        std::swap(set.images[0], set.images[1]);
        QCOMPARE(evaluate(set).stats[AP50], 1.0);
    }

    void matchesReferenceOnRandomData() {
        // The fast evaluator (one sort per class, threads) against the pycocotools-shaped reference: every
        // precision and recall entry agrees exactly.
        SyntheticSpec spec;
        spec.images = 150;
        spec.classes = 6;
        spec.seed = 7;
        const auto set = makeSyntheticSet(spec);
        CocoParams params;
        params.threads = 3;
        const auto fast = evaluateCoco(set, params);
        QVERIFY(fast.hasValue());
        const auto slow = reference::evaluateCocoReference(set, params);
        QCOMPARE(fast->precision.size(), slow.precision.size());
        QVERIFY(fast->precision == slow.precision);
        QVERIFY(fast->recall == slow.recall);
        for (size_t i = 0; i < 12; ++i)
            QCOMPARE(fast->stats[i], slow.stats[i]);
        // Data that hit every branch: crowds, several sizes, defined and undefined entries.
        QVERIFY(fast->stats[AP] > 0.05 && fast->stats[AP] < 0.95);
        QVERIFY(fast->stats[APs] > 0 && fast->stats[APl] > 0);
    }

    void summaryPrintsLikePycocotools() {
        const auto r = evaluate(oneImage({truth(0, 0, 10, 10)}, {detection(0, 0, 10, 10, 0.9)}));
        const auto text = QString::fromStdString(formatCocoSummary(r));
        const auto lines = text.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 12);
        QCOMPARE(lines[0],
                 QString(" Average Precision  (AP) @[ IoU=0.50:0.95 | area=   all | maxDets=100 ] = 1.000"));
        QCOMPARE(lines[1],
                 QString(" Average Precision  (AP) @[ IoU=0.50      | area=   all | maxDets=100 ] = 1.000"));
        QCOMPARE(lines[4],
                 QString(" Average Precision  (AP) @[ IoU=0.50:0.95 | area=medium | maxDets=100 ] = -1.000"));
        QCOMPARE(lines[6],
                 QString(" Average Recall     (AR) @[ IoU=0.50:0.95 | area=   all | maxDets=  1 ] = 1.000"));
    }

    void rejectsInvalidBoxes() {
        const auto bad = evaluateCoco(oneImage({truth(10, 0, 0, 10)}, {}));
        QVERIFY(!bad.hasValue());
        QVERIFY2(bad.message().find("negative size") != std::string::npos, bad.message().c_str());
        QVERIFY(bad.message().find("img") != std::string::npos);
        const auto badClass = evaluateCoco(oneImage({}, {detection(0, 0, 1, 1, 0.5, 4)}));
        QVERIFY(!badClass.hasValue());
        QVERIFY(badClass.message().find("class id 4") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCocoEvaluator)
#include "tst_coco_evaluator.moc"
