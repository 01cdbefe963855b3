// Before a run starts: the dataset health check runs off the GUI thread; errors block the start with a
// list, warnings ask and "Start Anyway" starts; a healthy dataset starts at once. The device field
// lists the GPUs the NVIDIA driver (a stand-in NVML) reports, or only the CPU with "no NVIDIA GPU found".

#include "demo/demo_dataset.h"
#include "ui/project/project_document.h"
#include "ui/train/gpu_probe.h"
#include "ui/train/train_panel.h"
#include "ui/train/train_preflight.h"
#include "ui/train/train_settings.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace osprey;
using namespace osprey::ui;

namespace {

void writeScript(const QString& path, const QByteArray& body) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("#!/bin/sh\n" + body);
    file.close();
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

// A stand-in trainer that reports a short run, so "started" is observable as runEnded.
const QByteArray kTrainer =
    "echo '{\"type\":\"run_started\",\"v\":1,\"t\":0,\"epochs\":1,\"run_dir\":\"x/runs/r\","
    "\"model\":{\"name\":\"yolov8n\"}}'\n"
    "echo '{\"type\":\"finished\",\"v\":1,\"t\":1,\"status\":\"finished\","
    "\"epochs_completed\":1,\"message\":\"done\"}'\n";

struct DemoFixture {
    QTemporaryDir dir;
    std::unique_ptr<ProjectDocument> document;
    QString trainer;

    bool create() {
        demo::DemoOptions options;
        options.images = 12;
        options.imageSizePx = 96;
        if (!demo::createDemoProject(dir.filePath("demo").toStdString(), options))
            return false;
        QString error;
        document = ProjectDocument::open(dir.filePath("demo"), &error);
        trainer = dir.filePath("fake-cli");
        writeScript(trainer, kTrainer);
        return document != nullptr;
    }
};

QMessageBox* waitForDialog(QObject* parent, const char* name) {
    QMessageBox* box = nullptr;
    const bool shown = QTest::qWaitFor(
        [&] { return (box = parent->findChild<QMessageBox*>(name)) && box->isVisible(); }, 20000);
    return shown ? box : nullptr;
}

} // namespace

class TestTrainPreflight : public QObject {
    Q_OBJECT
private slots:
    void healthyDatasetStartsAtOnce();
    void errorsBlockTheStart();
    void warningsAskBeforeStarting();
    void deviceFieldListsTheGpusFound();
    void noGpuMeansCpuOnlyWithANote();
};

void TestTrainPreflight::healthyDatasetStartsAtOnce() {
    DemoFixture fixture;
    QVERIFY(fixture.create());
    TrainPanel panel(fixture.document.get());
    panel.setTrainerPath(fixture.trainer);
    QSignalSpy checked(&panel, &TrainPanel::preflightFinished);
    QSignalSpy ended(&panel, &TrainPanel::runEnded);
    QString error;
    QVERIFY2(panel.requestStart(&error), qPrintable(error));
    QVERIFY(panel.preflight()->isRunning() || checked.count() == 1);
    QVERIFY(!panel.requestStart(&error)); // one check at a time
    QVERIFY(checked.wait(20000));
    const auto result = checked.first().first().value<PreflightResult>();
    QVERIFY2(result.errors.isEmpty() && result.warnings.isEmpty(), qPrintable(result.warnings.join('\n')));
    QCOMPARE(result.images, 12);
    QVERIFY(ended.wait(10000));
    QVERIFY(panel.lastArguments().contains("events=jsonl"));
    QVERIFY(!panel.findChild<QMessageBox*>());
}

