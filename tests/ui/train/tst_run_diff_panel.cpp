// Issue 20: the runs table's compare view shows, beside the overlaid charts, what differs between the two
// runs (arguments and data, from their dataset snapshots), and opens the changed images in the editor.
// The runs are recorded as trainProject records them (snapshot.bin, args.yaml, a runs-table row), with
// scripted edits in between: 2 images added, 1 box moved, 1 relabelled, 1 class renamed, epochs 10 -> 20.
#include "project/project.h"
#include "quality/run_snapshot.h"
#include "run/run_files.h"
#include "ui/main/main_window.h"
#include "ui/project/image_list_model.h"
#include "ui/train/run_diff_panel.h"
#include "ui/train/train_actions.h"
#include "ui/train/train_panel.h"
#include "ui/train/training_view.h"

#include "core/quality/run_fixture.h"
#include "core/quality/snapshot_fixture.h"

#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace osprey;
namespace fs = std::filesystem;

class TestRunDiffPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void compareShowsTheDifferencesAndOpensTheChangedImages() {
        QTemporaryDir dir;
        const fs::path folder = fs::path(dir.path().toStdString()) / "p";
        QList<qint64> expectedIds;
        {
            auto synthetic = test::makeSyntheticProject(folder, 40, 3);
            auto& project = *synthetic.project;
            test::recordRun(project, "r1", "10");
            auto added =
                project.images().addAll(std::vector<project::NewImage>{{.path = "new/a.jpg",
                                                                        .width = 640,
                                                                        .height = 480,
                                                                        .hash = "a1",
                                                                        .split = project::Split::Train},
                                                                       {.path = "new/b.jpg",
                                                                        .width = 640,
                                                                        .height = 480,
                                                                        .hash = "b2",
                                                                        .split = project::Split::Val}});
            QVERIFY(added);
            QVERIFY(project.boxes().add({.imageId = (*added)[1],
                                         .classId = synthetic.classIds[1],
                                         .x1 = 10,
                                         .y1 = 10,
                                         .x2 = 90,
                                         .y2 = 70}));
            auto moved = test::firstBoxOf(project, synthetic.imageIds[5]);
            moved.y1 += 60;
            moved.y2 += 60;
            QVERIFY(project.boxes().update(moved));
            auto relabelled = test::firstBoxOf(project, synthetic.imageIds[6]);
            relabelled.classId =
                relabelled.classId == synthetic.classIds[2] ? synthetic.classIds[0] : synthetic.classIds[2];
            QVERIFY(project.boxes().update(relabelled));
            QVERIFY(project.classes().rename(synthetic.classIds[3], "pentagram"));
            test::recordRun(project, "r2", "20");
            // Listed in the diff's order: added images, moved boxes, relabelled boxes.
            expectedIds = {(*added)[0], (*added)[1], synthetic.imageIds[5], synthetic.imageIds[6]};
        }

        ui::MainWindow window;
        window.resize(1500, 950);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openProject(QString::fromStdString(folder.string()), true));
        window.trainActions()->showDashboard();
        ui::TrainPanel* panel = window.trainActions()->panel();
        ui::RunDiffPanel* diff = panel->diffPanel();
        QTabWidget* tabs = panel->view()->tabs();
        QVERIFY(!tabs->isTabVisible(tabs->indexOf(diff)));
        QSignalSpy compared(diff, &ui::RunDiffPanel::compared);
        panel->compareRuns({"r1", "r2"});
        QVERIFY(compared.wait(10000));
        QVERIFY(compared.last().at(0).toBool());
        QVERIFY(tabs->isTabVisible(tabs->indexOf(diff)));

        const QString summary = diff->summary()->text();
        QVERIFY2(summary.contains("The data differs") &&
                     summary.contains("Images: 2 added, 0 removed, 0 moved between splits") &&
                     summary.contains("Boxes: 0 added, 0 removed, 1 moved, 1 relabelled") &&
                     summary.contains("Classes: 1 renamed, 0 added, 0 removed.") &&
                     summary.contains("Arguments: 1 changed."),
                 qPrintable(summary));
        QCOMPARE(diff->arguments()->rowCount(), 1);
        QCOMPARE(diff->arguments()->item(0, 0)->text(), QString("epochs"));
        QCOMPARE(diff->arguments()->item(0, 1)->text(), QString("10"));
        QCOMPARE(diff->arguments()->item(0, 2)->text(), QString("20"));
        QCOMPARE(diff->changes()->rowCount(), 4);
        QCOMPARE(diff->changes()->item(0, 0)->text(), QString("new/a.jpg"));
        QVERIFY(diff->changes()->item(2, 1)->text().startsWith("box moved:"));
        QVERIFY(diff->changes()->item(3, 1)->text().startsWith("box relabelled:"));
        QCOMPARE(diff->changedImages(), expectedIds);

        tabs->setCurrentWidget(diff);
        const QString shots = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR");
        if (!shots.isEmpty())
            QVERIFY(window.trainActions()->dock()->grab().save(shots + "/run_diff_panel.png"));

        QVERIFY(diff->openButton()->isEnabled());
        QTest::mouseClick(diff->openButton(), Qt::LeftButton);
        ui::ImageListModel* model = window.imageModel();
        QCOMPARE(model->rowCount(), 4);
        for (int row = 0; row < 4; ++row)
            QCOMPARE(model->imageIdAt(row), expectedIds[row]);
        QVERIFY(model->imageOrderTitle().contains("Changed between runs r1 and r2"));

        // One run again: the differences tab goes.
        QSignalSpy opened(panel, &ui::TrainPanel::runOpened);
        panel->openRun("r1");
        QVERIFY(!tabs->isTabVisible(tabs->indexOf(diff)));
    }
};

QTEST_MAIN(TestRunDiffPanel)
#include "tst_run_diff_panel.moc"
