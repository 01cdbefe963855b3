// The Planner panel follows the train form: changing the model scale, imgsz or batch in the form
// changes the planner's figures; the break-even calculator gives the articles' example. Saves a
// screenshot of the panel (osprey-planner-panel.png in the temp folder) for a look.
#include "ui/planner/break_even_box.h"
#include "ui/planner/planner_panel.h"
#include "ui/train/train_settings.h"

#include <QDir>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace osprey;
using namespace osprey::ui;

namespace {

double rowMidS(const planner::Plan& plan, const std::string& name) {
    for (const auto& row : plan.rows)
        if (row.name == name && row.time)
            return row.time->midS;
    return -1;
}

} // namespace

class TestPlannerPanel : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_home;

private slots:
    void initTestCase() {
        qputenv("XDG_CONFIG_HOME", m_home.filePath(QStringLiteral("config")).toUtf8());
        qputenv("XDG_CACHE_HOME", m_home.filePath(QStringLiteral("cache")).toUtf8());
    }

    void modelScaleInTheFormChangesTheFigures() {
        QWidget window;
        auto* form = new TrainForm(&window);
        auto* panel = new PlannerPanel(&window);
        auto* layout = new QHBoxLayout(&window);
        layout->addWidget(form);
        layout->addWidget(panel, 2);
        panel->setDataset(4000, 1000);
        QList<QWidget*> editors;
        for (const char* key : {"model", "epochs", "imgsz", "batch"}) {
            QVERIFY2(form->editor(QLatin1String(key)), key);
            editors << form->editor(QLatin1String(key));
        }
        panel->watch(editors, [form](const QString& key) { return form->value(key); });
        QVERIFY(form->setValue(QStringLiteral("model"), QStringLiteral("yolov8n")));
        QVERIFY(form->setValue(QStringLiteral("epochs"), 100));
        QCOMPARE(panel->plan().workload.model, std::string("yolov8n"));
        const double nano = rowMidS(panel->plan(), "RTX 4090");
        QVERIFY(nano > 0);

        QSignalSpy changed(panel, &PlannerPanel::planChanged);
        QVERIFY(form->setValue(QStringLiteral("model"), QStringLiteral("yolov8x")));
        QVERIFY(changed.count() >= 1);
        QCOMPARE(panel->plan().workload.model, std::string("yolov8x"));
        const double xlarge = rowMidS(panel->plan(), "RTX 4090");
        QVERIFY2(xlarge > 2 * nano, qPrintable(QStringLiteral("%1 vs %2").arg(xlarge).arg(nano)));
        // The table shows the new figures.
        const QString shown = panel->table()->item(6, 3)->text();
        QCOMPARE(panel->table()->item(6, 0)->text(), QStringLiteral("RTX 4090"));
        QCOMPARE(shown,
                 QStringLiteral("%1 – %2").arg(
                     QString::fromStdString(planner::formatDuration(panel->plan().rows[6].time->lowS)),
                     QString::fromStdString(planner::formatDuration(panel->plan().rows[6].time->highS))));

        // Epochs double the time; a larger imgsz needs more memory (a smaller largest batch).
        QVERIFY(form->setValue(QStringLiteral("epochs"), 200));
        QVERIFY(std::abs(rowMidS(panel->plan(), "RTX 4090") - 2 * xlarge) < 1e-6 * xlarge);
        const int maxBatch640 = panel->plan().rows[6].maxBatch;
        QVERIFY(form->setValue(QStringLiteral("imgsz"), 1280));
        QCOMPARE(panel->plan().workload.imgsz, 1280);
        QVERIFY(panel->plan().rows[6].maxBatch < maxBatch640);
        QVERIFY(form->setValue(QStringLiteral("imgsz"), 640));
        QVERIFY(form->setValue(QStringLiteral("epochs"), 100));

        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QString shot = QDir::temp().filePath(QStringLiteral("osprey-planner-panel.png"));
        QVERIFY(panel->grab().save(shot));
        qInfo("screenshot: %s", qPrintable(shot));
    }

    void breakEvenGivesTheArticlesExample() {
        BreakEvenBox box;
        QVERIFY(box.resultText().contains(QStringLiteral("3,800 h")));
        QVERIFY(box.resultText().contains(QStringLiteral("15.8 months at 8 h/day")));
        QVERIFY(box.resultText().contains(QStringLiteral("5.3 months at 24 h/day")));
        box.hoursPerDay()->setValue(24);
        QVERIFY(box.resultText().contains(QStringLiteral("5.3 months at 24 h/day")));
        box.cloud()->setValue(0.05);
        QVERIFY(box.resultText().contains(QStringLiteral("never pays off")));
    }
};

QTEST_MAIN(TestPlannerPanel)
#include "tst_planner_panel.moc"
