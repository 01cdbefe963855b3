#include "ui/train/live_run.h"

#include "ui/train/trainer_process.h"
#include "ui/train/training_run_model.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace osprey::ui {

LiveRun::LiveRun(const QString& trainerFolder, QObject* parent)
    : QObject(parent), m_trainerPath(QCoreApplication::applicationDirPath() + QStringLiteral("/osprey-cli")),
      m_trainer(new TrainerProcess(trainerFolder, this)), m_model(new TrainingRunModel(this)) {
    connect(m_trainer, &TrainerProcess::lineReceived, this, &LiveRun::onLine);
    connect(m_trainer, &TrainerProcess::errorLine, this, &LiveRun::onErrorLine);
    connect(m_trainer, &TrainerProcess::finished, this, &LiveRun::onFinished);
    connect(m_trainer, &TrainerProcess::failedToStart, this, &LiveRun::onFailedToStart);
}

LiveRun::~LiveRun() {
    delete m_trainer;
    m_trainer = nullptr;
}

bool LiveRun::isRunning() const {
    return m_trainer && m_trainer->isRunning();
}

qint64 LiveRun::processId() const {
    return m_trainer->processId();
}

bool LiveRun::launch(const QString& projectFolder, const QStringList& arguments, QString* error) {
    if (isRunning()) {
        if (error)
            *error = tr("A run is already in progress. Stop it before starting another.");
        return false;
    }
    if (!QFileInfo(m_trainerPath).isExecutable()) {
        if (error)
            *error = tr("The trainer %1 was not found. Reinstall Osprey, or build the osprey-cli target.")
                         .arg(QDir::toNativeSeparators(m_trainerPath));
        return false;
    }
    const QStringList command =
        QStringList{QStringLiteral("train"), QStringLiteral("project=%1").arg(projectFolder)} + arguments +
        QStringList{QStringLiteral("events=jsonl")};
    m_stderrTail.clear();
    m_runName.clear();
    m_model->clear();
    if (!m_trainer->start(m_trainerPath, command, error))
        return false;
    m_lastArguments = command;
    m_model->appendLog(tr("$ osprey-cli %1").arg(m_lastArguments.join(QLatin1Char(' '))));
    return true;
}

void LiveRun::stop() {
    if (!isRunning())
        return;
    m_model->appendLog(tr("Stopping: the trainer finishes the batch and saves last.pt…"));
    m_trainer->terminate();
}

void LiveRun::kill() {
    if (!isRunning())
        return;
    m_model->appendLog(tr("Ending the trainer without waiting for it to save…"));
    m_trainer->kill();
}

qint64 LiveRun::detach() {
    if (!isRunning())
        return 0;
    const qint64 pid = m_trainer->detach();
    m_model->appendLog(tr("The run goes on in the background (process %1). Open it from the runs table "
                          "to see its progress.")
                           .arg(pid));
    return pid;
}

void LiveRun::onLine(const run::EventsLine& line) {
    // Events of unknown types (a newer writer) are skipped; lines that are not JSON are the trainer's text.
    if (line.event)
        m_model->ingestEvent(*line.event);
    else if (const QString text = QString::fromStdString(line.text).trimmed();
             line.error.code != "unknown_type" && !text.isEmpty())
        m_model->appendLog(text);
    if (m_runName.isEmpty() && !m_model->runDir().isEmpty()) {
        m_runName = QFileInfo(m_model->runDir()).fileName();
        emit runNamed(m_runName);
    }
}

void LiveRun::onErrorLine(const QString& line) {
    m_model->appendLog(line);
    m_stderrTail.append(line);
    while (m_stderrTail.size() > 5)
        m_stderrTail.removeFirst();
}

void LiveRun::onFinished(int exitCode, QProcess::ExitStatus exitStatus) {
    const auto status = m_model->status();
    const bool reported =
        status != TrainingRunModel::Status::Running && status != TrainingRunModel::Status::Empty;
    if (!reported) {
        const QString how =
            exitStatus == QProcess::CrashExit
                ? tr("The trainer process crashed")
                : tr("The trainer exited with code %1 without reporting the end of the run").arg(exitCode);
        const QString tail =
            m_stderrTail.isEmpty() ? QString() : tr(" Last output: %1").arg(m_stderrTail.last());
        m_model->markCrashed(how +
                             tr(". Weights up to the last saved checkpoint are kept; resume the run "
                                "to continue.") +
                             tail);
    }
    emit ended();
}

void LiveRun::onFailedToStart(const QString& message) {
    m_model->markCrashed(tr("Could not start %1: %2").arg(QDir::toNativeSeparators(m_trainerPath), message));
    emit ended();
}

} // namespace osprey::ui
