#pragma once
// TrainingCharts: the dashboard's QCustomPlot charts for one TrainingRunModel: box, cls and dfl loss
// (train solid, val dashed), mAP50 and mAP50-95, precision and recall, learning rate. Model changes only
// mark the charts dirty; a timer replots at most 10 times a second. Hovering shows exact values, the
// context menu exports a chart as PNG. GUI thread only.

#include <QStringList>
#include <QWidget>

class QCPGraph;
class QCheckBox;
class QCustomPlot;
class QLabel;
class QTimer;

namespace osprey::ui {

class TrainingRunModel;

class TrainingCharts : public QWidget {
    Q_OBJECT
public:
    explicit TrainingCharts(QWidget* parent = nullptr);

    /// The run to show (not owned; may be null for the empty state).
    void setModel(TrainingRunModel* model);
    TrainingRunModel* model() const { return m_model; }

    /// Copies the model's series into the graphs and replots now (the timer calls this).
    void refresh();
    /// Losses on a logarithmic axis.
    void setLogScale(bool logScale);
    bool logScale() const;

    /// The plots, in display order (box, cls, dfl loss, mAP, precision/recall, LR).
    const QList<QCustomPlot*>& plots() const { return m_plots; }
    /// The graph that shows a results.csv column (e.g. "val/box_loss"), or null.
    QCPGraph* graph(const QString& column) const;
    /// How many refreshes have replotted (the throttle test counts them).
    int replotCount() const { return m_replots; }
    /// The hover text for a plot at an epoch coordinate: the nearest epoch and each line's exact value.
    QString tooltipText(int plotIndex, double epoch) const;
    /// Writes one plot as PNG; false on failure.
    bool exportPng(int plotIndex, const QString& path) const;

private:
    void markDirty();
    void showTooltip(QCustomPlot* plot, QMouseEvent* event);
    void showContextMenu(int plotIndex, const QPoint& pos);

    TrainingRunModel* m_model = nullptr;
    QList<QCustomPlot*> m_plots;
    QList<QPair<QString, QCPGraph*>> m_graphs; ///< results.csv column -> graph
    QCheckBox* m_logScale;
    QLabel* m_empty;
    QWidget* m_grid;
    QTimer* m_timer;
    bool m_dirty = false;
    int m_replots = 0;
};

} // namespace osprey::ui
