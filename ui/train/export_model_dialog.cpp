#include "ui/train/export_model_dialog.h"

#include "export/onnx_export.h"
#include "ui/common/background.h"
#include "ui/common/option_form.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <map>
#include <memory>
#include <vector>

namespace osprey::ui {

namespace {

// The option's help from core/export's declaration, translated like the other declared options.
QString optionHelp(const std::string& key) {
    for (const auto& option : exporter::exportOptions())
        if (option.key == key)
            return QCoreApplication::translate(run::kOptionTextContext, option.help.c_str());
    return {};
}

/// The declared export options the form draws: all but the format, which the dialog offers by name.
std::vector<OptionForm::Field> onnxFields() {
    std::vector<OptionForm::Field> fields = OptionForm::guiFields(exporter::exportOptions());
    std::erase_if(fields, [](const OptionForm::Field& field) { return field.spec.key == "format"; });
    return fields;
}

QWidget* withButton(QLineEdit* edit, QPushButton* button) {
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit, 1);
    layout->addWidget(button);
    return row;
}

} // namespace

ExportModelDialog::ExportModelDialog(const QString& weights, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Export Model"));
    m_format = new QComboBox;
    m_format->setObjectName("formatCombo");
    m_format->addItem(tr("ONNX (.onnx)"), QStringLiteral("onnx"));
    m_format->addItem(tr("Ultralytics checkpoint (.pt)"), QStringLiteral("ultralytics"));
    m_format->setToolTip(optionHelp("format"));
    m_weights = new QLineEdit(weights);
    m_weights->setObjectName("weightsEdit");
    m_weights->setPlaceholderText(tr("best.pt, last.pt or an Ultralytics .pt"));
    auto* browseWeights = new QPushButton(tr("Browse…"));
    connect(browseWeights, &QPushButton::clicked, this, &ExportModelDialog::chooseWeights);
    m_out = new QLineEdit;
    m_out->setObjectName("outEdit");
    m_out->setPlaceholderText(tr("next to the weights, as .onnx"));
    auto* browseOut = new QPushButton(tr("Browse…"));
    connect(browseOut, &QPushButton::clicked, this, &ExportModelDialog::chooseOutput);

    m_settings = new OptionForm(onnxFields());
    m_settings->setObjectName("onnxSettings");
    m_settings->layout()->setContentsMargins(0, 0, 0, 0);

    auto* form = new QFormLayout;
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Weights:"), withButton(m_weights, browseWeights));
    m_outLabel = new QLabel;
    form->addRow(m_outLabel, withButton(m_out, browseOut));
    form->addRow(m_settings);

    m_progress = new QProgressBar;
    m_progress->setObjectName("progressBar");
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_status = new QLabel;
    m_status->setObjectName("statusLabel");
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_export = buttons->addButton(tr("&Export"), QDialogButtonBox::AcceptRole);
    m_export->setObjectName("exportButton");
    m_export->setDefault(true);
    connect(m_export, &QPushButton::clicked, this, &ExportModelDialog::startExport);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ExportModelDialog::updateFormat);
    updateFormat();
    resize(560, sizeHint().height());
}

void ExportModelDialog::showFailure(const std::string& message) {
    m_progress->setValue(0);
    m_status->setText(tr("Export failed: %1").arg(QString::fromStdString(message)));
    emit finished({}, QString::fromStdString(message));
}

bool ExportModelDialog::ultralytics() const {
    return m_format->currentData().toString() == QLatin1String("ultralytics");
}

void ExportModelDialog::updateFormat() {
    const bool pt = ultralytics();
    m_settings->setEnabled(!pt && !m_busy);
    m_outLabel->setText(pt ? tr("Checkpoint file:") : tr("ONNX file:"));
    m_progress->setValue(0); // a finished export's 100 % does not carry over to the other format
    m_out->setPlaceholderText(pt ? tr("next to the weights, as <name>-ultralytics.pt")
                                 : tr("next to the weights, as .onnx"));
    m_status->setText(
        pt ? tr("Writes the network as Ultralytics 8.4 stores a finished model (EMA weights in float16): "
                "YOLO(\"file.pt\") loads it, and Ultralytics' validation, prediction and exporters "
                "(TensorRT, "
                "OpenVINO, CoreML, TFLite, ...) take it.")
           : tr("Writes input \"images\" [1, 3, size, size] and output \"output0\" [1, 4 + classes, "
                "anchors], "
                "as Ultralytics does; the file is checked in OpenCV DNN before it is written."));
}

void ExportModelDialog::chooseWeights() {
    const QString file = QFileDialog::getOpenFileName(this, tr("Weights to Export"), m_weights->text(),
                                                      tr("Weights (*.pt);;All files (*)"));
    if (!file.isEmpty())
        m_weights->setText(file);
}

