// Smoke test: open a demo project offscreen, check the list, and check that an image renders with its
// boxes in class colours.
#include "demo/demo_dataset.h"
#include "ui/annotate/annotation_editor.h"
#include "ui/annotate/annotation_session.h"
#include "ui/annotate/box_canvas.h"
#include "ui/main/main_window.h"
#include "ui/project/dataset_actions.h"
#include "ui/project/image_list_model.h"
#include "ui/project/image_list_panel.h"
#include "ui/project/project_document.h"

#include <QListView>
#include <QMenu>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace osprey;

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void opensDemoProjectAndRendersAnImage() {
        QTemporaryDir dir;
        const QString folder = dir.filePath("demo");
        demo::DemoOptions options;
        options.images = 30;
        options.imageSizePx = 160;
        QVERIFY(demo::createDemoProject(folder.toStdString(), options).hasValue());

        ui::MainWindow window;
        window.resize(1100, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openProject(folder, true));
        QCOMPARE(window.imageModel()->rowCount(), 30);
        QVERIFY(window.windowTitle().contains("demo"));

        // The first image is selected on open and decoded off the GUI thread.
        ui::BoxCanvas* view = window.editor()->canvas();
        ui::AnnotationSession* session = window.editor()->session();
        QTRY_VERIFY_WITH_TIMEOUT(view->hasImage(), 5000);
        QCOMPARE(session->imageId(), window.imageModel()->imageIdAt(0));
        QVERIFY(!session->boxes().empty());

        // The first box's left edge is drawn in its class colour.
        const auto& box = session->boxes().front();
        const QColor expected = window.document()->classColor(box.classId);
        const QImage shot = view->grab().toImage();
        const QPointF topLeft = view->toWidget({box.x1, box.y1});
        const QPointF bottomLeft = view->toWidget({box.x1, box.y2});
        const int x = qRound(topLeft.x());
        bool found = false;
        for (int y = qRound(topLeft.y()) + 3; y < qRound(bottomLeft.y()) - 3 && !found; ++y)
            for (int dx = -2; dx <= 2 && !found; ++dx) {
                const QColor c = shot.pixelColor(x + dx, y);
                found = std::abs(c.red() - expected.red()) < 30 &&
                        std::abs(c.green() - expected.green()) < 30 &&
                        std::abs(c.blue() - expected.blue()) < 30;
            }
        QVERIFY2(found, "box outline not drawn in its class colour");

        // Selecting another row shows that image.
        window.imageList()->selectRow(5);
        QTRY_COMPARE_WITH_TIMEOUT(session->imageId(), window.imageModel()->imageIdAt(5), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(view->hasImage(), 5000);

        // Thumbnails arrive from the worker threads and are cached on disk.
        const QModelIndex first = window.imageModel()->index(0);
        window.imageModel()->data(first, Qt::DecorationRole);
        QTRY_VERIFY_WITH_TIMEOUT(
            !window.imageModel()->data(first, Qt::DecorationRole).value<QImage>().isNull(), 5000);
        QVERIFY(QDir(QDir(folder).filePath(".cache/thumbs")).entryList(QDir::Files).size() >= 1);
    }

    void filtersNarrowTheList() {
        QTemporaryDir dir;
        const QString folder = dir.filePath("demo");
        demo::DemoOptions options;
        options.images = 20;
        options.imageSizePx = 96;
        QVERIFY(demo::createDemoProject(folder.toStdString(), options).hasValue());
        ui::MainWindow window;
        QVERIFY(window.openProject(folder, true));
        project::ImageQuery filter;
        filter.split = project::Split::Val;
        window.imageModel()->setFilter(filter);
        QCOMPARE(window.imageModel()->rowCount(), 4);
        filter = {};
        filter.status = project::ImageStatus::New;
        window.imageModel()->setFilter(filter);
        QCOMPARE(window.imageModel()->rowCount(), 0);
    }

    void datasetMenuFollowsTheProjectAndJumpsToImages() {
        QTemporaryDir dir;
        const QString folder = dir.filePath("demo");
        demo::DemoOptions options;
        options.images = 12;
        options.imageSizePx = 96;
        QVERIFY(demo::createDemoProject(folder.toStdString(), options).hasValue());
        ui::MainWindow window;
        const auto actions = window.datasetActions()->menu()->actions();
        QVERIFY(!actions.isEmpty());
        QVERIFY(!actions.first()->isEnabled()); // nothing to import into yet
        QVERIFY(window.openProject(folder, true));
        QVERIFY(actions.first()->isEnabled());
        // A filter that hides the image is cleared so the jump still lands on it.
        project::ImageQuery filter;
        filter.split = project::Split::Val;
        window.imageModel()->setFilter(filter);
        const auto target =
            window.document()->project().images().list({.split = project::Split::Train}).value().at(3);
        window.showImage(target.id);
        QCOMPARE(window.imageList()->currentImageId(), target.id);
        QCOMPARE(window.imageModel()->rowCount(), 12);
        window.closeProject();
        QVERIFY(!actions.first()->isEnabled());
    }

    void badFolderIsReportedNotCrashed() {
        QTemporaryDir dir;
        ui::MainWindow window;
        QVERIFY(!window.openProject(dir.filePath("missing"), true));
        QVERIFY(window.document() == nullptr);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
