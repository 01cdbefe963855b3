#pragma once
// TrainPanel: the training dashboard. The run form (TrainForm) with Start, Stop and Resume, the
// project's runs table, and the live view (TrainingView). Start runs `osprey-cli train ... events=jsonl`
// as a child process and feeds its stdout lines to a TrainingRunModel; Stop sends SIGTERM so the trainer
// finishes the batch and saves. Opening a past run replays its events.jsonl or results.csv.
// GUI thread only; owns the QProcess.

#include <QProcess>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace osprey::ui {

class ProjectDocument;
class TrainForm;
class TrainingRunModel;
class TrainingView;

class TrainPanel : public QWidget {
    Q_OBJECT
public:
    explicit TrainPanel(ProjectDocument* document, QWidget* parent = nullptr);
    /// A running trainer is asked to stop and given a few seconds to save.
    ~TrainPanel() override;

    /// The osprey-cli executable; defaults to the one beside the running program.
    void setTrainerPath(const QString& path) { m_trainerPath = path; }
    QString trainerPath() const { return m_trainerPath; }

    /// Starts a run with the form's settings; false with `error` when one is running or it cannot start.
    bool start(QString* error = nullptr);
    /// Resumes the stopped run `name` from its last.pt.
    bool resume(const QString& name, QString* error = nullptr);
    /// Asks the running trainer to finish the batch, save and exit (SIGTERM).
    void stop();
    bool isRunning() const;

    /// Re-reads the project's runs table.
    void reloadRuns();
    /// Shows a run's charts: the live model for the run in progress, otherwise a replay of its files,
    /// read on a worker thread; `runOpened` fires when the charts show it.
    void openRun(const QString& name);

    TrainForm* form() const { return m_form; }
    TrainingView* view() const { return m_view; }
    TrainingRunModel* liveModel() const { return m_live; }
    TrainingRunModel* replayModel() const { return m_replay; }
    QTableWidget* runsTable() const { return m_runs; }
    /// The arguments of the last started process (tests and the console show them).
    QStringList lastArguments() const { return m_lastArguments; }

    enum RunsColumn {
        ColumnName,
        ColumnStatus,
        ColumnModel,
        ColumnEpochs,
        ColumnBest,
        ColumnDuration,
        ColumnCount
    };

signals:
    /// The trainer process ended (after the model got its final status).
    void runEnded();
    /// openRun() finished; the view shows the run (a failed read shows its reason as the status).
    void runOpened(const QString& name);

private:
    bool launch(const QStringList& arguments, QString* error);
    void readOutput();
    void readErrors();
    void onFinished(int exitCode, QProcess::ExitStatus exitStatus);
    void onProcessError(QProcess::ProcessError error);
    void updateButtons();
    QString selectedRun() const;

    ProjectDocument* m_document;
    QString m_trainerPath;
    QProcess* m_process = nullptr;
    QByteArray m_pending; ///< a partial stdout line
    QStringList m_stderrTail;
    QStringList m_lastArguments;
    QString m_liveRunName;
    TrainForm* m_form;
    QPushButton* m_start;
    QPushButton* m_stop;
    QPushButton* m_resume;
    QPushButton* m_open;
    QTableWidget* m_runs;
    QLabel* m_runsEmpty;
    TrainingRunModel* m_live;
    TrainingRunModel* m_replay;
    TrainingView* m_view;
};

} // namespace osprey::ui
