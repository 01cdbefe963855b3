#include "ui/train/export_model_dialog.h"

#include "export/onnx_export.h"
#include "ui/common/background.h"

#include <QCheckBox>
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
#include <QSpinBox>
#include <QVBoxLayout>

#include <memory>

namespace osprey::ui {

namespace {

// The option's help from core/export's declaration, translated like the other declared options.
QString optionHelp(const std::string& key) {
    for (const auto& option : exporter::exportOptions())
        if (option.key == key)
            return QCoreApplication::translate(run::kOptionTextContext, option.help.c_str());
    return {};
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

    m_imgsz = new QSpinBox;
    m_imgsz->setObjectName("imgszSpin");
    m_imgsz->setRange(32, 4096);
    m_imgsz->setSingleStep(32);
    m_imgsz->setValue(640);
    m_imgsz->setSuffix(tr(" px"));
    m_imgsz->setToolTip(optionHelp("imgsz"));
    m_opset = new QSpinBox;
    m_opset->setObjectName("opsetSpin");
    m_opset->setRange(11, 17);
    m_opset->setValue(12);
    m_opset->setToolTip(optionHelp("opset"));
    m_half = new QCheckBox(tr("Half-precision weights (float16)"));
    m_half->setObjectName("halfCheck");
    m_half->setToolTip(optionHelp("half"));
    m_dynamic = new QCheckBox(tr("Dynamic batch size"));
    m_dynamic->setObjectName("dynamicCheck");
    m_dynamic->setToolTip(optionHelp("dynamic"));
    m_simplify = new QCheckBox(tr("Store intermediate shapes"));
    m_simplify->setObjectName("simplifyCheck");
    m_simplify->setChecked(true);
    m_simplify->setToolTip(optionHelp("simplify"));

    auto* form = new QFormLayout;
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Weights:"), withButton(m_weights, browseWeights));
    m_outLabel = new QLabel;
    form->addRow(m_outLabel, withButton(m_out, browseOut));
    form->addRow(tr("Image size:"), m_imgsz);
    form->addRow(tr("Opset:"), m_opset);
    form->addRow(QString(), m_half);
    form->addRow(QString(), m_dynamic);
    form->addRow(QString(), m_simplify);

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
    for (QWidget* widget : std::initializer_list<QWidget*>{m_imgsz, m_opset, m_half, m_dynamic, m_simplify})
        widget->setEnabled(!pt && !m_busy);
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
    for (QWidget* widget : std::initializer_list<QWidget*>{m_imgsz, m_opset, m_half, m_dynamic, m_simplify})
        widget->setEnabled(!busy && !ultralytics());
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
    exporter::OnnxExportOptions options;
    options.imgsz = m_imgsz->value();
    options.opset = m_opset->value();
    options.half = m_half->isChecked();
    options.dynamic = m_dynamic->isChecked();
    options.simplify = m_simplify->isChecked();
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
