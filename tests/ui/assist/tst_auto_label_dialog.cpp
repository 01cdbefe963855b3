// The auto-label dialog and the class mapping dialog with a real predictor (the shared Darknet
// yolo-fastest-1.1 COCO model) on five shared photos, the first with three persons. Widgets are driven with
// QTest; after each run the database is read through a second connection and checked against the report:
// a full run (plus an undecodable image: skipped and listed in the summary), a cancel right after the first
// batch, an edited mapping (a class ignored, one added) that the next run respects, a broken model file, and
// the editor's menu (the dialog defaults to the active model, the current image reloads its boxes, closing or
// destroying the dialog mid-run stops and joins the worker).
#include "project/project.h"
#include "project_printers.h"
#include "ui/annotate/annotation_editor.h"
#include "ui/annotate/annotation_session.h"
#include "ui/annotate/editor_actions.h"
#include "ui/annotate/shortcut_registry.h"
#include "ui/assist/assist_controller.h"
#include "ui/assist/auto_label_dialog.h"
#include "ui/assist/auto_label_test_util.h"
#include "ui/assist/class_mapping_dialog.h"
#include "ui/main/main_window.h"
#include "ui/project/image_list_model.h"
#include "ui/project/project_document.h"

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>

using namespace osprey;
using namespace osprey::test;

class TestAutoLabelDialog : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void runStoresModelBoxesAsReported() {
        OSPREY_REQUIRE_FIXTURE(kWeights);
        OSPREY_REQUIRE_FIXTURE(kPhotos);
        QTemporaryDir dir;
        const QString folder = makeProject(dir, {});
        QVERIFY(!folder.isEmpty());
        // A sixth image that cannot be decoded: skipped with a warning, the run goes on.
        {
            QFile file(QDir(folder).filePath("truncated.jpg"));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("\xff\xd8\xff not really a JPEG");
            file.close();
            auto project = project::Project::open(folder.toStdString());
            QVERIFY(project);
            project::NewImage image;
            image.path = "truncated.jpg";
            image.width = image.height = 100;
            image.hash = "truncated";
            QVERIFY((*project)->images().add(image));
        }
        QString error;
        auto document = ui::ProjectDocument::open(folder, &error);
        QVERIFY2(document, qPrintable(error));

        ui::AutoLabelDialog dialog(document.get(), fastest());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        // The CLI's defaults, and the count before starting.
        const auto defaults = dialog.options();
        QVERIFY(defaults.images == assist::ImageSelection::Unlabeled);
        QCOMPARE(defaults.suggest.confThreshold, 0.25f);
        QCOMPARE(defaults.suggest.iouThreshold, 0.7f);
        QVERIFY(defaults.mode == assist::WriteMode::Add);
        QVERIFY(defaults.addClasses == assist::AddClasses::Auto);
        QCOMPARE(defaults.mappingKey, kModelKey);
        QCOMPARE(dialog.imageCount(), 6);
        QVERIFY(dialog.findChild<QLabel*>("count")->text().contains("Images to process: 6"));

        // Confidence 0.30, typed.
        auto* conf = dialog.findChild<QDoubleSpinBox*>("conf");
        conf->setFocus();
        conf->selectAll();
        QTest::keyClicks(conf, "0.30");
        QCOMPARE(conf->value(), 0.30);
        shoot(&dialog, "auto_label_ready");

        QList<int> progress;
        connect(&dialog, &ui::AutoLabelDialog::progressed, this, [&](int done, int) { progress << done; });
        QTest::mouseClick(button(&dialog, "start"), Qt::LeftButton);
        QVERIFY(dialog.isRunning());
        QVERIFY(!button(&dialog, "start")->isEnabled());
        QVERIFY(button(&dialog, "stop")->isEnabled());
        QVERIFY(waitForRun(dialog));
        QVERIFY2(dialog.errorText().isEmpty(), qPrintable(dialog.errorText()));
        QVERIFY(dialog.report().has_value());
        const auto& report = *dialog.report();
        QCOMPARE(report.images, 6);
        QCOMPARE(report.failed, 1);
        QCOMPARE(static_cast<int>(report.warnings.size()), 1);
        QVERIFY(!report.cancelled);
        QCOMPARE(progress, QList<int>{6}); // one batch of 16 holds all six
        QCOMPARE(dialog.findChild<QProgressBar*>("progress")->value(), 6);

