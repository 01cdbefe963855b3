// Ultralytics-style metrics and the confusion matrix on hand-built cases; answers derived in comments.
#include "metrics/confusion_matrix.h"
#include "metrics/ultralytics_evaluator.h"
#include "metrics_test_util.h"

#include <QtTest>

using namespace osprey::metrics;
using namespace osprey::metrics::test;

namespace {

DetectionMetrics evaluate(const EvalSet& set) {
    auto result = evaluateUltralytics(set);
    if (!result)
        qFatal("%s", result.message().c_str());
    return *result;
}

bool near(double a, double b, double tolerance = 1e-9) {
    return qAbs(a - b) < tolerance;
}

} // namespace

class TestUltralyticsEvaluator : public QObject {
    Q_OBJECT
private slots:
    void perfectDetectionGives0995() {
        // Recall 1 at precision 1. The envelope over recall points [0, 1, 1] is [1, 1, 0]; sampled at
        // 0, 0.01, .., 1 it is 1 except at recall 1, where numpy's interp takes the last point, 0. The
        // trapezoids give 0.99 + 0.01 * (1 + 0) / 2 = 0.995: Ultralytics' well-known ceiling.
        const auto m = evaluate(oneImage({truth(0, 0, 10, 10)}, {detection(0, 0, 10, 10, 0.9)}));
        QVERIFY(near(m.map50, 0.995));
        QVERIFY(near(m.map50to95, 0.995));
        QVERIFY(near(m.fitness, 0.995));
        // P and R are 1 for every confidence up to 0.9; the smoothed F1 peaks first at confidence 0.
        QCOMPARE(m.precision, 1.0);
        QVERIFY(near(m.recall, 1.0));
        QCOMPARE(m.bestConfidence, 0.0);
        QCOMPARE(m.curves.confidence.size(), size_t(1000));
        QCOMPARE(m.curves.f1.size(), size_t(1));
        QCOMPARE(m.curves.recall[0].back(), 0.0); // above the only score nothing is found
    }

    void missAfterHitAndClassesWithoutTruth() {
        // Class 0: two boxes; a hit (0.9) then a false positive (0.8). Recall [.5, .5], precision [1, .5];
        // 8.4.190 closes the curve at the last recall: envelope over recall [0, .5, .5, .5, 1] is
        // [1, 1, .5, 0, 0]. Sampled: 1 below 0.5, 0 from 0.5 on (numpy's interp takes the last of equal
        // x). Trapezoids: 0.49 + 0.01 x (1 + 0) / 2 = 0.495 (8.4.90, which fell linearly to recall 1, gave
        // 0.6225). Class 1 has only a detection and no truth: left out of every mean.
        const auto m = evaluate(oneImage({truth(0, 0, 10, 10), truth(50, 50, 60, 60)},
                                         {detection(0, 0, 10, 10, 0.9), detection(100, 100, 110, 110, 0.8),
                                          detection(200, 200, 210, 210, 0.95, 1)},
                                         2));
        QCOMPARE(m.perClass.size(), size_t(1));
        QCOMPARE(m.perClass[0].instances, 2);
        QCOMPARE(m.perClass[0].images, 1);
        QVERIFY2(near(m.map50, 0.495), qPrintable(QString::number(m.map50, 'g', 17)));
        QVERIFY(near(m.map50to95, 0.495));
    }

    void mostConfidentDetectionKeepsTheBox() {
        // One box; D1 (0.9) overlaps it with IoU 90/110 = 0.818, D2 (0.8) matches exactly. At thresholds
        // 0.50..0.80 (7) both pick the box and the more confident D1 keeps it: TP then FP, AP 0.995 as for a
        // perfect result (recall 1 is reached at precision 1). At 0.85..0.95 (3) only D2 qualifies: FP then
        // TP, envelope 0.5 from recall 0 to 1, sampled 0.5 except 0 at recall 1: 0.495 + 0.0025 = 0.4975.
        // mAP50-95 = (7 * 0.995 + 3 * 0.4975) / 10 = 0.84575.
        const auto m = evaluate(
            oneImage({truth(0, 0, 10, 10)}, {detection(1, 0, 11, 10, 0.9), detection(0, 0, 10, 10, 0.8)}));
        QVERIFY(near(m.perClass[0].ap[6], 0.995));
        QVERIFY(near(m.perClass[0].ap[7], 0.4975));
        QVERIFY(near(m.map50to95, 0.84575));
    }

