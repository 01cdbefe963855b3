#pragma once
// AutoLabelDialog: batch auto-label, the GUI face of `osprey-cli autolabel` with the same defaults
// (unlabeled images, then confidence, IoU, mode and add_classes: the declared options of
// assist::autoLabelOptions(), drawn by the generic OptionForm; the class mapping saved for the model file);
// the choices of the project's last run are remembered. Shows how many images a run will process, runs
// assist::autoLabel on a worker thread with its own Project connection, shows "k / N images, x images/s,
// ETA", and stops after the current batch on Cancel (the batches already stored stay: each is one committed
// transaction). The end shows a summary; projectChanged() tells the editor to reload.
//
// The worker waits after each stored batch until the GUI has shown it (or a cancel), so what the progress
// bar shows is what is stored and a cancel from the progressed() signal stops right after that batch.
// Closing while a run goes asks first; destroying the dialog cancels and joins the worker. Like the CLI, a
// run on the CPU sets the process-wide inference threads (one per worker), and gives all cores back when it
// ends. GUI thread only.

#include "assist/auto_labeler.h"

#include <QDialog>
#include <QPointer>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace osprey::ui {

class BackgroundTask;
class OptionForm;
class ClassMappingDialog;
class ProjectDocument;
struct TaskResult;

class AutoLabelDialog : public QDialog {
    Q_OBJECT
public:
    /// `model` is the editor's active model (may be empty: the user then chooses one).
    AutoLabelDialog(ProjectDocument* document, const assist::ModelSource& model, QWidget* parent = nullptr);
    ~AutoLabelDialog() override;

    void setModel(const assist::ModelSource& model);
    const assist::ModelSource& model() const { return m_model; }
    /// Images per database transaction (and per progress step); 16 as in the CLI.
    void setBatchSize(int images) { m_batchSize = std::max(1, images); }
    /// The options the next run uses, as set in the dialog.
    assist::AutoLabelOptions options() const;
    /// How many images the current selection holds (what a run would process), -1 on error.
    int imageCount() const { return m_imageCount; }
    bool isRunning() const;
    /// The last run's report (none before a run ends, or when it failed).
    const std::optional<assist::AutoLabelReport>& report() const { return m_report; }
    /// The last run's error (empty when it succeeded).
    QString errorText() const { return m_error; }
    QString summaryText() const;

public slots:
    /// Starts a run (no-op while one runs or when nothing is selected).
    void start();
    /// Asks the run to stop after the current batch.
    void cancel();
    /// Lets the user pick another model file (.pt, .onnx, or .cfg with .weights and names).
    void chooseModel();
    /// Opens the class mapping editor for the chosen model; returns it (it deletes itself on close).
    ClassMappingDialog* editClassMapping();

signals:
    /// After each stored batch, on the GUI thread, before the worker goes on.
    void progressed(int done, int total);
    /// A run ended (report() or errorText() tell how).
    void runFinished();
    /// A run stored something: the editor reloads its image and lists. `replaced`: earlier model boxes
    /// may have been deleted (Replace mode), so undo steps that refer to them no longer apply.
    void projectChanged(bool replaced);
    /// "Review Them" was clicked after a run that stored boxes (the dialog then closes).
    void reviewRequested();

protected:
    void reject() override;

private:
    /// The choices of the last run in this project (AutoLabelChoices); the model and its class mapping are
    /// remembered elsewhere.
    void saveSettings();
    void restoreSettings();
    void onDelivered(const QVariant& value);
    void onProgress(int done, int total, double elapsedSeconds);
    void onFinished(const TaskResult& result);
    void updateCount();
    void updateModelLabel();
    void setRunning(bool running);

    QPointer<ProjectDocument> m_document; ///< null once the project closed
    assist::ModelSource m_model;
    BackgroundTask* m_task;
    QLineEdit* m_modelPath;
    QPushButton* m_chooseButton;
    QPushButton* m_mappingButton;
    QComboBox* m_images;
    OptionForm* m_settings; ///< conf, iou, mode, add_classes: assist::autoLabelOptions() shown in the GUI
    QLabel* m_count;
    QProgressBar* m_progress;
    QLabel* m_status;
    QPlainTextEdit* m_summary;
    QPushButton* m_startButton;
    QPushButton* m_cancelButton;
    QPushButton* m_closeButton;
    QPushButton* m_reviewButton = nullptr;
    std::optional<assist::AutoLabelReport> m_report;
    QString m_error;
    int m_imageCount = 0;
    int m_total = 0;
    int m_batchSize = 16;
    bool m_closeWhenDone = false;
    assist::WriteMode m_runMode = assist::WriteMode::Add;
};

} // namespace osprey::ui
