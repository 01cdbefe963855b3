// The m, l and x scales of every family: parameter counts and GFLOPs against the recipe's table, and
// YOLO26's fused figures (one head branch, BatchNorm folded). Slow tier: building these networks takes
// seconds each on two cores.
#include "model/detector_torch_impl.h"

#include "model_figures.h"

#include <QtTest>

using namespace osprey::model;

class TestModelScales : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { torch::set_num_threads(2); }

    void parameterCountsAndGflops_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qlonglong>("params");
        QTest::addColumn<double>("gflops");
        for (const auto& figures : osprey::test::kModelFigures)
            if (!figures.small)
                QTest::newRow(figures.name)
                    << QString(figures.name) << static_cast<qlonglong>(figures.params) << figures.gflops;
    }
    void parameterCountsAndGflops() {
        QFETCH(QString, model);
        QFETCH(qlonglong, params);
        QFETCH(double, gflops);
        auto detector = Detector::create(parseModelName(model.toStdString()).value());
        QVERIFY(detector);
        QCOMPARE(static_cast<qlonglong>(detector->parameterCount()), params);
        const auto measured = detector->gflops(640);
        QVERIFY(measured);
        QCOMPARE(std::round(*measured * 10) / 10, gflops);
    }

    void yolo26FusedFigures_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qlonglong>("params");
        QTest::addColumn<double>("gflops");
        QTest::newRow("yolo26m") << "yolo26m" << qlonglong(20411132) << 68.2;
        QTest::newRow("yolo26l") << "yolo26l" << qlonglong(24807420) << 86.4;
        QTest::newRow("yolo26x") << "yolo26x" << qlonglong(55725948) << 193.9;
    }
    void yolo26FusedFigures() {
        QFETCH(QString, model);
        QFETCH(qlonglong, params);
        QFETCH(double, gflops);
        auto detector = Detector::create(parseModelName(model.toStdString()).value());
        QVERIFY(detector);
        detector->fuse();
        QCOMPARE(static_cast<qlonglong>(detector->parameterCount()), params);
        QCOMPARE(std::round(*detector->gflops(640) * 10) / 10, gflops);
    }
};

QTEST_GUILESS_MAIN(TestModelScales)
#include "tst_model_scales.moc"
