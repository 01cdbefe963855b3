#pragma once
// StatisticsPanel: plots the dataset statistics from core/quality with QCustomPlot: boxes per class by
// split, the relative box width and height histograms, boxes per image, and labels.jpg's box layout (up to
// 1000 boxes drawn centred, in their class colours) and two heat maps (box centres, box width and height),
// live from the project. Computed off the GUI thread.

#include <QWidget>

#include <vector>

class QCustomPlot;

class QLabel;
class QPushButton;

namespace osprey {
struct LabelBox;
} // namespace osprey

namespace osprey::quality {
struct DatasetStats;
struct Histogram2D;
} // namespace osprey::quality

namespace osprey::ui {

class BackgroundTask;
class ProjectDocument;
struct TaskResult;

class StatisticsPanel : public QWidget {
    Q_OBJECT
public:
    StatisticsPanel(ProjectDocument* document, QWidget* parent = nullptr);
    void refresh();
    bool isBusy() const;
    QCustomPlot* classPlot() const { return m_classPlot; }
    QCustomPlot* centrePlot() const { return m_centrePlot; }
    QCustomPlot* shapePlot() const { return m_shapePlot; }
    QCustomPlot* layoutPlot() const { return m_layoutPlot; }

private:
    void heatMap(QCustomPlot* plot, const quality::Histogram2D& grid, const QString& xLabel,
                 const QString& yLabel, bool fromTop);
    void boxLayout(const std::vector<LabelBox>& boxes);
    void onFinished(const TaskResult& result);
    void plot(const quality::DatasetStats& stats);

    ProjectDocument* m_document;
    QLabel* m_summary;
    QPushButton* m_refresh;
    QCustomPlot* m_classPlot;
    QCustomPlot* m_sizePlot;
    QCustomPlot* m_perImagePlot;
    QCustomPlot* m_layoutPlot; ///< labels.jpg's box layout
    QCustomPlot* m_centrePlot; ///< its box-centre heat map
    QCustomPlot* m_shapePlot;  ///< and its width/height heat map
    BackgroundTask* m_task;
};

} // namespace osprey::ui
