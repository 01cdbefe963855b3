// The Dataset menu's dialogs and panels, driven as a user would: import with preview, export, split,
// health check and statistics, each checked against the project database afterwards.
#include "demo/demo_dataset.h"
#include "formats/project_export.h"
#include "imaging/video.h"
#include "project/project.h"
#include "ui/common/option_form.h"
#include "ui/project/export_dialog.h"
#include "ui/project/health_panel.h"
#include "ui/project/import_dialog.h"
#include "ui/project/project_document.h"
#include "ui/project/split_dialog.h"
#include "ui/project/statistics_panel.h"
#include "ui/project/video_import_dialog.h"

#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>
#include <cmath>
#include <qcustomplot.h>

using namespace osprey;

namespace {
QString makeDemo(const QTemporaryDir& dir, const char* name, int images) {
    const QString folder = dir.filePath(name);
    demo::DemoOptions options;
    options.images = images;
    options.imageSizePx = 96;
    if (!demo::createDemoProject(folder.toStdString(), options))
        return {};
    return folder;
}
} // namespace

class TestDatasetDialogs : public QObject {
    Q_OBJECT
private slots:
    void videoImportDialogCutsFramesAndCancels() {
        // Issue 36: Dataset > Import Videos: the declared video options drawn by the generic form, the
        // import on a worker thread, a bad time refused before it starts, a cancel that keeps what came in.
        QTemporaryDir dir;
        const std::filesystem::path video = dir.filePath("cam.avi").toStdString();
        {
            auto writer = imaging::VideoWriter::open(video, 96, 64, 10);
            QVERIFY(writer);
            for (int i = 0; i < 30; ++i) {
                imaging::Image frame;
                frame.width = 96;
                frame.height = 64;
                frame.pixels.resize(96 * 64 * 3);
                for (int y = 0; y < 64; ++y)
                    for (int x = 0; x < 96; ++x)
                        for (int c = 0; c < 3; ++c)
                            frame.row(y)[x * 3 + c] =
                                std::abs(x - 3 * i) < 8 ? 250 : (x * 2 + y + c * 40) % 200;
                QVERIFY((*writer)->write(frame));
            }
            QVERIFY((*writer)->close());
        }
        QString error;
        auto document = ui::ProjectDocument::create(dir.filePath("target"), &error);
        QVERIFY2(document, qPrintable(error));
        QSignalSpy resets(document.get(), &ui::ProjectDocument::imagesReset);
        ui::VideoImportDialog dialog(document.get());
        QCOMPARE(dialog.settings()->keys(), QStringList({"fps", "every", "start", "end", "dedup"}));
        QCOMPARE(dialog.settings()->value("fps").toDouble(), 1.0);
        dialog.setSource(QString::fromStdString(video.string()));
        QVERIFY(dialog.settings()->setValue("fps", 2.0));
        QVERIFY(dialog.settings()->setValue("dedup", 0));
        QVERIFY(dialog.settings()->setValue("start", "1:99"));
        dialog.runImport();
        QVERIFY(!dialog.isBusy());
        QVERIFY2(dialog.statusText().contains("start=1:99"), qPrintable(dialog.statusText()));
        QVERIFY(dialog.settings()->setValue("start", "0.5"));
        dialog.runImport();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isBusy(), 20000);
        // 0.5 s to the end (3 s) at 2 frames a second: frames 5, 10, 15, 20, 25.
        QCOMPARE(dialog.statusText(), QString("Imported 5 frames from 1 video(s)."));
        QVERIFY2(dialog.summaryText().contains("cam.avi: 30 frames decoded, 5 sampled, 5 imported"),
                 qPrintable(dialog.summaryText()));
        QCOMPARE(resets.count(), 1);
        QCOMPARE(document->project().images().count().value(), 5LL);
        std::vector<std::int64_t> frames;
        for (const auto& image : document->project().images().list({.limit = 0}).value())
            frames.push_back(document->project().images().get(image.id).value().frame->frame);
        QCOMPARE(frames, (std::vector<std::int64_t>{5, 10, 15, 20, 25}));

