// Closing the main window while a run is in progress, offscreen, with the dialog answered by the test:
// Cancel keeps the window and the run; "Stop and Save" waits for the trainer to save and end; "Keep
// Training in Background" closes the window and the trainer outlives it.

#include "demo/demo_dataset.h"
#include "ui/main/main_window.h"
#include "ui/train/train_actions.h"
#include "ui/train/train_panel.h"
#include "ui/train/training_run_model.h"

#include <QAbstractButton>
#include <QApplication>
#include <QFile>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <csignal>
#include <sys/types.h>

using namespace osprey;

namespace {

void writeScript(const QString& path, const QByteArray& body) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("#!/bin/sh\n" + body);
    file.close();
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

// A stand-in trainer: reports its start, appends a heartbeat line to `beats` every 50 ms and prints
// events on stdout; on SIGTERM it "saves" (writes `saved`), reports `finished` (stopped) and exits.
QByteArray trainerScript(const QString& beats, const QString& saved) {
    return "trap 'touch \"" + saved.toUtf8() +
           "\"; echo \"{\\\"type\\\":\\\"finished\\\",\\\"v\\\":1,\\\"t\\\":9,\\\"status\\\":\\\"stopped\\\","
           "\\\"epochs_completed\\\":1,\\\"message\\\":\\\"stopped\\\"}\"; exit 0' TERM\n"
           "echo '{\"type\":\"run_started\",\"v\":1,\"t\":0,\"epochs\":50,\"run_dir\":\"x/runs/bg\","
           "\"model\":{\"name\":\"yolov8n\"}}'\n"
           "while :; do\n"
           "  echo beat >> \"" +
           beats.toUtf8() +
           "\"\n"
           "  echo '{\"type\":\"log\",\"v\":1,\"t\":1,\"level\":\"info\",\"message\":\"working\"}'\n"
           "  sleep 0.05\n"
           "done\n";
}

// Clicks `button` of the message box named `dialog` as soon as it shows (the dialog runs its own loop).
void answer(const QString& dialog, const QString& button) {
    auto* timer = new QTimer;
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, dialog, button] {
        for (QWidget* widget : QApplication::topLevelWidgets()) {
            auto* box = qobject_cast<QMessageBox*>(widget);
            if (!box || box->objectName() != dialog || !box->isVisible())
                continue;
            auto* target = box->findChild<QAbstractButton*>(button);
            QVERIFY2(target, qPrintable(button));
            timer->deleteLater();
            if (const QString shots = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR"); !shots.isEmpty())
                box->grab().save(shots + "/close-while-training.png");
            target->click();
            return;
        }
    });
    timer->start();
}

// A stand-in for a trainer an earlier session left in the background: it writes its run folder's
// events.jsonl (run_started with its pid, then a log line every 50 ms); on SIGTERM it "saves" (writes
// `saved`), appends `finished` (stopped) and exits.
QByteArray backgroundTrainerScript(const QString& events, const QString& saved) {
    // JSON double quotes are written as \042 by printf, which keeps the shell quoting simple.
    QByteArray script =
        "trap 'touch \"SAVED\"; printf '\\''{\\042type\\042:\\042finished\\042,\\042v\\042:1,\\042t\\042:9,"
        "\\042status\\042:\\042stopped\\042,\\042epochs_completed\\042:1,\\042message\\042:\\042stopped\\042}"
        "\\n'\\'' "
        ">> \"EVENTS\"; exit 0' TERM\n"
        "printf '{\\042type\\042:\\042run_started\\042,\\042v\\042:1,\\042t\\042:0,\\042epochs\\042:50,"
        "\\042run_dir\\042:\\042runs/bg\\042,\\042pid\\042:%d}\\n' $$ >> \"EVENTS\"\n"
        "while :; do\n"
        "  printf '{\\042type\\042:\\042log\\042,\\042v\\042:1,\\042t\\042:1,\\042level\\042:\\042info\\042,"
        "\\042message\\042:\\042working\\042}\\n' >> \"EVENTS\"\n"
        "  sleep 0.05\n"
        "done\n";
    return script.replace("EVENTS", events.toUtf8()).replace("SAVED", saved.toUtf8());
}

