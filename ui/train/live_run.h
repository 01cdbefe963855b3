#pragma once
// LiveRun: the run this window trains. It starts `osprey-cli train project=P ... events=jsonl` as a
// child process (TrainerProcess), feeds its stdout lines to the live TrainingRunModel (its stderr to the
// console), and turns an exit without a final event into a "crashed" status that says what to do. Stop
// sends SIGTERM (finish the batch, save); a detached run goes on without the GUI. GUI thread only; owns
// the trainer process.

#include "run/events_tail.h"

#include <QObject>
#include <QProcess>
#include <QStringList>

namespace osprey::ui {

class TrainerProcess;
class TrainingRunModel;

class LiveRun : public QObject {
    Q_OBJECT
public:
    /// `trainerFolder` holds the trainer's stdout log (TrainerProcess).
    explicit LiveRun(const QString& trainerFolder, QObject* parent = nullptr);
    /// Stops (and waits for) an attached trainer while its model still exists.
    ~LiveRun() override;

    void setTrainerPath(const QString& path) { m_trainerPath = path; }
    const QString& trainerPath() const { return m_trainerPath; }

    /// Starts the trainer on `projectFolder` with `arguments` (key=value); false with `error` when one is
    /// running or the trainer cannot be found or started.
    bool launch(const QString& projectFolder, const QStringList& arguments, QString* error);
    /// Asks the trainer to finish the batch, save and exit (SIGTERM).
    void stop();
    /// Ends the trainer at once (SIGKILL); the weights up to the last checkpoint stay.
    void kill();
    /// Lets the trainer go on without the GUI; returns its process id (0 when none ran).
    qint64 detach();
    bool isRunning() const;
    qint64 processId() const;

    TrainingRunModel* model() const { return m_model; }
    /// The run folder's name once the trainer reported it (run_started), else empty.
    const QString& runName() const { return m_runName; }
    /// The full argument list of the last started trainer.
    const QStringList& lastArguments() const { return m_lastArguments; }

signals:
    /// The run's folder is known (the runs table has a new row).
    void runNamed(const QString& name);
    /// The trainer process ended (after the model got its final status).
    void ended();

private:
    void onLine(const run::EventsLine& line);
    void onErrorLine(const QString& line);
    void onFinished(int exitCode, QProcess::ExitStatus exitStatus);
    void onFailedToStart(const QString& message);

    QString m_trainerPath;
    TrainerProcess* m_trainer;
    TrainingRunModel* m_model;
    QStringList m_stderrTail;
    QStringList m_lastArguments;
    QString m_runName;
};

} // namespace osprey::ui
