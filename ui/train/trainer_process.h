#pragma once
// TrainerProcess: the `osprey-cli train ... events=jsonl` child process of the dashboard. Its stdout and
// stderr go to spool files (not pipes) that are read back every 100 ms, so the trainer never notices the
// GUI going away: detach() lets a run outlive the window, and it keeps writing its run folder
// (events.jsonl, results.csv, weights) where the runs table finds it later. The child runs in its own
// session, so a terminal's hangup or Ctrl+C does not reach it either. GUI thread only.

#include "run/events_tail.h"

#include <QByteArray>
#include <QFile>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <optional>

class QTimer;

namespace osprey::ui {

class TrainerProcess : public QObject {
    Q_OBJECT
public:
    /// `spoolDir` holds the output files while the process runs (created on demand).
    explicit TrainerProcess(const QString& spoolDir, QObject* parent = nullptr);
    /// A running, attached trainer is asked to stop (SIGTERM) and given 15 s to save, then killed.
    ~TrainerProcess() override;

    /// Starts `program` with `arguments`; false with `error` when the spool files cannot be created.
    /// A program that cannot be executed is reported through failedToStart.
    bool start(const QString& program, const QStringList& arguments, QString* error = nullptr);
    bool isRunning() const;
    /// The child's process id, 0 when none runs.
    qint64 processId() const;
    /// SIGTERM: the trainer finishes the batch, saves last.pt and exits.
    void terminate();
    /// SIGKILL, for a trainer that does not stop.
    void kill();
    /// Lets the trainer run on without this object (and without the GUI): no more signals, and the
    /// destructor leaves it alone. Returns its process id (0 when nothing ran).
    qint64 detach();
    bool isDetached() const { return m_detached; }
    /// Whether `pid` is a running `osprey-cli train` (read from /proc on Linux: the program, or a script
    /// run by an interpreter, named osprey-cli..., with the verb train; false elsewhere, for a process
    /// that has ended, and for a pid reused by another program).
    static bool isTrainer(qint64 pid);
    /// SIGTERM to a trainer this object did not start (one an earlier session left training in the
    /// background): it finishes the batch, saves and exits. False when `pid` is not a running trainer.
    static bool terminateTrainer(qint64 pid);

    /// The spool files of the current process (tests).
    QString stdoutPath() const { return m_out.fileName(); }

signals:
    /// One stdout line (core/run's events tail reads the spooled stdout): an event, or the trainer's text.
    void lineReceived(const osprey::run::EventsLine& line);
    /// One non-empty stderr line.
    void errorLine(const QString& line);
    /// The process ended; every line was delivered before this.
    void finished(int exitCode, QProcess::ExitStatus status);
    /// The program could not be executed.
    void failedToStart(const QString& message);

private:
    void poll();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    /// Emits the stdout lines the trainer appended since the last read.
    void readOut(run::EventsTail::Partial partial);
    void removeSpoolFiles();

    QString m_spoolDir;
    QProcess* m_process = nullptr;
    QFile m_out;
    QFile m_err;
    std::optional<run::EventsTail> m_outTail; ///< reads m_out while the process runs
    QByteArray m_errPending;
    QTimer* m_poll;
    bool m_detached = false;
};

} // namespace osprey::ui
