#pragma once
// PlannerPanel: which GPU, how long, how much, for the run the train form describes. It shows
// core/planner's plan as a table (this machine and every catalogue GPU: time range, cost, cost per
// epoch, largest batch that fits), a bar chart of time and cost per GPU (QCustomPlot), the cheapest,
// the fastest, the recommendation with its reason, a smaller first run and the break-even calculator.
// watch() connects it to a form's editors, so the figures follow the model, imgsz, epochs and batch as
// they change; the project's image counts are read on a worker thread. GUI thread only.

#include "planner/estimate_plan.h"

#include <QStringList>
#include <QWidget>

#include <functional>

class QCustomPlot;
class QLabel;
class QTableWidget;

namespace osprey::ui {

class BreakEvenBox;

class PlannerPanel : public QWidget {
    Q_OBJECT
public:
    explicit PlannerPanel(QWidget* parent = nullptr);

    /// Reads the train/val counts and mean image size of the project in `folder` (worker thread), then
    /// recomputes; `datasetRead` fires when done.
    void setProjectFolder(const QString& folder);
    /// Gives the dataset directly (tests, or a project already counted).
    void setDataset(qint64 trainImages, qint64 valImages);
    /// The run's settings by key ("model", "epochs", "imgsz", "batch"); recomputes.
    void setRunValue(const QString& key, const QVariant& value);
    /// Follows `editors`: each change of an editor's user property (a spin box's value, a combo box's
    /// text) reads `valueOf(key)` for the four keys and recomputes.
    void watch(const QList<QWidget*>& editors, std::function<QVariant(const QString&)> valueOf);
    /// Re-reads the catalogue and the measured points (after `plan calibrate` or a finished run).
    void reloadData();

    /// The plan shown.
    const planner::Plan& plan() const { return m_plan; }
    QTableWidget* table() const { return m_table; }
    QCustomPlot* chart() const { return m_chart; }
    BreakEvenBox* breakEven() const { return m_breakEven; }

signals:
    /// The plan was recomputed.
    void planChanged();
    void datasetRead();

private slots:
    void pullFromForm();

private:
    void recompute();
    void fillTable();
    void fillChart();

    planner::PlanInputs m_inputs;
    planner::Plan m_plan;
    QString m_catalogueError;
    std::function<QVariant(const QString&)> m_valueOf;
    QLabel* m_summary;
    QTableWidget* m_table;
    QCustomPlot* m_chart;
    QLabel* m_advice;
    BreakEvenBox* m_breakEven;
};

} // namespace osprey::ui
