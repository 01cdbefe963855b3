// The runs table shows each run's dataset snapshot: the first 12 hex digits in the Dataset column, all 64
// in its tooltip, and a dash for a run recorded before snapshots existed.
#include "quality/run_snapshot.h"
#include "run/run_files.h"
#include "ui/project/project_document.h"
#include "ui/train/runs_table.h"

#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace osprey;
using namespace osprey::ui;

class TestRunsTableSnapshot : public QObject {
    Q_OBJECT
private slots:
    void datasetColumnShowsTheSnapshotHash() {
        QTemporaryDir dir;
        QString error;
        auto document = ProjectDocument::create(dir.path() + "/p", &error);
        QVERIFY2(document, qPrintable(error));
        const std::string hash = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
        QVERIFY(document->project().runs().add("old", R"({"model":"yolov8n","epochs":"5"})"));
        QVERIFY(document->project().runs().add("new", std::string(R"({"model":"yolov8s","epochs":"9",")") +
                                                          run::kSnapshotConfigKey + "\":\"" + hash + "\"}"));
        RunsTable runs(document.get());
        QTableWidget* table = runs.table();
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->horizontalHeaderItem(RunsTable::ColumnSnapshot)->text(), QString("Dataset"));
        QCOMPARE(table->item(0, RunsTable::ColumnSnapshot)->text(), QString("–"));
        QCOMPARE(table->item(1, RunsTable::ColumnName)->text(), QString("new"));
        QCOMPARE(table->item(1, RunsTable::ColumnSnapshot)->text(), QString("0123456789ab"));
        QCOMPARE(table->item(1, RunsTable::ColumnSnapshot)->toolTip(), QString::fromStdString(hash));
        QCOMPARE(table->item(1, RunsTable::ColumnEpochs)->text(), QString("9"));
    }
};

QTEST_MAIN(TestRunsTableSnapshot)
#include "tst_runs_table_snapshot.moc"
