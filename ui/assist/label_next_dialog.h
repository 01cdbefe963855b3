#pragma once
// LabelNextDialog: "what should I label next?", the GUI face of `osprey-cli select` with the same declared
// options (assist::selectOptions(): how many images, the strategy, whether to propose boxes, the proposal
// confidence, drawn by the generic OptionForm). Runs assist::selectForLabelling on a worker thread with
// its own Project connection, shows "k / N images, x images/s, ETA", and on Stop picks from the images
// measured so far. The picks are saved as the project's label-next queue and, with "Propose boxes", get
// the model's boxes (source=model) for review; queueReady() then lets the editor open the queue. Closing
// while a run goes asks first; destroying the dialog cancels and joins the worker. GUI thread only.

#include "assist/box_predictor.h"

#include <QDialog>
#include <atomic>
#include <memory>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace osprey::ui {

class BackgroundTask;
class OptionForm;
class ProjectDocument;
struct TaskResult;

class LabelNextDialog : public QDialog {
    Q_OBJECT
public:
    /// `model` is the editor's active model (may be empty: the user chooses one, or picks by diversity).
    LabelNextDialog(ProjectDocument* document, const assist::ModelSource& model, QWidget* parent = nullptr);
    ~LabelNextDialog() override;

    void setModel(const assist::ModelSource& model);
    const assist::ModelSource& model() const { return m_model; }
    OptionForm* settings() const { return m_settings; }
    bool isRunning() const;
    QString statusText() const;
    /// Images the last run picked (0 before one ends).
    int pickedCount() const { return m_picked; }

public slots:
    /// Starts a run (no-op while one runs, or when the strategy needs a model and none is chosen).
    void start();
    /// Stops measuring; the picks come from the images measured so far.
    void cancel();
    void chooseModel();

signals:
    /// The run stored proposals on the picks: the editor reloads its image.
    void projectChanged();
    /// The label-next queue was saved with `images` picks; the dialog then closes.
    void queueReady(int images);

protected:
    void reject() override;

private:
    void onFinished(const TaskResult& result);
    void updateState();

    ProjectDocument* m_document;
    assist::ModelSource m_model;
    BackgroundTask* m_task;
    QLineEdit* m_modelPath;
    QPushButton* m_chooseButton;
    OptionForm* m_settings;
    QProgressBar* m_progress;
    QLabel* m_status;
    QPushButton* m_startButton;
    QPushButton* m_stopButton;
    QPushButton* m_closeButton;
    int m_picked = 0;
    std::shared_ptr<std::atomic<bool>> m_abandoned; ///< set when the dialog closes during a run
};

} // namespace osprey::ui
