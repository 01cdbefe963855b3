#pragma once
// StatisticsPanel: plots the dataset statistics from core/quality with QCustomPlot: boxes per class by
// split, the relative box width and height histograms, and boxes per image. Computed off the GUI thread.

#include <QWidget>

class QCustomPlot;
class QLabel;
class QPushButton;

namespace osprey::quality {
struct DatasetStats;
}

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

private:
    void onFinished(const TaskResult& result);
    void plot(const quality::DatasetStats& stats);

    ProjectDocument* m_document;
    QLabel* m_summary;
    QPushButton* m_refresh;
    QCustomPlot* m_classPlot;
    QCustomPlot* m_sizePlot;
    QCustomPlot* m_perImagePlot;
    BackgroundTask* m_task;
};

} // namespace osprey::ui
