#pragma once
// ExportModelDialog (Train ▸ Export Model…): exports a weights file with core/export, off the GUI thread,
// with a progress bar and the summary or the error in the dialog: to ONNX in Ultralytics' layout, or to a
// .pt that Ultralytics loads (format=ultralytics; the ONNX settings are then disabled). The ONNX settings are
// core/export's declared options (exporter::exportOptions()) drawn by the generic OptionForm, so they have
// the CLI's defaults, ranges and help. Widgets are named for tests: formatCombo, weightsEdit, outEdit,
// onnxSettings (its editors named by key: imgsz, opset, half, dynamic, simplify), exportButton, progressBar,
// statusLabel. GUI thread only.

#include <QDialog>

#include <string>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace osprey::ui {

class OptionForm;

class ExportModelDialog : public QDialog {
    Q_OBJECT
public:
    /// `weights` pre-fills the weights field (e.g. the last run's best.pt); may be empty.
    explicit ExportModelDialog(const QString& weights = {}, QWidget* parent = nullptr);

    /// Whether an export is running.
    bool busy() const { return m_busy; }

signals:
    /// An export finished: the file written, or an empty path and the error.
    void finished(const QString& file, const QString& error);

private:
    void startExport();
    void chooseWeights();
    void chooseOutput();
    void setBusy(bool busy);
    bool ultralytics() const; ///< the format is Ultralytics' .pt
    void updateFormat();
    void startUltralyticsExport(const QString& weights);
    void showFailure(const std::string& message); ///< the error in the dialog, and finished({}, message)

    QComboBox* m_format;
    QLineEdit* m_weights;
    QLineEdit* m_out;
    OptionForm* m_settings; ///< the ONNX options of exporter::exportOptions() but the format
    QProgressBar* m_progress;
    QLabel* m_status;
    QLabel* m_outLabel;
    QPushButton* m_export;
    bool m_busy = false;
};

} // namespace osprey::ui
