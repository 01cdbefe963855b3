// The run view's Plots tab (issue 33) on a run folder whose pictures core/plot drew: the pictures listed in
// Ultralytics' order, one shown at the tab's width, a picture that appears later picked up, and the empty
// states. OSPREY_SCREENSHOT_DIR keeps a screenshot.
#include "plot/run_plots.h"
#include "ui/train/run_plots_view.h"

#include <QComboBox>
#include <QLabel>
#include <QTemporaryDir>
#include <QTest>

using namespace osprey;

class TestRunPlotsView : public QObject {
    Q_OBJECT
private slots:
    void showsTheRunFoldersPictures() {
        QTemporaryDir dir;
        const std::filesystem::path run = dir.path().toStdString();
        run::ResultsTable results;
        results.columns = run::resultsCsvColumns();
        for (int epoch = 1; epoch <= 5; ++epoch) {
            std::vector<double> row(results.columns.size(), 1.0 / epoch);
            row[0] = epoch;
            results.rows.push_back(row);
        }
        QVERIFY(plot::writeResultsPlot(run / "results.png", results));
        std::vector<LabelBox> boxes(20, LabelBox{0, 0.5, 0.5, 0.2, 0.2});
        QVERIFY(plot::writeLabelsPlot(run / "labels.jpg", {"螺丝", "nut"}, boxes));

        ui::RunPlotsView view;
        view.resize(900, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setRunDir(dir.path());
        QCOMPARE(view.pictures(), QStringList({"results.png", "labels.jpg"}));
        QVERIFY(!view.shown().isNull());
        QCOMPARE(view.shown().width(), 2400);
        auto* picture = view.findChildren<QLabel*>().last();
        QVERIFY(picture->pixmap().width() <= 900); // scaled to the tab
        QVERIFY(view.showPicture("labels.jpg"));
        QCOMPARE(view.findChild<QComboBox*>("plotChooser")->currentText(), QString("labels.jpg"));
        QVERIFY(!view.showPicture("PR_curve.png"));

        // A picture written later (the run ended) is found on the next refresh; the choice is kept.
        run::RunCurves curves;
        curves.classNames = {"螺丝", "nut"};
        curves.confusionMatrix.assign(9, 1.0);
        QVERIFY(plot::writeConfusionMatrix(run / "confusion_matrix.png", curves, false));
        view.setRunDir(dir.path());
        QCOMPARE(view.pictures(), QStringList({"results.png", "confusion_matrix.png", "labels.jpg"}));
        QCOMPARE(view.findChild<QComboBox*>("plotChooser")->currentText(), QString("labels.jpg"));
        if (const QString shots = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR"); !shots.isEmpty()) {
            view.showPicture("results.png");
            QTest::qWait(50);
            view.grab().save(shots + "/run-plots-view.png");
        }

        // A run without pictures says when they come; no run, nothing.
        QTemporaryDir empty;
        view.setRunDir(empty.path());
        QVERIFY(view.pictures().isEmpty());
        QVERIFY(view.shown().isNull());
        QVERIFY(!view.findChild<QComboBox*>("plotChooser")->isEnabled());
        view.setRunDir({});
        QVERIFY(view.pictures().isEmpty());
    }
};

QTEST_MAIN(TestRunPlotsView)
#include "tst_run_plots_view.moc"
