#pragma once
// TrainingView: the live view of one run: a status line and progress bar (epoch, batch, images per
// second, ETA) above tabs for the charts, the best model's curves, the system panel (GPU, CPU, RAM) and the
// log console.
// Like the charts, it refreshes at most 10 times a second however fast events arrive. GUI thread only.

#include <QStringList>
#include <QVector>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QTabWidget;
class QTimer;

namespace osprey::ui {

class RemoteStatusWidget;
class RunCurvesView;
class RunPlotsView;
class TrainingCharts;
class TrainingRunModel;
struct ChartRun;

class TrainingView : public QWidget {
    Q_OBJECT
public:
    explicit TrainingView(QWidget* parent = nullptr);

    /// The run to show (not owned; null shows the empty state). Ends a comparison.
    void setModel(TrainingRunModel* model);
    TrainingRunModel* model() const { return m_model; }
    /// Overlays several finished or running runs in the charts (models not owned); the progress, system
    /// and console parts make sense for one run only and say so. model() is then null.
    void setComparison(const QList<ChartRun>& runs);
    bool isComparing() const { return m_comparing; }
    /// Updates every part from the model now (the throttle timer calls this).
    void refresh();

    TrainingCharts* charts() const { return m_charts; }
    RunCurvesView* curves() const { return m_curves; }
    RunPlotsView* plots() const { return m_plots; }
    QProgressBar* progressBar() const { return m_progress; }
    RemoteStatusWidget* remoteStatus() const { return m_remote; }
    QTabWidget* tabs() const { return m_tabs; }
    /// "epoch 3/50 · batch 7/25 · 17.2 img/s · ETA 12:05"
    QString progressText() const;
    QString statusText() const;
    QString systemText() const;
    QPlainTextEdit* console() const { return m_console; }

    /// Formats seconds as h:mm:ss or m:ss.
    static QString formatDuration(double seconds);
    /// Data parallel: " (2 ranks: 3.1 + 2.9)" after the total images/s, or " (8 ranks: 5.8–6.2 each)"
    /// beyond four ranks; empty for one process.
    static QString ranksText(const QVector<double>& rankImagesPerS);
    /// After a run: " Planner: estimated X (low–high), took Y (+Z %)." from the estimate recorded at its
    /// start (<run>/estimate.json, read once per run); empty while it runs or without an estimate file.
    QString estimateText() const;

private:
    void markDirty();

    TrainingRunModel* m_model = nullptr;
    QLabel* m_status;
    RemoteStatusWidget* m_remote;
    QProgressBar* m_progress;
    QLabel* m_progressLabel;
    QTabWidget* m_tabs;
    TrainingCharts* m_charts;
    RunCurvesView* m_curves;
    RunPlotsView* m_plots;
    QLabel* m_system;
    QPlainTextEdit* m_console;
    QTimer* m_timer;
    qint64 m_logShown = 0;
    bool m_comparing = false;
    mutable QString m_estimateKey; ///< run folder and elapsed time the estimate line was made for
    mutable QString m_estimateLine;
    QStringList m_comparedNames;
};

} // namespace osprey::ui