void TestTrainPreflight::errorsBlockTheStart() {
    DemoFixture fixture;
    QVERIFY(fixture.create());
    const auto images = fixture.document->project().images().list();
    QVERIFY(images && images->size() == 12);
    const QString missing = fixture.document->imageFilePath(images->at(3));
    QVERIFY(QFile::remove(missing));

    TrainPanel panel(fixture.document.get());
    panel.setTrainerPath(fixture.trainer);
    QSignalSpy checked(&panel, &TrainPanel::preflightFinished);
    QSignalSpy ended(&panel, &TrainPanel::runEnded);
    QString error;
    QVERIFY(panel.requestStart(&error));
    QMessageBox* box = waitForDialog(&panel, "trainPreflightErrors");
    QVERIFY(box);
    QCOMPARE(checked.count(), 1);
    const auto result = checked.first().first().value<PreflightResult>();
    QVERIFY(result.blocksStart());
    QCOMPARE(result.errors.size(), 1);
    QVERIFY2(result.errors.first().startsWith("missing image files: 1, e.g. "),
             qPrintable(result.errors.first()));
    QVERIFY(result.errors.first().contains(QFileInfo(missing).fileName()));
    QVERIFY(box->text().contains("cannot start"));
    QVERIFY(box->informativeText().contains("missing image files"));
    QVERIFY(box->informativeText().contains(QFileInfo(missing).fileName()));
    QCOMPARE(box->buttons().size(), 1); // no way around an error
    if (const QString shots = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR"); !shots.isEmpty())
        box->grab().save(shots + "/preflight-errors.png");
    box->button(QMessageBox::Ok)->click();
    QVERIFY(!ended.wait(500));
    QVERIFY(!panel.isRunning());
    QVERIFY(panel.lastArguments().isEmpty());
}

void TestTrainPreflight::warningsAskBeforeStarting() {
    DemoFixture fixture;
    QVERIFY(fixture.create());
    // A box drawn twice is a warning: training may go on.
    auto& project = fixture.document->project();
    const auto images = project.images().list();
    QVERIFY(images && !images->empty());
    std::int64_t imageWithBoxes = 0;
    for (const auto& image : *images)
        if (!project.boxes().ofImage(image.id)->empty()) {
            imageWithBoxes = image.id;
            break;
        }
    QVERIFY(imageWithBoxes > 0);
    const auto first = project.boxes().ofImage(imageWithBoxes)->front();
    project::NewBox copy;
    copy.imageId = imageWithBoxes;
    copy.classId = first.classId;
    copy.x1 = first.x1;
    copy.y1 = first.y1;
    copy.x2 = first.x2;
    copy.y2 = first.y2;
    QVERIFY(project.boxes().add(copy).hasValue());

    TrainPanel panel(fixture.document.get());
    panel.setTrainerPath(fixture.trainer);
    QSignalSpy ended(&panel, &TrainPanel::runEnded);
    QString error;
    // Cancel: nothing starts.
    QVERIFY(panel.requestStart(&error));
    QMessageBox* box = waitForDialog(&panel, "trainPreflightWarnings");
    QVERIFY(box);
    QVERIFY(box->informativeText().contains("duplicated boxes"));
    box->findChild<QPushButton*>("cancel")->click();
    QVERIFY(!ended.wait(500));
    QVERIFY(panel.lastArguments().isEmpty());
    QTRY_VERIFY(!panel.findChild<QMessageBox*>("trainPreflightWarnings"));

    // Start Anyway: the run starts.
    QVERIFY(panel.requestStart(&error));
    box = waitForDialog(&panel, "trainPreflightWarnings");
    QVERIFY(box);
    if (const QString shots = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR"); !shots.isEmpty())
        box->grab().save(shots + "/preflight-warnings.png");
    box->findChild<QPushButton*>("startAnyway")->click();
    QVERIFY(ended.wait(10000));
    QVERIFY(panel.lastArguments().contains("events=jsonl"));
}

void TestTrainPreflight::deviceFieldListsTheGpusFound() {
    QTemporaryDir dir;
    QString error;
    auto document = ProjectDocument::create(dir.filePath("p"), &error);
    QVERIFY(document);
    TrainPanel panel(document.get());
    QSignalSpy probed(panel.gpuProbe(), &GpuProbe::finished);
    // The stand-in NVIDIA driver (tests/core/system/fake_nvml.cpp) has an H200 and an RTX 4090.
    panel.gpuProbe()->setLibrary(OSPREY_FAKE_NVML);
    panel.gpuProbe()->start(); // supersedes the panel's own probe of the real driver
    QVERIFY(probed.wait(5000));
    QTest::qWait(50);
    QCOMPARE(probed.count(), 1);
    auto* device = panel.form()->findChild<QComboBox*>("device");
    QCOMPARE(device->count(), 3);
    QCOMPARE(device->itemText(0), QString("GPU 0: NVIDIA H200 (140 GB)"));
    QCOMPARE(device->itemText(1), QString("GPU 1: NVIDIA GeForce RTX 4090 (24 GB)"));
    QCOMPARE(device->itemText(2), QString("CPU"));
    QVERIFY(panel.form()->note("device").isEmpty());
    // The CPU stays the default (a CPU-only LibTorch cannot train on a GPU); choosing a GPU passes its index.
    QVERIFY(panel.form()->trainArguments().contains("device=cpu"));
    QVERIFY(panel.form()->setValue("device", "1"));
    QCOMPARE(device->currentText(), QString("GPU 1: NVIDIA GeForce RTX 4090 (24 GB)"));
    QVERIFY(panel.form()->trainArguments().contains("device=1"));
}

void TestTrainPreflight::noGpuMeansCpuOnlyWithANote() {
    QTemporaryDir dir;
    QString error;
    auto document = ProjectDocument::create(dir.filePath("p"), &error);
    QVERIFY(document);
    TrainPanel panel(document.get());
    auto* device = panel.form()->findChild<QComboBox*>("device");
    QSignalSpy probed(panel.gpuProbe(), &GpuProbe::finished);

    // No NVIDIA driver.
    panel.gpuProbe()->setLibrary(dir.filePath("libnvidia-ml.so.1"));
    panel.gpuProbe()->start();
    QVERIFY(probed.wait(5000));
    QCOMPARE(device->count(), 1);
    QCOMPARE(device->itemText(0), QString("CPU"));
    QCOMPARE(panel.form()->note("device"), QString("no NVIDIA GPU found"));

    // A driver that fails to initialise says why.
    panel.gpuProbe()->setLibrary(OSPREY_FAKE_NVML_BROKEN);
    panel.gpuProbe()->start();
    QVERIFY(probed.wait(5000));
    QCOMPARE(device->count(), 1);
    QCOMPARE(panel.form()->note("device"),
             QString("no NVIDIA GPU: the NVIDIA driver is not working (NVML error 9)"));
    QVERIFY(panel.form()->trainArguments().contains("device=cpu"));

    // Two probes in a row: only the newer one reports.
    const int before = probed.count();
    panel.gpuProbe()->setLibrary(OSPREY_FAKE_NVML_BROKEN);
    panel.gpuProbe()->start();
    panel.gpuProbe()->setLibrary(OSPREY_FAKE_NVML);
    panel.gpuProbe()->start();
    QTRY_VERIFY_WITH_TIMEOUT(!panel.gpuProbe()->isRunning(), 5000);
    QCOMPARE(probed.count(), before + 1);
    QCOMPARE(device->count(), 3);
}

QTEST_MAIN(TestTrainPreflight)
#include "tst_train_preflight.moc"