    void noDetections() {
        // Ground truth and no detections: AP 0, P 0, R 0; the class is still counted.
        const auto m = evaluate(oneImage({truth(0, 0, 10, 10)}, {}));
        QCOMPARE(m.perClass.size(), size_t(1));
        QCOMPARE(m.map50, 0.0);
        QCOMPARE(m.recall, 0.0);
        QCOMPARE(m.instances, 1);
    }

    void accumulatorEqualsWholeSet() {
        // The trainer feeds images one by one; the result must equal the one-shot evaluation.
        EvalSet set = oneImage({truth(0, 0, 10, 10), truth(30, 30, 50, 50, 1)},
                               {detection(1, 1, 10, 10, 0.7), detection(30, 30, 48, 52, 0.6, 1)}, 2);
        set.images.push_back({"second", 0, 0, {truth(5, 5, 25, 25)}, {detection(4, 6, 24, 26, 0.5)}});
        UltralyticsEvaluator evaluator(2);
        for (const auto& image : set.images)
            QVERIFY(evaluator.addImage(image.truths, image.detections).hasValue());
        const auto incremental = evaluator.compute();
        const auto whole = evaluate(set);
        QCOMPARE(incremental.map50to95, whole.map50to95);
        QCOMPARE(incremental.images, 2);
        QVERIFY(!evaluator.addImage({}, std::vector<DetectionBox>{detection(0, 0, 1, 1, 0.5, 7)}).hasValue());
    }

    void confusionMatrixCounts() {
        // A (class 0) found as class 0; B (class 1) found as class 0; C (class 1) only found below the
        // confidence threshold (0.2 < 0.25), so missed; one confident detection of class 1 on nothing.
        const auto set = oneImage({truth(0, 0, 10, 10, 0), truth(20, 0, 30, 10, 1), truth(50, 50, 60, 60, 1)},
                                  {detection(0, 0, 10, 10, 0.9, 0), detection(20, 0, 30, 10, 0.8, 0),
                                   detection(100, 100, 110, 110, 0.7, 1), detection(50, 50, 60, 60, 0.2, 1)},
                                  2);
        const auto matrix = confusionMatrix(set);
        QVERIFY(matrix.hasValue());
        const int bg = matrix->backgroundIndex();
        QCOMPARE(bg, 2);
        QCOMPARE(matrix->count(0, 0), 1LL);
        QCOMPARE(matrix->count(0, 1), 1LL);
        QCOMPARE(matrix->count(bg, 1), 1LL);
        QCOMPARE(matrix->count(1, bg), 1LL);
        long long total = 0;
        for (int row = 0; row <= bg; ++row)
            for (int column = 0; column <= bg; ++column)
                total += matrix->count(row, column);
        QCOMPARE(total, 4LL);
        const auto normalized = matrix->columnNormalized();
        QCOMPARE(normalized[0][1], 0.5);
        QCOMPARE(normalized[2][1], 0.5);
        QCOMPARE(normalized[0][0], 1.0);
    }

    void confusionMatrixOneDetectionPerBox() {
        // Two detections on one box: the higher IoU one (exact, class 1) is the match; the other (IoU
        // 90/110, class 0) becomes a false positive against the background.
        const auto set = oneImage({truth(0, 0, 10, 10, 1)},
                                  {detection(1, 0, 11, 10, 0.9, 0), detection(0, 0, 10, 10, 0.8, 1)}, 2);
        const auto matrix = confusionMatrix(set);
        QCOMPARE(matrix->count(1, 1), 1LL);
        QCOMPARE(matrix->count(0, matrix->backgroundIndex()), 1LL);
        QCOMPARE(matrix->count(0, 1), 0LL);
    }
};

QTEST_GUILESS_MAIN(TestUltralyticsEvaluator)
#include "tst_ultralytics_evaluator.moc"
