#pragma once
// ImportDialog: the import wizard. Choose a source (folder or annotation file), let the format be
// detected or pick it, preview the counts, then import on a worker thread with a progress bar and a
// cancel button; the end shows a summary of what was imported and every skipped item with its reason.

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace osprey::ui {

class BackgroundTask;
class ProjectDocument;
struct TaskResult;

class ImportDialog : public QDialog {
    Q_OBJECT
public:
    ImportDialog(ProjectDocument* document, QWidget* parent = nullptr);

    void setSource(const QString& path);
    /// Starts the preview (format detection and counts) for the current source.
    void preview();
    /// Starts the import.
    void runImport();
    bool isBusy() const;
    /// The summary text shown after the last preview or import (for tests).
    QString summaryText() const;
    QString detectedFormat() const { return m_detected; }

signals:
    /// An import finished and changed the project.
    void imported();

protected:
    void reject() override;

private:
    void onFinished(const TaskResult& result);
    void setBusy(bool busy);
    void browseFolder();
    void browseFile();

    ProjectDocument* m_document;
    QLineEdit* m_source;
    QLineEdit* m_imagesDir;
    QComboBox* m_format;
    QComboBox* m_crowd;
    QCheckBox* m_strict;
    QCheckBox* m_outside;
    QLabel* m_status;
    QProgressBar* m_progress;
    QPlainTextEdit* m_summary;
    QPushButton* m_previewButton;
    QPushButton* m_importButton;
    QPushButton* m_cancelButton;
    BackgroundTask* m_task;
    QString m_detected;
    bool m_importing = false;
};

} // namespace osprey::ui
