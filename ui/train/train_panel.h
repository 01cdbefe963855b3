#pragma once
// TrainPanel: the training dashboard, composed of the run form (TrainForm, drawn from core/run's
// options) with Start and Stop, the project's runs (RunsTable), and the charts (TrainingView) showing
// the live run or what RunViewer replays, overlays or follows. Start first runs the dataset health check
// (TrainPreflight: errors block, warnings ask), then runs `osprey-cli train ... events=jsonl` as a child
// process (TrainerProcess) and feeds its stdout lines to the live TrainingRunModel; Stop sends SIGTERM so
// the trainer finishes the batch and saves. The device field lists the GPUs GpuProbe finds.
// GUI thread only; owns the trainer process.

#include <QList>
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace osprey::ui {

class ConfusionMatrixDialog;
class GpuProbe;
class LiveRun;
class PlannerPanel;
class ProjectDocument;
class RunDiffPanel;
class RunViewer;
class RunsTable;
class TrainForm;
class TrainPreflight;
class TrainingRunModel;
class TrainingView;
struct GpuDevice;
struct PreflightResult;

class TrainPanel : public QWidget {
    Q_OBJECT
public:
    explicit TrainPanel(ProjectDocument* document, QWidget* parent = nullptr);
    /// A running trainer is asked to stop and given a few seconds to save.
    ~TrainPanel() override;

    /// The osprey-cli executable; defaults to the one beside the running program.
    void setTrainerPath(const QString& path);
    QString trainerPath() const;

    /// Checks the dataset on a worker thread, then starts: errors show a dialog and block, warnings show
    /// a dialog whose "Start Anyway" starts. `preflightFinished` fires when the check is done. False
    /// with `error` when the form is incomplete or a run or a check is already in progress.
    bool requestStart(QString* error = nullptr);
    /// Starts a run with the form's settings at once (no dataset check); false with `error` when one is
    /// running, the form is incomplete or the trainer cannot be found. With "Stream to platform" on, the
    /// platform project is remembered as the project's `remote.project` setting.
    bool start(QString* error = nullptr);
    /// Resumes the stopped run `name` from its last.pt.
    bool resume(const QString& name, QString* error = nullptr);
    /// Starts a new run that fine-tunes run `name`'s best.pt on the project as it is now, with that run's
    /// options (run::retrainArguments).
    bool retrain(const QString& name, QString* error = nullptr);
    /// Asks the running trainer to finish the batch, save and exit (SIGTERM). Without one, the trainer
    /// of the run being followed (one left training in the background by an earlier session) is asked.
    void stop();
    /// Ends the trainer at once (SIGKILL); the weights up to the last checkpoint stay.
    void kill();
    bool isRunning() const;
    /// The trainer's process id, 0 when none runs.
    qint64 trainerProcessId() const;
    /// Lets the running trainer go on without the GUI; it keeps writing its run folder, so the run
    /// can be opened later from the runs table. Returns its process id (0 when none ran).
    qint64 detachRun();

    /// Re-reads the project's runs table.
    void reloadRuns();
    /// Shows a run's charts: the live model for the run in progress, otherwise a replay of its files,
    /// read on a worker thread; `runOpened` fires when the charts show it. A run another process is
    /// still training (e.g. one kept going in the background) is followed: new lines of its
    /// events.jsonl keep arriving in the charts until it ends.
    void openRun(const QString& name);
    /// Overlays the charts of several runs (read on a worker thread); `runsCompared` fires when shown.
    void compareRuns(const QStringList& names);
    /// The runs selected in the table, in table order.
    QStringList selectedRuns() const;

    TrainForm* form() const { return m_form; }
    PlannerPanel* planner() const { return m_planner; }
    TrainingView* view() const { return m_view; }
    TrainingRunModel* liveModel() const { return m_live; }
    TrainingRunModel* replayModel() const;
    /// The models of the comparison shown read from disk, in the order of the names given to
    /// compareRuns() (the live run, shown from liveModel(), has none).
    const QList<TrainingRunModel*>& comparedModels() const;
    GpuProbe* gpuProbe() const { return m_gpuProbe; }
    TrainPreflight* preflight() const { return m_preflight; }
    QTableWidget* runsTable() const;
    /// The arguments of the last started process (tests and the console show them).
    QStringList lastArguments() const;
    /// Opens the confusion matrix of the run shown, at `epoch` (its cells open their images).
    ConfusionMatrixDialog* showConfusionMatrix(int epoch);
    /// The comparison's argument and data differences (a tab beside the charts while comparing).
    RunDiffPanel* diffPanel() const { return m_diff; }

signals:
    /// The trainer process ended (after the model got its final status).
    void runEnded();
    /// openRun() finished; the view shows the run (a failed read shows its reason as the status).
    void runOpened(const QString& name);
    /// compareRuns() finished; the charts overlay these runs.
    void runsCompared(const QStringList& names);
    /// The dataset check before a start ended (its dialog, if any, is open now).
    void preflightFinished(const osprey::ui::PreflightResult& result);
    /// An epoch's point was clicked on the chart of the run in `runDir`: open its worst images.
    void worstImagesRequested(const QString& runDir, int epoch);
    /// A confusion-matrix cell was clicked: open the images behind it (labelled `actual`, detected
    /// `detected`; background is the class count).
    void confusionCellRequested(const QString& runDir, int epoch, int detected, int actual);
    /// The comparison's "Open the Changed Images in the Editor".
    void changedImagesRequested(const QList<qint64>& imageIds, const QString& title);

private:
    bool launch(const QStringList& arguments, QString* error);
    /// The MLflow rows from the project's settings (else from MLFLOW_TRACKING_URI), and back when a run
    /// starts.
    void restoreTracking();
    void rememberTracking();
    void onPreflight(const PreflightResult& result);
    void onGpus(const QList<GpuDevice>& devices, const QString& note);
    void updateButtons();

    ProjectDocument* m_document;
    LiveRun* m_liveRun;
    TrainPreflight* m_preflight;
    GpuProbe* m_gpuProbe;
    TrainForm* m_form;
    QPushButton* m_start;
    QPushButton* m_stop;
    QLabel* m_checkStatus;
    QProgressBar* m_checkProgress;
    RunsTable* m_runs;
    TrainingRunModel* m_live;
    TrainingView* m_view;
    RunViewer* m_viewer;
    PlannerPanel* m_planner;
    RunDiffPanel* m_diff;
};

} // namespace osprey::ui
