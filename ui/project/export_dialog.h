#pragma once
// ExportDialog: writes the project as YOLO, COCO or VOC on a worker thread, with progress and cancel.

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace osprey::ui {

class BackgroundTask;
class ProjectDocument;
struct TaskResult;

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    ExportDialog(ProjectDocument* document, QWidget* parent = nullptr);
    void setDestination(const QString& folder);
    void setFormat(const QString& name);
    void runExport();
    bool isBusy() const;
    QString resultText() const;

protected:
    void reject() override;

private:
    void onFinished(const TaskResult& result);

    ProjectDocument* m_document;
    QComboBox* m_format;
    QLineEdit* m_dest;
    QComboBox* m_images;
    QComboBox* m_unlabeled;
    QLabel* m_status;
    QProgressBar* m_progress;
    QPushButton* m_exportButton;
    QPushButton* m_cancelButton;
    BackgroundTask* m_task;
};

} // namespace osprey::ui
