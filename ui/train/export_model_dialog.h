#pragma once
// ExportModelDialog (Train ▸ Export Model…): exports a weights file with core/export, off the GUI thread,
// with a progress bar and the summary or the error in the dialog: to ONNX in Ultralytics' layout, or to a
// .pt that Ultralytics loads (format=ultralytics; the ONNX settings are then disabled). Widgets are named
// for tests: formatCombo, weightsEdit, outEdit, imgszSpin, opsetSpin, halfCheck, dynamicCheck,
// simplifyCheck, exportButton, progressBar, statusLabel. GUI thread only.

#include <QDialog>

#include <string>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace osprey::ui {

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
    QSpinBox* m_imgsz;
    QSpinBox* m_opset;
    QCheckBox* m_half;
    QCheckBox* m_dynamic;
    QCheckBox* m_simplify;
    QProgressBar* m_progress;
    QLabel* m_status;
    QLabel* m_outLabel;
    QPushButton* m_export;
    bool m_busy = false;
};

} // namespace osprey::ui
