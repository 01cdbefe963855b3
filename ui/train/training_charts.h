#pragma once
// TrainingCharts: the dashboard's QCustomPlot charts for one TrainingRunModel, or several overlaid for
// comparison: box, cls and dfl loss (train solid, val dashed), mAP50 and mAP50-95, precision and recall,
// learning rate. One run uses a colour per line; a comparison uses a colour per run and keeps the line
// styles (first line solid, second dashed, third dotted). Model changes only mark the charts dirty; a
// timer replots at most 10 times a second. Hovering shows exact values, the context menu exports a
// chart as PNG. GUI thread only.

#include <QStringList>
#include <QWidget>

class QCPGraph;
class QCheckBox;
class QCustomPlot;
class QLabel;
class QPoint;
class QTimer;

namespace osprey::ui {

class TrainingRunModel;

/// One run of a comparison: the legend name and its model (not owned).
struct ChartRun {
    QString name;
    TrainingRunModel* model = nullptr;
};

class TrainingCharts : public QWidget {
    Q_OBJECT
public:
    explicit TrainingCharts(QWidget* parent = nullptr);

    /// The run to show (not owned; may be null for the empty state). Ends a comparison.
    void setModel(TrainingRunModel* model);
    /// The single run shown; null in a comparison.
    TrainingRunModel* model() const { return m_comparing ? nullptr : m_model; }
    /// Overlays runs (two or more) for comparison; a run whose model is destroyed leaves the overlay.
    void setRuns(const QList<ChartRun>& runs);
    const QList<ChartRun>& runs() const { return m_runs; }
    bool isComparing() const { return m_comparing; }
    /// The colour of the index-th run of a comparison (distinct for the first eight).
    static QColor runColor(int index);

    /// Copies the model's series into the graphs and replots now (the timer calls this).
    void refresh();
    /// Losses on a logarithmic axis.
    void setLogScale(bool logScale);
    bool logScale() const;

    /// The plots, in display order (box, cls, dfl loss, mAP, precision/recall, LR).
    const QList<QCustomPlot*>& plots() const { return m_plots; }
    /// The graph that shows a results.csv column (e.g. "val/box_loss") of the run-th run, or null.
    QCPGraph* graph(const QString& column, int run = 0) const;
    /// Above the charts in a comparison: each run's name in its colour.
    QLabel* runLegend() const { return m_runLegend; }
    /// How many refreshes have replotted (the throttle test counts them).
    int replotCount() const { return m_replots; }
    /// The hover text for a plot at an epoch coordinate: the nearest epoch and each line's exact value
    /// (each run's, in a comparison).
    QString tooltipText(int plotIndex, double epoch) const;
    /// Writes one plot as PNG; false on failure.
    bool exportPng(int plotIndex, const QString& path) const;
    /// The epoch whose points lie under widget position `pos` of a plot (within 12 pixels across), or 0:
    /// none there, or a comparison (several runs).
    int epochAt(int plotIndex, const QPoint& pos) const;

signals:
    /// A left click on an epoch's points of a single run's chart (the worst images at that epoch).
    void epochClicked(int epoch);
    /// The context menu's "Confusion Matrix at Epoch N".
    void confusionMatrixRequested(int epoch);

private:
    struct Binding {
        int run;
        QString column; ///< results.csv column
        QCPGraph* graph;
    };
    void assignRuns(const QList<ChartRun>& runs, bool comparing);
    void watch(TrainingRunModel* model);
    void rebuildGraphs();
    void markDirty();
    void showTooltip(QCustomPlot* plot, QMouseEvent* event);
    void showContextMenu(int plotIndex, const QPoint& pos);

    TrainingRunModel* m_model = nullptr; ///< the single run (or the first of a comparison)
    QList<ChartRun> m_runs;
    bool m_comparing = false;
    QList<QCustomPlot*> m_plots;
    QList<Binding> m_graphs;
    QCheckBox* m_logScale;
    QLabel* m_runLegend;
    QLabel* m_empty;
    QWidget* m_grid;
    QTimer* m_timer;
    bool m_dirty = false;
    int m_replots = 0;
};

} // namespace osprey::ui