        const Stored stored(folder);
        QCOMPARE(static_cast<int>(stored.classNames.size()), 80); // add_classes=auto on an empty project
        QCOMPARE(stored.totalBoxes, report.boxes);
        QCOMPARE(stored.imagesWithBoxes, report.labeled);
        QVERIFY(report.boxes > 0);
        for (const auto& image : stored.images) {
            const auto& boxes = stored.boxes.at(image.id);
            for (const auto& box : boxes) {
                QVERIFY(box.source == project::BoxSource::Model);
                QVERIFY(box.score.has_value());
                QVERIFY2(*box.score > 0.30, qPrintable(QString::number(*box.score)));
            }
            OSPREY_COMPARE_ENUM(image.status,
                                boxes.empty() ? project::ImageStatus::New : project::ImageStatus::Labeled);
        }
        QVERIFY(stored.count(stored.images.front().id, "person") >= 2);
        shoot(&dialog, "auto_label_done");
        QVERIFY(dialog.summaryText().contains("Processed: 6 of 6 images"));
        QVERIFY(dialog.summaryText().contains("Images skipped because they could not be read: 1"));
        QVERIFY(dialog.summaryText().contains("truncated.jpg"));
        QVERIFY(dialog.summaryText().contains(
            QString("Boxes stored (source: model, with their scores): %1").arg(report.boxes)));
        // What stays unlabeled is what a second run would process.
        QCOMPARE(dialog.imageCount(), 6 - report.labeled);
        // The next dialog in this project starts from this run's choices.
        const auto remembered = document->project().settings().get("autolabel.dialog");
        QVERIFY(remembered);
        QCOMPARE(QString::fromStdString(*remembered),
                 QString("images=unlabeled;conf=0.3;iou=0.7;mode=add;add_classes=auto"));
        ui::AutoLabelDialog again(document.get(), fastest());
        QCOMPARE(again.options().suggest.confThreshold, 0.30f);
        QVERIFY(again.options().images == assist::ImageSelection::Unlabeled);
        QVERIFY(again.options().mode == assist::WriteMode::Add);
        // A damaged setting is ignored value by value: the defaults stay where it makes no sense.
        QVERIFY(document->project().settings().set("autolabel.dialog",
                                                   "images=bogus;conf=7;iou=0.5;mode=x;junk"));
        ui::AutoLabelDialog damaged(document.get(), fastest());
        QVERIFY(damaged.options().images == assist::ImageSelection::Unlabeled);
        QCOMPARE(damaged.options().suggest.confThreshold, 0.25f);
        QCOMPARE(damaged.options().suggest.iouThreshold, 0.5f);
        QVERIFY(damaged.options().mode == assist::WriteMode::Add);
        // Settings written before they took the CLI's spelling hold the enum numbers.
        QVERIFY(document->project().settings().set("autolabel.dialog", "conf=0.4;mode=1;add_classes=2"));
        ui::AutoLabelDialog legacy(document.get(), fastest());
        QCOMPARE(legacy.options().suggest.confThreshold, 0.4f);
        QVERIFY(legacy.options().mode == assist::WriteMode::Replace);
        QVERIFY(legacy.options().addClasses == assist::AddClasses::No);
    }

    void cancelAfterFirstBatchKeepsItOnly() {
        OSPREY_REQUIRE_FIXTURE(kWeights);
        OSPREY_REQUIRE_FIXTURE(kPhotos);
        QTemporaryDir dir;
        const QString folder = makeProject(dir, {"person"});
        QVERIFY(!folder.isEmpty());
        QString error;
        auto document = ui::ProjectDocument::open(folder, &error);
        QVERIFY2(document, qPrintable(error));

        ui::AutoLabelDialog dialog(document.get(), fastest());
        dialog.setBatchSize(1);
        dialog.show();
        QList<int> progress;
        // The worker waits until this slot has run, so the stop lands exactly after the first image.
        connect(&dialog, &ui::AutoLabelDialog::progressed, this, [&](int done, int total) {
            progress << done;
            QCOMPARE(total, 5);
            if (done == 1) {
                shoot(&dialog, "auto_label_running");
                QTest::mouseClick(button(&dialog, "stop"), Qt::LeftButton);
            }
        });
        QTest::mouseClick(button(&dialog, "start"), Qt::LeftButton);
        QVERIFY(waitForRun(dialog));
        QVERIFY2(dialog.errorText().isEmpty(), qPrintable(dialog.errorText()));
        QCOMPARE(progress, QList<int>{1});
        const auto& report = *dialog.report();
        QVERIFY(report.cancelled);
        QCOMPARE(report.images, 1);
        QCOMPARE(report.labeled, 1);
        QVERIFY(dialog.summaryText().contains("Images left unchanged: 4"));
        QCOMPARE(dialog.findChild<QLabel*>("status")->text(), QString("Stopped."));
        shoot(&dialog, "auto_label_stopped");

        const Stored stored(folder);
        const auto first = stored.images.front().id;
        QCOMPARE(static_cast<int>(stored.boxes.at(first).size()), report.boxes);
        QCOMPARE(stored.count(first, "person"), report.boxes); // the only class mapped
        OSPREY_COMPARE_ENUM(stored.images.front().status, project::ImageStatus::Labeled);
        for (size_t i = 1; i < stored.images.size(); ++i) {
            QVERIFY(stored.boxes.at(stored.images[i].id).empty());
            OSPREY_COMPARE_ENUM(stored.images[i].status, project::ImageStatus::New);
        }
        QCOMPARE(stored.totalBoxes, report.boxes);
    }

    void editedMappingIsSavedAndRespected() {
        OSPREY_REQUIRE_FIXTURE(kWeights);
        OSPREY_REQUIRE_FIXTURE(kPhotos);
        QTemporaryDir dir;
        const QString folder = makeProject(dir, {"Person", "car", "dog"});
        QVERIFY(!folder.isEmpty());
        QString error;
        auto document = ui::ProjectDocument::open(folder, &error);
        QVERIFY2(document, qPrintable(error));
        const auto classId = [&](const std::string& name) -> qint64 {
            for (const auto& info : document->classes())
                if (info.name == name)
                    return info.id;
            return 0;
        };

        ui::AutoLabelDialog dialog(document.get(), fastest());
        dialog.show();
        ui::ClassMappingDialog* mapping = dialog.editClassMapping();
        QVERIFY(mapping);
        QVERIFY(QTest::qWaitFor([&] { return !mapping->isLoading(); }, 30000));
        QVERIFY2(mapping->errorText().isEmpty(), qPrintable(mapping->errorText()));
        QCOMPARE(mapping->modelClasses().size(), 80);
        QCOMPARE(mapping->modelClasses()[0], QString("person"));
        QCOMPARE(mapping->modelClasses()[1], QString("bicycle"));
        // By name, case-insensitive; the rest ignored, since the project has classes.
        QCOMPARE(mapping->choice(0), classId("Person"));
        QCOMPARE(mapping->choice(1), ui::ClassMappingDialog::kIgnore);
        QCOMPARE(mapping->choice(2), classId("car"));

        // Ctrl+F and typing filter the 80 rows.
        QTest::keyClick(mapping, Qt::Key_F, Qt::ControlModifier);
        auto* filter = mapping->findChild<QLineEdit*>("filter");
        QVERIFY(filter && filter->hasFocus());
        QTest::keyClicks(filter, "bicy");
        // The table lays its cell widgets out on its next update.
        QVERIFY(QTest::qWaitFor([&] { return !mapping->choiceBox(0)->isVisible(); }, 2000));
        QVERIFY(mapping->choiceBox(1)->isVisible());
        QVERIFY(!mapping->choiceBox(2)->isVisible());
        filter->clear();
        QVERIFY(QTest::qWaitFor([&] { return mapping->choiceBox(0)->isVisible(); }, 2000));

        // person -> (ignore) with the keyboard; bicycle -> (add as new class).
        QComboBox* person = mapping->choiceBox(0);
        person->setFocus();
        QTest::keyClick(person, Qt::Key_Home);
        QCOMPARE(mapping->choice(0), ui::ClassMappingDialog::kIgnore);
        QComboBox* bicycle = mapping->choiceBox(1);
        QVERIFY(bicycle->findData(ui::ClassMappingDialog::kAddClass) >= 0);
        QCOMPARE(person->findData(ui::ClassMappingDialog::kAddClass), -1); // "Person" exists
        bicycle->setCurrentIndex(bicycle->findData(ui::ClassMappingDialog::kAddClass));
        shoot(mapping, "class_mapping");
        QPointer<ui::ClassMappingDialog> guard(mapping);
        QTest::keyClick(mapping, Qt::Key_Return); // Save is the default button
        QVERIFY(QTest::qWaitFor([&] { return guard.isNull(); }, 5000));

        // Saved under the CLI's model key, read back through another connection.
        {
            auto project = project::Project::open(folder.toStdString());
            QVERIFY(project);
            std::vector<std::string> names;
            for (const auto& name : assist::readNamesFile(fastest().names).value())
                names.push_back(name);
            auto saved = assist::mapClassesByName(**project, names, assist::AddClasses::No, kModelKey);
            QVERIFY(saved);
            QVERIFY(!saved->projectClassIds[0].has_value());
            QVERIFY(saved->projectClassIds[1].has_value());
            QCOMPARE(*saved->projectClassIds[1], classId("bicycle"));
            QCOMPARE(*saved->projectClassIds[2], classId("car"));
            QCOMPARE(saved->mappedCount(), 3); // bicycle, car and dog
        }
        QVERIFY(classId("bicycle") != 0); // the document knows the new class

        dialog.findChild<QComboBox*>("images")->setCurrentIndex(1); // all images
        QTest::mouseClick(button(&dialog, "start"), Qt::LeftButton);
        QVERIFY(waitForRun(dialog));
        QVERIFY2(dialog.errorText().isEmpty(), qPrintable(dialog.errorText()));
        const Stored stored(folder);
        QCOMPARE(stored.totalBoxes, dialog.report()->boxes);
        QCOMPARE(stored.count(stored.images.front().id, "Person"), 0);
        QCOMPARE(static_cast<int>(stored.classNames.size()), 4); // add_classes=auto adds none here
        for (const auto& [imageId, boxes] : stored.boxes)
            for (const auto& box : boxes) {
                const std::string& name = stored.classNames.at(box.classId);
                QVERIFY2(name == "bicycle" || name == "car" || name == "dog", name.c_str());
            }
        // Only the choices are pinned: with add_classes=true an unmapped class the user left alone is added,
        // the ignored one stays ignored.
        auto project = project::Project::open(folder.toStdString());
        QVERIFY(project);
        auto added = assist::mapClassesByName(**project, assist::readNamesFile(fastest().names).value(),
                                              assist::AddClasses::Yes, kModelKey);
        QVERIFY(added);
        QVERIFY(!added->projectClassIds[0].has_value()); // person: ignored on purpose
        QVERIFY(added->projectClassIds[3].has_value());  // motorbike: added now
        QCOMPARE(added->mappedCount(), 79);
    }

    void brokenModelIsReportedByName() {
        OSPREY_REQUIRE_FIXTURE(kPhotos);
        QTemporaryDir dir;
        const QString folder = makeProject(dir, {"person"});
        QVERIFY(!folder.isEmpty());
        QString error;
        auto document = ui::ProjectDocument::open(folder, &error);
        QVERIFY2(document, qPrintable(error));
        const QString broken = dir.filePath("broken-detector.onnx");
        {
            QFile file(broken);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("this is not an ONNX model");
        }
        assist::ModelSource source;
        source.model = broken.toStdString();

        ui::AutoLabelDialog dialog(document.get(), source);
        dialog.show();
        QTest::mouseClick(button(&dialog, "start"), Qt::LeftButton);
        QVERIFY(waitForRun(dialog));
        QVERIFY(!dialog.report().has_value());
        QVERIFY2(dialog.errorText().contains("broken-detector.onnx"), qPrintable(dialog.errorText()));
        QVERIFY(dialog.summaryText().contains("broken-detector.onnx"));
        shoot(&dialog, "auto_label_error");
        QCOMPARE(dialog.findChild<QLabel*>("status")->text(), QString("Auto-label failed."));
        QVERIFY(button(&dialog, "start")->isEnabled()); // ready to try another model
        QCOMPARE(Stored(folder).totalBoxes, 0);

        ui::ClassMappingDialog mapping(document.get(), source);
        QVERIFY(QTest::qWaitFor([&] { return !mapping.isLoading(); }, 10000));
        QVERIFY2(mapping.errorText().contains("broken-detector.onnx"), qPrintable(mapping.errorText()));
        QCOMPARE(mapping.modelClasses().size(), 0);
    }

    void editorMenuRunsReloadsAndStopsCleanly() {
        OSPREY_REQUIRE_FIXTURE(kWeights);
        OSPREY_REQUIRE_FIXTURE(kPhotos);
        QTemporaryDir dir;
        const QString folder = makeProject(dir, {"person"});
        QVERIFY(!folder.isEmpty());

        ui::MainWindow window;
        window.resize(1200, 800);
        auto* actions = window.findChild<ui::EditorActions*>();
        QVERIFY(actions);
        QAction* autoLabel = actions->action("assist.autoLabel");
        QVERIFY(autoLabel);
        QVERIFY(!autoLabel->isEnabled()); // no project yet
        QVERIFY(!actions->action("assist.classMapping")->isEnabled());
        QVERIFY(ui::ShortcutRegistry::conflicts(actions->registry()->current()).isEmpty());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openProject(folder, true));
        QVERIFY(autoLabel->isEnabled());
        ui::AnnotationEditor* editor = window.editor();
        editor->assist()->setModel(fastest());
        const qint64 first = Stored(folder).images.front().id;
        editor->showImage(first);
        QVERIFY(QTest::qWaitFor([&] { return editor->session()->imageId() == first; }, 5000));
        QVERIFY(editor->session()->boxes().empty());

        autoLabel->trigger();
        auto* dialog = window.findChild<ui::AutoLabelDialog*>();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->model().model, fastest().model); // the editor's active model
        QTest::mouseClick(button(dialog, "start"), Qt::LeftButton);
        QVERIFY(waitForRun(*dialog));
        QVERIFY2(dialog->errorText().isEmpty(), qPrintable(dialog->errorText()));
        const int personBoxes = Stored(folder).count(first, "person");
        QVERIFY(personBoxes >= 2);
        // The editor's current image shows the stored boxes without being re-selected.
        QCOMPARE(static_cast<int>(editor->session()->boxes().size()), personBoxes);
        OSPREY_COMPARE_ENUM(editor->session()->image().status, project::ImageStatus::Labeled);
        // "Review Them" closes the dialog and opens the review queue with the image that got boxes.
        QPointer<ui::AutoLabelDialog> closing(dialog);
        QVERIFY(button(dialog, "review")->isVisible());
        QTest::mouseClick(button(dialog, "review"), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return closing.isNull(); }, 5000)); // deleted on close
        QTRY_VERIFY(window.imageModel()->hasImageOrder());
        QVERIFY(window.imageModel()->rowOfImage(first) >= 0);
        QVERIFY(window.imageModel()->rowCount() >= 1);
        window.showImage(first); // back to the first image, inside the queue
        QVERIFY(QTest::qWaitFor([&] { return editor->session()->imageId() == first; }, 5000));
        QVERIFY(window.imageModel()->hasImageOrder());
        // A manual box, on the undo stack.
        QVERIFY(editor->session()->addBox(QRectF(2, 2, 30, 30)) != 0);
        QCOMPARE(editor->session()->undoStack()->count(), 1);

        // Close while running: the question is answered Yes, the run stops after its batch, the dialog goes.
        autoLabel->trigger();
        dialog = window.findChild<ui::AutoLabelDialog*>();
        QVERIFY(dialog);
        closing = dialog;
        dialog->setBatchSize(1);
        dialog->findChild<QComboBox*>("images")->setCurrentIndex(1); // all
        dialog->findChild<QComboBox*>("mode")->setCurrentIndex(1);   // replace
        bool asked = false;
        connect(dialog, &ui::AutoLabelDialog::progressed, this, [&, dialog](int done, int) {
            if (done != 1)
                return;
            QTimer::singleShot(0, this, [&] {
                auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
                if (box) {
                    asked = true;
                    box->button(QMessageBox::Yes)->click();
                }
            });
            QTest::keyClick(dialog, Qt::Key_Escape);
        });
        QTest::mouseClick(button(dialog, "start"), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return closing.isNull(); }, 60000));
        QVERIFY(asked);
        const Stored afterClose(folder);
        QTest::qWait(500);
        QCOMPARE(Stored(folder).totalBoxes, afterClose.totalBoxes); // nothing runs on
        // Replace: the first image's model boxes were replaced by the same proposals, the manual box stayed,
        // the undo history (which may refer to replaced boxes) was cleared, and the editor shows them all.
        QCOMPARE(afterClose.count(first, "person"), personBoxes + 1); // the manual box stays
        QCOMPARE(static_cast<int>(
                     std::count_if(afterClose.boxes.at(first).begin(), afterClose.boxes.at(first).end(),
                                   [](const auto& box) { return box.source == project::BoxSource::Model; })),
                 personBoxes);
        QCOMPARE(editor->session()->undoStack()->count(), 0);
        QCOMPARE(static_cast<int>(editor->session()->boxes().size()), personBoxes + 1);

        // Destroyed mid-run (the window closing): the worker is released and joined, no batch follows.
        autoLabel->trigger();
        dialog = window.findChild<ui::AutoLabelDialog*>();
        QVERIFY(dialog);
        dialog->setBatchSize(1);
        dialog->findChild<QComboBox*>("images")->setCurrentIndex(1);
        bool firstBatch = false;
        connect(dialog, &ui::AutoLabelDialog::progressed, this, [&](int, int) { firstBatch = true; });
        QTest::mouseClick(button(dialog, "start"), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return firstBatch; }, 60000));
        delete dialog;
        const Stored afterDelete(folder);
        QTest::qWait(500);
        QCOMPARE(Stored(folder).totalBoxes, afterDelete.totalBoxes);
    }
};

QTEST_MAIN(TestAutoLabelDialog)
#include "tst_auto_label_dialog.moc"
