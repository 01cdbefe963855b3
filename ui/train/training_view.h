#pragma once
// TrainingView: the live view of one run: a status line and progress bar (epoch, batch, images per
// second, ETA) above tabs for the charts, the system panel (GPU, CPU, RAM) and the log console.
// Like the charts, it refreshes at most 10 times a second however fast events arrive. GUI thread only.

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QTabWidget;
class QTimer;

namespace osprey::ui {

class TrainingCharts;
class TrainingRunModel;

class TrainingView : public QWidget {
    Q_OBJECT
public:
    explicit TrainingView(QWidget* parent = nullptr);

    /// The run to show (not owned; null shows the empty state).
    void setModel(TrainingRunModel* model);
    TrainingRunModel* model() const { return m_model; }
    /// Updates every part from the model now (the throttle timer calls this).
    void refresh();

    TrainingCharts* charts() const { return m_charts; }
    QProgressBar* progressBar() const { return m_progress; }
    /// "epoch 3/50 · batch 7/25 · 17.2 img/s · ETA 12:05"
    QString progressText() const;
    QString statusText() const;
    QString systemText() const;
    QPlainTextEdit* console() const { return m_console; }

    /// Formats seconds as h:mm:ss or m:ss.
    static QString formatDuration(double seconds);

private:
    void markDirty();

    TrainingRunModel* m_model = nullptr;
    QLabel* m_status;
    QProgressBar* m_progress;
    QLabel* m_progressLabel;
    QTabWidget* m_tabs;
    TrainingCharts* m_charts;
    QLabel* m_system;
    QPlainTextEdit* m_console;
    QTimer* m_timer;
    qint64 m_logShown = 0;
};

} // namespace osprey::ui