qint64 lineCount(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    return file.readAll().count('\n');
}

bool processAlive(qint64 pid) {
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    // "pid (name) S ...": a zombie ('Z') has ended.
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close > 0 && close + 2 < text.size() && text[close + 2] != 'Z';
}

} // namespace

class TestCloseWhileTraining : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init();
    void cleanup();
    void cancelKeepsWindowAndRun();
    void stopWaitsForTheSave();
    void keepRunningOutlivesTheWindow();
    void laterSessionStopsTheBackgroundRun();
    void laterSessionSeesTheBackgroundRunDie();

private:
    /// Starts the background stand-in for run `bg` (as a session that ended would have left it) and
    /// opens that run in a new window's dashboard; returns the trainer's pid (0 on failure).
    qint64 openBackgroundRun(ui::MainWindow& window);
    ui::TrainPanel* startRun(ui::MainWindow& window);

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_beats, m_saved;
    qint64 m_strayPid = 0;
};

void TestCloseWhileTraining::init() {
    m_dir = std::make_unique<QTemporaryDir>();
    demo::DemoOptions options;
    options.images = 8;
    options.imageSizePx = 64;
    QVERIFY(demo::createDemoProject(m_dir->filePath("demo").toStdString(), options).hasValue());
    m_beats = m_dir->filePath("beats");
    m_saved = m_dir->filePath("saved");
    writeScript(m_dir->filePath("fake-cli"), trainerScript(m_beats, m_saved));
}

void TestCloseWhileTraining::cleanup() {
    if (m_strayPid > 0 && processAlive(m_strayPid))
        ::kill(pid_t(m_strayPid), SIGKILL);
    m_strayPid = 0;
}

ui::TrainPanel* TestCloseWhileTraining::startRun(ui::MainWindow& window) {
    window.resize(1100, 700);
    window.show();
    if (!window.openProject(m_dir->filePath("demo"), true))
        return nullptr;
    window.trainActions()->showDashboard();
    ui::TrainPanel* panel = window.trainActions()->panel();
    panel->setTrainerPath(m_dir->filePath("fake-cli"));
    QString error;
    if (!panel->start(&error))
        return nullptr;
    m_strayPid = panel->trainerProcessId();
    // Running for real: heartbeats arrive.
    if (!QTest::qWaitFor([this] { return lineCount(m_beats) >= 2; }, 10000))
        return nullptr;
    return panel;
}

void TestCloseWhileTraining::cancelKeepsWindowAndRun() {
    ui::MainWindow window;
    ui::TrainPanel* panel = startRun(window);
    QVERIFY(panel);
    answer("closeWhileTraining", "cancel");
    QVERIFY(!window.close());
    QVERIFY(window.isVisible());
    QVERIFY(panel->isRunning());
    const qint64 before = lineCount(m_beats);
    QTRY_VERIFY_WITH_TIMEOUT(lineCount(m_beats) > before, 5000);
}

void TestCloseWhileTraining::stopWaitsForTheSave() {
    ui::MainWindow window;
    ui::TrainPanel* panel = startRun(window);
    QVERIFY(panel);
    answer("closeWhileTraining", "stopRun");
    QVERIFY(window.close()); // returns only after the trainer ended
    QVERIFY(!window.isVisible());
    QVERIFY(!panel->isRunning());
    QVERIFY(QFile::exists(m_saved)); // it got SIGTERM and saved
    QCOMPARE(panel->liveModel()->status(), ui::TrainingRunModel::Status::Stopped);
    QVERIFY(!processAlive(m_strayPid));
}

