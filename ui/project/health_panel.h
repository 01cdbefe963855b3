#pragma once
// HealthPanel: runs the dataset health check on a worker thread and lists the findings grouped by
// check. Activating a finding that names an image emits imageActivated so the window can jump to it.

#include <QWidget>

class QCheckBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTreeWidget;
class QTreeWidgetItem;

namespace osprey::ui {

class BackgroundTask;
class ProjectDocument;
struct TaskResult;

class HealthPanel : public QWidget {
    Q_OBJECT
public:
    HealthPanel(ProjectDocument* document, QWidget* parent = nullptr);
    void run();
    bool isBusy() const;
    QTreeWidget* tree() const { return m_tree; }

signals:
    void imageActivated(qint64 imageId);

private:
    void onFinished(const TaskResult& result);

    ProjectDocument* m_document;
    QSpinBox* m_imgsz;
    QCheckBox* m_decode;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_summary;
    QTreeWidget* m_tree;
    BackgroundTask* m_task;
};

} // namespace osprey::ui
