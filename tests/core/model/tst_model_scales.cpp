// The m, l and x scales of both families: parameter counts and GFLOPs against the recipe's table. Slow
// tier: building these networks takes seconds each on two cores.
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
};

QTEST_GUILESS_MAIN(TestModelScales)
#include "tst_model_scales.moc"