void TestCloseWhileTraining::keepRunningOutlivesTheWindow() {
    qint64 pid = 0;
    {
        auto window = std::make_unique<ui::MainWindow>();
        ui::TrainPanel* panel = startRun(*window);
        QVERIFY(panel);
        pid = panel->trainerProcessId();
        QVERIFY(pid > 0);
        answer("closeWhileTraining", "keepRunning");
        QVERIFY(window->close());
        QVERIFY(!panel->isRunning()); // detached: no longer this GUI's run
        window.reset();               // the panel, the project and the process object go away
    }
    // The trainer goes on: still alive, still writing, and it never got SIGTERM.
    const qint64 before = lineCount(m_beats);
    QTest::qWait(400);
    QVERIFY(processAlive(pid));
    QVERIFY(lineCount(m_beats) > before);
    QVERIFY(!QFile::exists(m_saved));
}

qint64 TestCloseWhileTraining::openBackgroundRun(ui::MainWindow& window) {
    const QString runDir = m_dir->filePath("demo/runs/bg");
    if (!QDir().mkpath(runDir))
        return 0;
    // Named like the real tool, so that the dashboard recognises it in /proc.
    const QString script = m_dir->filePath("osprey-cli-stand-in");
    writeScript(script, backgroundTrainerScript(runDir + "/events.jsonl", m_saved));
    qint64 pid = 0;
    if (!QProcess::startDetached(script, {"train"}, m_dir->path(), &pid))
        return 0;
    m_strayPid = pid;
    if (!QTest::qWaitFor([&] { return lineCount(runDir + "/events.jsonl") >= 3; }, 10000))
        return 0;
    window.resize(1100, 700);
    window.show();
    if (!window.openProject(m_dir->filePath("demo"), true))
        return 0;
    window.trainActions()->showDashboard();
    ui::TrainPanel* panel = window.trainActions()->panel();
    QSignalSpy opened(panel, &ui::TrainPanel::runOpened);
    panel->openRun("bg");
    if (!opened.wait(5000))
        return 0;
    return pid;
}

void TestCloseWhileTraining::laterSessionStopsTheBackgroundRun() {
    ui::MainWindow window;
    const qint64 pid = openBackgroundRun(window);
    QVERIFY(pid > 0);
    ui::TrainPanel* panel = window.trainActions()->panel();
    QCOMPARE(panel->replayModel()->trainerPid(), pid);
    QCOMPARE(panel->replayModel()->status(), ui::TrainingRunModel::Status::Running);
    QVERIFY(!panel->isRunning()); // not this session's child
    auto* stop = panel->findChild<QPushButton*>("stopTraining");
    QVERIFY(stop);
    QTRY_VERIFY(stop->isEnabled());
    QTest::mouseClick(stop, Qt::LeftButton);
    // SIGTERM reached it: it saved, wrote `finished` (stopped) and ended; the dashboard followed.
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(m_saved), 5000);
    QTRY_COMPARE_WITH_TIMEOUT(panel->replayModel()->status(), ui::TrainingRunModel::Status::Stopped, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid), 5000);
    QTRY_VERIFY(!stop->isEnabled());
}

void TestCloseWhileTraining::laterSessionSeesTheBackgroundRunDie() {
    ui::MainWindow window;
    const qint64 pid = openBackgroundRun(window);
    QVERIFY(pid > 0);
    ui::TrainPanel* panel = window.trainActions()->panel();
    QCOMPARE(panel->replayModel()->status(), ui::TrainingRunModel::Status::Running);
    // Killed without a chance to write `finished`: the dashboard says so instead of waiting forever.
    QVERIFY(::kill(pid_t(pid), SIGKILL) == 0);
    QTRY_COMPARE_WITH_TIMEOUT(panel->replayModel()->status(), ui::TrainingRunModel::Status::Crashed, 5000);
    QVERIFY(panel->replayModel()->statusMessage().contains("ended without finishing"));
    QVERIFY(!QFile::exists(m_saved));
    QVERIFY(!panel->findChild<QPushButton*>("stopTraining")->isEnabled());
}

QTEST_MAIN(TestCloseWhileTraining)
#include "tst_close_while_training.moc"
