#pragma once
// VideoImportDialog: videos into frames. Choose a video file or a folder of videos, set the sampling and
// the near-duplicate threshold (the video rows of formats::datasetImportOptions(), drawn by the generic
// OptionForm), then import on a worker thread with a progress bar and a cancel button. Frames imported
// before a cancel are kept (each is committed on its own); the end lists what each video gave and every
// video that could not be read or stopped early. "Keep importing from this folder" watches a folder
// instead (formats::watchFolder): each new image or video is taken once, listed as it comes, until Stop.
// GUI thread only.

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace osprey::ui {

class BackgroundTask;
class OptionForm;
class ProjectDocument;
struct TaskResult;

class VideoImportDialog : public QDialog {
    Q_OBJECT
public:
    VideoImportDialog(ProjectDocument* document, QWidget* parent = nullptr);

    void setSource(const QString& path);
    OptionForm* settings() const { return m_settings; }
    /// Ticks "Keep importing from this folder".
    void setKeepWatching(bool watch);
    /// Starts the import (or says in the status line why it cannot).
    void runImport();
    void cancel();
    bool isBusy() const;
    QString statusText() const;
    /// The summary shown after the last import (for tests).
    QString summaryText() const;

signals:
    /// An import finished (or was cancelled) and may have added frames.
    void imported();

protected:
    void reject() override;

private:
    void onFinished(const TaskResult& result);
    void onTaken(const QVariant& line);
    void setBusy(bool busy);

    ProjectDocument* m_document;
    QLineEdit* m_source;
    OptionForm* m_settings;
    QCheckBox* m_keepWatching;
    QLabel* m_status;
    QProgressBar* m_progress;
    QPlainTextEdit* m_summary;
    QPushButton* m_importButton;
    QPushButton* m_cancelButton;
    BackgroundTask* m_task;
};

} // namespace osprey::ui