        // Cancelled before the worker reads a frame: nothing more, and it says so.
        QVERIFY(dialog.settings()->setValue("every", 1));
        dialog.runImport();
        dialog.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isBusy(), 20000);
        QVERIFY2(dialog.statusText().startsWith("Cancelled: "), qPrintable(dialog.statusText()));
        const auto added = document->project().images().count().value() - 5;
        QCOMPARE(dialog.statusText(), QString("Cancelled: %1 frames imported (kept).").arg(added));
    }

    void videoImportDialogKeepsImportingFromAFolder() {
        // "Keep importing from this folder": an image already there and one arriving later are each taken
        // once and listed; Stop ends the watch and says what it took.
        QTemporaryDir dir;
        const std::filesystem::path inbox = dir.filePath("inbox").toStdString();
        std::filesystem::create_directories(inbox);
        imaging::Image image;
        image.width = 40;
        image.height = 30;
        image.pixels.assign(40 * 30 * 3, 120);
        QVERIFY(imaging::encodeImage(image, inbox / "first.jpg"));
        QString error;
        auto document = ui::ProjectDocument::create(dir.filePath("target"), &error);
        QVERIFY2(document, qPrintable(error));
        ui::VideoImportDialog dialog(document.get());
        dialog.setSource(QString::fromStdString(inbox.string()));
        dialog.setKeepWatching(true);
        QVERIFY(dialog.settings()->setValue("fps", 2.0)); // the interval stays the core default (2 s)
        dialog.runImport();
        QVERIFY(dialog.isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(dialog.summaryText().contains("first.jpg: 1 image(s) added"), 20000);
        image.pixels.assign(40 * 30 * 3, 200);
        QVERIFY(imaging::encodeImage(image, inbox / "second.jpg"));
        QTRY_VERIFY_WITH_TIMEOUT(dialog.summaryText().contains("second.jpg: 1 image(s) added"), 20000);
        QCOMPARE(document->project().images().count().value(), 2LL);
        dialog.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isBusy(), 20000);
        QCOMPARE(dialog.statusText(), QString("Stopped watching: 2 file(s) taken, 2 image(s) added."));
        QVERIFY(dialog.summaryText().contains("first.jpg")); // the lines listed stay
    }

    void importWithPreviewThenImport() {
        QTemporaryDir dir;
        const QString source = makeDemo(dir, "source", 12);
        QVERIFY(!source.isEmpty());
        // Export the demo as YOLO with copied images: that is the dataset to import.
        {
            auto project = std::move(project::Project::open(source.toStdString()).value());
            formats::WriteOptions options;
            options.dest = dir.filePath("yolo").toStdString();
            options.images = formats::ImageExport::Copy;
            QVERIFY(formats::exportProject(*project, "yolo", options).hasValue());
        }
        QString error;
        auto document = ui::ProjectDocument::create(dir.filePath("target"), &error);
        QVERIFY2(document, qPrintable(error));
        QSignalSpy resets(document.get(), &ui::ProjectDocument::imagesReset);
        ui::ImportDialog dialog(document.get());
        dialog.setSource(dir.filePath("yolo"));
        dialog.preview();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isBusy(), 20000);
        QCOMPARE(dialog.detectedFormat(), QString("yolo"));
        QVERIFY2(dialog.summaryText().contains("Images: 12"), qPrintable(dialog.summaryText()));
        // The layout line first: what was found and how it paired.
        QVERIFY2(dialog.summaryText().startsWith("12 YOLO label files in labels/") &&
                     dialog.summaryText().section('\n', 0, 0).endsWith(", all paired"),
                 qPrintable(dialog.summaryText()));
        QCOMPARE(document->project().images().count().value(), 0LL); // a preview writes nothing

        QSignalSpy imported(&dialog, &ui::ImportDialog::imported);
        dialog.runImport();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isBusy(), 20000);
        QCOMPARE(imported.count(), 1);
        QCOMPARE(resets.count(), 1);
        QCOMPARE(document->project().images().count().value(), 12LL);
        QCOMPARE(document->classes().size(), size_t(4));
        auto original = std::move(project::Project::open(source.toStdString()).value());
        std::int64_t originalBoxes = 0, importedBoxes = 0;
        for (const auto& image : original->images().list({.limit = 0}).value())
            originalBoxes += image.boxCount;
        for (const auto& image : document->project().images().list({.limit = 0}).value())
            importedBoxes += image.boxCount;
        QCOMPARE(importedBoxes, originalBoxes);
    }

    void badSourceIsReportedAndNothingChanges() {
        QTemporaryDir dir;
        QString error;
        auto document = ui::ProjectDocument::create(dir.filePath("target"), &error);
        QVERIFY(document);
        ui::ImportDialog dialog(document.get());
        dialog.setSource(dir.filePath("does-not-exist"));
        dialog.runImport();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isBusy(), 20000);
        QVERIFY(dialog.summaryText().contains("does-not-exist"));
        QCOMPARE(document->project().images().count().value(), 0LL);
    }

    void exportWritesCoco() {
        QTemporaryDir dir;
        const QString folder = makeDemo(dir, "p", 6);
        QString error;
        auto document = ui::ProjectDocument::open(folder, &error);
        QVERIFY(document);
        ui::ExportDialog dialog(document.get());
        dialog.setFormat("coco");
        dialog.setDestination(dir.filePath("out"));
        dialog.runExport();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isBusy(), 20000);
        QVERIFY2(dialog.resultText().contains("Exported 6 images"), qPrintable(dialog.resultText()));
        QDirIterator files(dir.filePath("out"), {"*.json"}, QDir::Files, QDirIterator::Subdirectories);
        QVERIFY(files.hasNext());
    }

    void splitIsAppliedAndAnnounced() {
        QTemporaryDir dir;
        const QString folder = makeDemo(dir, "p", 20);
        QString error;
        auto document = ui::ProjectDocument::open(folder, &error);
        QVERIFY(document);
        QSignalSpy resets(document.get(), &ui::ProjectDocument::imagesReset);
        ui::SplitDialog dialog(document.get());
        dialog.setFractions(0.5, 0.5, 0, 3);
        dialog.runSplit();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isBusy(), 20000);
        QVERIFY2(dialog.resultText().startsWith("Split applied"), qPrintable(dialog.resultText()));
        QCOMPARE(resets.count(), 1);
        const auto train = document->project().images().count({.split = project::Split::Train}).value();
        const auto val = document->project().images().count({.split = project::Split::Val}).value();
        QCOMPARE(train + val, 20LL);
        QVERIFY(std::abs(train - val) <= 4); // stratification may shift a few images
    }

    void healthCheckFindsAMissingImageAndJumpsToIt() {
        QTemporaryDir dir;
        const QString folder = makeDemo(dir, "p", 5);
        QString error;
        auto document = ui::ProjectDocument::open(folder, &error);
        QVERIFY(document);
        const auto images = document->project().images().list({.limit = 0}).value();
        QVERIFY(QFile::remove(QDir(folder).filePath(QString::fromStdString(images[2].path))));
        ui::HealthPanel panel(document.get());
        panel.run();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isBusy(), 20000);
        QSignalSpy activated(&panel, &ui::HealthPanel::imageActivated);
        QTreeWidgetItem* missing = nullptr;
        for (int i = 0; i < panel.tree()->topLevelItemCount(); ++i)
            if (panel.tree()->topLevelItem(i)->text(0).contains("missing", Qt::CaseInsensitive))
                missing = panel.tree()->topLevelItem(i);
        QVERIFY(missing);
        QCOMPARE(missing->childCount(), 1);
        emit panel.tree()->itemActivated(missing->child(0), 0);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.first().first().toLongLong(), images[2].id);
    }

    void statisticsPlotTheBoxCounts() {
        QTemporaryDir dir;
        const QString folder = makeDemo(dir, "p", 15);
        QString error;
        auto document = ui::ProjectDocument::open(folder, &error);
        QVERIFY(document);
        ui::StatisticsPanel panel(document.get());
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isBusy(), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(panel.classPlot()->plottableCount() > 0, 5000);
        double plotted = 0;
        for (int i = 0; i < panel.classPlot()->plottableCount(); ++i) {
            auto* bars = qobject_cast<QCPBars*>(panel.classPlot()->plottable(i));
            QVERIFY(bars);
            for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
                plotted += it->value;
        }
        std::int64_t boxes = 0;
        for (const auto& image : document->project().images().list({.limit = 0}).value())
            boxes += image.boxCount;
        QCOMPARE(plotted, static_cast<double>(boxes));

        // labels.jpg's heat maps: every box of the demo (its images have sizes) in the centre map, each cell
        // log(1 + n) of the boxes whose centre falls there.
        for (QCustomPlot* heat : {panel.centrePlot(), panel.shapePlot()}) {
            QCOMPARE(heat->plottableCount(), 1);
            auto* map = qobject_cast<QCPColorMap*>(heat->plottable(0));
            QVERIFY(map);
            QCOMPARE(map->data()->keySize(), 20);
            double counted = 0;
            for (int x = 0; x < 20; ++x)
                for (int y = 0; y < 20; ++y)
                    counted += std::expm1(map->data()->cell(x, y));
            QVERIFY2(std::abs(counted - double(boxes)) < 1e-6, qPrintable(QString::number(counted)));
        }
        QVERIFY(panel.centrePlot()->yAxis->rangeReversed());
        // labels.jpg's box layout: one outline per box (fewer than 1000 here), each centred.
        QCOMPARE(panel.layoutPlot()->itemCount(), static_cast<int>(boxes));
        for (int i = 0; i < panel.layoutPlot()->itemCount(); ++i) {
            auto* rect = qobject_cast<QCPItemRect*>(panel.layoutPlot()->item(i));
            QVERIFY(rect);
            const QPointF a = rect->topLeft->coords(), b = rect->bottomRight->coords();
            QVERIFY(std::abs((a.x() + b.x()) / 2 - 0.5) < 1e-9 && std::abs((a.y() + b.y()) / 2 - 0.5) < 1e-9);
            QVERIFY(b.x() > a.x() && b.y() > a.y());
        }
        if (const QString shots = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR"); !shots.isEmpty()) {
            panel.resize(900, 1100);
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            panel.grab().save(shots + "/statistics-panel.png");
        }
    }
};

QTEST_MAIN(TestDatasetDialogs)
#include "tst_dataset_dialogs.moc"
