// The run view's Curves tab on a curves.json of known numbers: the summary, the slider starting at the
// best-F1 confidence, P/R/F1 at a chosen confidence (means over the classes, interpolated), the hover text
// over the F1 plot, one graph per class plus the mean, a rewritten file read again, and the empty state.
// OSPREY_SCREENSHOT_DIR keeps a screenshot.
#include "run/run_curves.h"
#include "run/run_folder.h"
#include "ui/train/run_curves_view.h"

#include <QLabel>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>
#include <qcustomplot.h>

#include <filesystem>

using namespace osprey;

namespace {

/// Two classes: class 0's P rises as 0.5 + x / 2 and R falls as 1 - x; class 2's P is x, R is 1 - x / 2.
run::RunCurves knownCurves(int epoch) {
    run::RunCurves c;
    c.epoch = epoch;
    c.classNames = {"cat", "dog", "bird"};
    c.classes = {0, 2};
    c.precision.resize(2);
    c.recall.resize(2);
    c.f1.resize(2);
    for (int i = 0; i <= 100; ++i) {
        const double x = i / 100.0;
        c.x.push_back(x);
        c.precision[0].push_back(0.5 + x / 2);
        c.recall[0].push_back(1 - x);
        c.precision[1].push_back(x);
        c.recall[1].push_back(1 - x / 2);
        for (int r = 0; r < 2; ++r) {
            const double p = c.precision[r].back(), rr = c.recall[r].back();
            c.f1[r].push_back(p + rr > 0 ? 2 * p * rr / (p + rr) : 0.0);
        }
    }
    c.precisionAtRecall = c.precision;
    c.ap = {std::vector<double>(10, 0.8), std::vector<double>(10, 0.4)};
    c.bestConfidence = 0.37;
    c.bestF1 = 0.7;
    c.classBestConfidence = {0.3, 0.6};
    c.confusionMatrix.assign(16, 0.0);
    return c;
}

} // namespace

class TestRunCurvesView : public QObject {
    Q_OBJECT
private slots:
    void showsAndPicks() {
        QTemporaryDir dir;
        const std::filesystem::path file = run::RunFolder(dir.path().toStdString()).curves();
        QVERIFY(run::writeRunCurves(file, knownCurves(3)).hasValue());
        ui::RunCurvesView view;
        view.resize(1000, 520);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setRunDir(dir.path());
        QVERIFY(view.hasCurves());
        QCOMPARE(view.summary()->text(),
                 QString("Best model, epoch 3: mean F1 0.700 at confidence 0.370 over 2 "
                         "classes with labels (curves.json)"));
        QCOMPARE(view.slider()->value(), 37);
        QCOMPARE(view.prPlot()->graphCount(), 3);
        QCOMPARE(view.confidencePlot()->graphCount(), 3);
        QCOMPARE(view.prPlot()->graph(0)->name(), QString("cat 0.800"));
        QCOMPARE(view.prPlot()->graph(2)->name(), QString("all classes 0.600 mAP50"));
        // At 0.5: P (0.75 + 0.5) / 2, R (0.5 + 0.75) / 2, F1 the mean of the classes' F1 (both 0.6).
        QCOMPARE(view.textAt(0.5), QString("confidence 0.50: P 0.625, R 0.625, F1 0.600"));
        // Between the grid points the means are interpolated: at 0.504 P is 0.628.
        QVERIFY2(view.textAt(0.504).contains("P 0.628,"), qPrintable(view.textAt(0.504)));
        view.setChosenConfidence(0.2);
        auto* choice = view.findChild<QLabel*>(QStringLiteral("curvesChoice"));
        QVERIFY(choice);
        QCOMPARE(choice->text(), view.textAt(0.2));
        // Hovering the F1 plot says the same for the confidence under the pointer.
        QCustomPlot* plot = view.confidencePlot();
        const QPoint point(qRound(plot->xAxis->coordToPixel(0.5)), qRound(plot->yAxis->coordToPixel(0.5)));
        QTest::mouseMove(plot, point);
        const double under = std::clamp(plot->xAxis->pixelToCoord(point.x()), 0.0, 1.0);
        QTRY_COMPARE(QToolTip::text(), view.textAt(under));
        if (const QString shots = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR"); !shots.isEmpty())
            view.grab().save(shots + "/run-curves.png");

        // A new best rewrites the file: the next refresh reads it again.
        QVERIFY(run::writeRunCurves(file, knownCurves(5)).hasValue());
        std::filesystem::last_write_time(file,
                                         std::filesystem::last_write_time(file) + std::chrono::seconds(2));
        view.setRunDir(dir.path());
        QVERIFY(view.summary()->text().startsWith("Best model, epoch 5:"));

        // No file: the empty state, and a run without curves cannot be picked from.
        view.setRunDir(QString());
        QVERIFY(!view.hasCurves());
        QVERIFY(view.summary()->text().startsWith("No curves yet"));
        QVERIFY(!view.slider()->isEnabled());
        QCOMPARE(view.prPlot()->graphCount(), 0);
    }
};

QTEST_MAIN(TestRunCurvesView)
#include "tst_run_curves_view.moc"
