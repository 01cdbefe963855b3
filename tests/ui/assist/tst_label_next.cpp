// "Choose Images to Label Next…" in the main window: the dialog draws `osprey-cli select`'s declared
// settings, refuses the uncertainty strategy without a model, measures the unlabelled images with the
// Ultralytics-trained shapes model on a worker thread (the window stays live), saves the label-next queue and
// proposes boxes on the picks; the image list then shows exactly the picks in queue order and the status
// bar says why the image shown was picked. Real widgets (offscreen); the database is read back through a
// second connection. With OSPREY_SCREENSHOT_DIR set, the dialog and the queue are saved as PNGs there.
#include "assist/label_selector.h"
#include "assist/review_queue.h"
#include "fixtures.h"
#include "ui/annotate/annotation_editor.h"
#include "ui/annotate/annotation_session.h"
#include "ui/assist/assist_controller.h"
#include "ui/assist/label_next_dialog.h"
#include "ui/assist/review_queue_actions.h"
#include "ui/common/option_form.h"
#include "ui/main/main_window.h"
#include "ui/project/image_list_model.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace osprey;

namespace {

const std::filesystem::path kTrained = test::fixture("models/ultralytics-trained");

} // namespace

class TestLabelNext : public QObject {
    Q_OBJECT
private:
    QString m_folder;
    QString m_shots;

    void shoot(QWidget* widget, const QString& name) {
        if (!m_shots.isEmpty())
            widget->grab().save(m_shots + "/" + name + ".png");
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        m_shots = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR");
        static QTemporaryDir dir;
        m_folder = dir.filePath("p");
        auto project = project::Project::create(m_folder.toStdString());
        QVERIFY(project);
        for (const char* name : {"circle", "square", "triangle", "star"})
            QVERIFY((*project)->classes().add(name));
        for (int i = 0; i < 12; ++i) {
            char file[32];
            std::snprintf(file, sizeof(file), "val_%05d.jpg", i);
            QVERIFY((*project)->images().add({(kTrained / "shapes13/images/val" / file).string(), 320, 320}));
        }
    }

    void refusesTheUncertaintyStrategyWithoutAModel() {
        ui::MainWindow window;
        QVERIFY(window.openProject(m_folder, true));
        ui::LabelNextDialog dialog(window.editor()->session()->document(), assist::ModelSource{});
        auto* start = dialog.findChild<QPushButton*>("start");
        QVERIFY(start);
        QCOMPARE(dialog.settings()->value("strategy").toString(), QString("uncertainty"));
        QCOMPARE(dialog.settings()->value("n").toInt(), 200);
        QCOMPARE(dialog.settings()->value("propose").toBool(), true);
        QVERIFY(!start->isEnabled());
        QVERIFY(dialog.statusText().contains("needs a model"));
        // Diversity needs none.
        auto* strategy = qobject_cast<QComboBox*>(dialog.settings()->editor("strategy"));
        QVERIFY(strategy);
        strategy->setCurrentIndex(strategy->findData("diversity"));
        QVERIFY(start->isEnabled());
    }

    void picksShowsTheQueueAndSaysWhy() {
        ui::MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(window.openProject(m_folder, true));
        // The editor's active model is what the dialog starts with.
        const assist::ModelSource model{kTrained / "yolov8n-shapes-best.pt", {}, {}, "cpu"};
        window.editor()->assist()->setModel(model);
        QAction* action = window.findChild<QAction*>("assist.labelNext");
        QVERIFY(action);
        QVERIFY(action->isEnabled());
        action->trigger();
        auto* dialog = window.findChild<ui::LabelNextDialog*>();
        QVERIFY(dialog);
        QCOMPARE(dialog->model().model, model.model);
        QVERIFY(dialog->settings()->setValue("n", 4));
        shoot(dialog, "label-next-dialog");

        ui::ReviewQueueActions* queue = window.editor()->reviewQueue();
        QSignalSpy opened(queue, &ui::ReviewQueueActions::queueOpened);
        QSignalSpy messages(queue, &ui::ReviewQueueActions::message);
        QPointer<ui::LabelNextDialog> alive(dialog);
        dialog->findChild<QPushButton*>("start")->click();
        QVERIFY(dialog->isRunning());
        // The GUI thread keeps serving events while the worker measures.
        QElapsedTimer live;
        live.start();
        QCoreApplication::processEvents();
        QVERIFY(live.elapsed() < 500);
        QVERIFY(opened.wait(180000) || opened.count() == 1);
        QCOMPARE(opened.takeFirst().at(0).toInt(), 4);
        QVERIFY(!alive); // accepted and deleted on close

        // The queue as stored, the list in its order, and the reason of the first image in the status bar.
        auto project = project::Project::open(m_folder.toStdString());
        auto saved = assist::labelNextQueue(**project);
        QVERIFY(saved);
        QCOMPARE(saved->size(), size_t(4));
        ui::ImageListModel* list = window.imageModel();
        QVERIFY(list->hasImageOrder());
        QCOMPARE(list->rowCount(), 4);
        for (int row = 0; row < 4; ++row)
            QCOMPARE(list->imageIdAt(row), (*saved)[static_cast<size_t>(row)].imageId);
        QVERIFY(list->imageOrderTitle().contains("Label next"));
        QCOMPARE(window.editor()->session()->imageId(), (*saved)[0].imageId);
        bool said = false;
        for (const auto& args : messages)
            said = said || args.at(0).toString().startsWith("Picked to label next: Uncertain ");
        QVERIFY(said);
        QCOMPARE(ui::ReviewQueueActions::reasonText((*saved)[0]).left(10), QString("Uncertain "));
        // The picks carry the model's proposals for review; nothing else changed.
        auto review = assist::reviewQueue(**project);
        QVERIFY(review);
        QCOMPARE(review->needingReview, 4);
        QCOMPARE(*(*project)->images().count(project::ImageQuery{.status = project::ImageStatus::New}),
                 std::int64_t(8));
        shoot(&window, "label-next-queue");

        // Walking to the next image says why that one was picked.
        messages.clear();
        window.editor()->nextImage();
        QCOMPARE(window.editor()->session()->imageId(), (*saved)[1].imageId);
        QVERIFY(!messages.isEmpty());
        QCOMPARE(messages.last().at(0).toString(),
                 "Picked to label next: " + ui::ReviewQueueActions::reasonText((*saved)[1]));
    }
};

QTEST_MAIN(TestLabelNext)
#include "tst_label_next.moc"