void ExportModelDialog::chooseOutput() {
    QString start = m_out->text();
    if (start.isEmpty() && !m_weights->text().isEmpty())
        start = QString::fromStdString(exporter::defaultOnnxPath(m_weights->text().toStdString()).string());
    if (ultralytics() && m_out->text().isEmpty() && !m_weights->text().isEmpty())
        start = QString::fromStdString(
            exporter::defaultUltralyticsPath(m_weights->text().toStdString()).string());
    const QString file = ultralytics()
                             ? QFileDialog::getSaveFileName(this, tr("Ultralytics Checkpoint"), start,
                                                            tr("PyTorch checkpoints (*.pt);;All files (*)"))
                             : QFileDialog::getSaveFileName(this, tr("ONNX File"), start,
                                                            tr("ONNX models (*.onnx);;All files (*)"));
    if (!file.isEmpty())
        m_out->setText(file);
}

void ExportModelDialog::setBusy(bool busy) {
    m_busy = busy;
    m_export->setEnabled(!busy);
    for (QWidget* widget : std::initializer_list<QWidget*>{m_format, m_weights, m_out})
        widget->setEnabled(!busy);
    m_settings->setEnabled(!busy && !ultralytics());
}

void ExportModelDialog::startUltralyticsExport(const QString& weights) {
    setBusy(true);
    m_progress->setRange(0, 0); // no stages to report: busy until written
    m_status->setText(tr("Writing the Ultralytics checkpoint…"));
    const std::string source = weights.toStdString();
    const std::string out = m_out->text().trimmed().toStdString();
    runInBackground(
        this, [source, out] { return exporter::exportUltralytics(source, out); },
        [this](Expected<exporter::UltralyticsExportReport> report) {
            setBusy(false);
            m_progress->setRange(0, 100);
            if (!report) {
                showFailure(report.message());
                return;
            }
            m_progress->setValue(100);
            const QString file = QString::fromStdString(report->file.string());
            m_status->setText(tr("Wrote %1 (%2 MB, %3). Ultralytics 8.4 loads it as its own.")
                                  .arg(QDir::toNativeSeparators(file))
                                  .arg(static_cast<double>(report->bytes) / 1e6, 0, 'f', 1)
                                  .arg(report->usedEma ? tr("the EMA weights") : tr("the model weights")));
            emit finished(file, {});
        });
}

void ExportModelDialog::startExport() {
    if (m_busy)
        return;
    const QString weights = m_weights->text().trimmed();
    if (weights.isEmpty()) {
        m_status->setText(tr("Choose the weights to export."));
        return;
    }
    if (ultralytics()) {
        startUltralyticsExport(weights);
        return;
    }
    // The form's values go through the same parsing and checks as the CLI's keys.
    std::map<std::string, std::string> values;
    for (const QString& argument : m_settings->arguments())
        values[argument.section('=', 0, 0).toStdString()] = argument.section('=', 1).toStdString();
    auto parsed = exporter::parseExportOptions(values);
    if (!parsed) {
        m_status->setText(QString::fromStdString(parsed.message()));
        return;
    }
    exporter::OnnxExportOptions options = *parsed;
    options.out = m_out->text().trimmed().toStdString();
    if (options.imgsz % 32 != 0) {
        m_status->setText(tr("The image size must be a multiple of 32 (the largest stride)."));
        return;
    }
    setBusy(true);
    m_progress->setValue(0);
    m_status->setText(tr("Exporting…"));
    QPointer<QObject> guard(this);
    const std::string source = weights.toStdString();
    runInBackground(
        this,
        [guard, source, options] {
            return exporter::exportOnnx(source, options, [guard](double fraction, const std::string&) {
                postToGui(guard, [guard, fraction] {
                    if (auto* dialog = qobject_cast<ExportModelDialog*>(guard.data()))
                        dialog->m_progress->setValue(static_cast<int>(fraction * 100));
                });
            });
        },
        [this](Expected<exporter::OnnxExportReport> report) {
            setBusy(false);
            if (!report) {
                showFailure(report.message());
                return;
            }
            m_progress->setValue(100);
            const QString file = QString::fromStdString(report->file.string());
            m_status->setText(tr("Wrote %1 (%2 MB, opset %3, %4 classes) in %5 s.")
                                  .arg(QDir::toNativeSeparators(file))
                                  .arg(static_cast<double>(report->bytes) / 1e6, 0, 'f', 1)
                                  .arg(report->opset)
                                  .arg(report->numClasses)
                                  .arg(report->totalMs / 1000.0, 0, 'f', 2));
            emit finished(file, {});
        });
}

} // namespace osprey::ui
