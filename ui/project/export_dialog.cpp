#include "ui/project/export_dialog.h"

#include "formats/format_registry.h"
#include "formats/project_export.h"
#include "ui/common/background_task.h"
#include "ui/project/project_document.h"
#include "ui/project/task_progress.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace osprey::ui {

ExportDialog::ExportDialog(ProjectDocument* document, QWidget* parent)
    : QDialog(parent), m_document(document), m_task(new BackgroundTask(this)) {
    setWindowTitle(tr("Export Dataset"));
    resize(600, 260);
    m_format = new QComboBox(this);
    for (const formats::Format* format : formats::FormatRegistry::instance().formats())
        if (format->canWrite())
            m_format->addItem(QString::fromStdString(format->name() + " — " + format->description()),
                              QString::fromStdString(format->name()));
    m_dest = new QLineEdit(this);
    m_dest->setPlaceholderText(tr("Output folder (created when missing)"));
    auto* browse = new QPushButton(tr("Folder…"), this);
    auto* destRow = new QHBoxLayout;
    destRow->addWidget(m_dest, 1);
    destRow->addWidget(browse);
    m_images = new QComboBox(this);
    m_images->addItem(tr("Link to the project's images"), 0);
    m_images->addItem(tr("Copy the images"), 1);
    m_images->addItem(tr("Labels only"), 2);
    m_unlabeled = new QComboBox(this);
    m_unlabeled->addItem(tr("Leave out images that are not labeled yet"), 0);
    m_unlabeled->addItem(tr("Keep them (with empty labels)"), 1);
    auto* form = new QFormLayout;
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Destination:"), destRow);
    form->addRow(tr("Images:"), m_images);
    form->addRow(tr("Unlabeled images:"), m_unlabeled);
    m_status = new QLabel(tr("Verified-empty images are exported with empty label files."), this);
    m_status->setWordWrap(true);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_exportButton = new QPushButton(tr("Export"), this);
    m_exportButton->setDefault(true);
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_cancelButton->setEnabled(false);
    auto* close = new QPushButton(tr("Close"), this);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_exportButton);
    buttons->addWidget(close);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(m_progress);
    layout->addStretch(1);
    layout->addLayout(buttons);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(this, tr("Export to"), m_dest->text());
        if (!folder.isEmpty())
            m_dest->setText(folder);
    });
    connect(m_exportButton, &QPushButton::clicked, this, &ExportDialog::runExport);
    connect(m_cancelButton, &QPushButton::clicked, m_task, &BackgroundTask::cancel);
    connect(close, &QPushButton::clicked, this, &ExportDialog::reject);
    showTaskProgress(m_task, m_progress, m_status);
    connect(m_task, &BackgroundTask::finished, this, &ExportDialog::onFinished);
}

void ExportDialog::setDestination(const QString& folder) {
    m_dest->setText(folder);
}
void ExportDialog::setFormat(const QString& name) {
    m_format->setCurrentIndex(std::max(0, m_format->findData(name)));
}
bool ExportDialog::isBusy() const {
    return m_task->isRunning();
}
QString ExportDialog::resultText() const {
    return m_status->text();
}

void ExportDialog::runExport() {
    if (m_dest->text().trimmed().isEmpty()) {
        m_status->setText(tr("Choose a destination folder first."));
        return;
    }
    formats::WriteOptions options;
    options.dest = m_dest->text().trimmed().toStdString();
    const int images = m_images->currentData().toInt();
    options.images = images == 0   ? formats::ImageExport::Symlink
                     : images == 1 ? formats::ImageExport::Copy
                                   : formats::ImageExport::None;
    options.unlabeled = m_unlabeled->currentData().toInt() == 1 ? formats::UnlabeledExport::Keep
                                                                : formats::UnlabeledExport::Skip;
    const std::string format = m_format->currentData().toString().toStdString();
    const std::string folder = m_document->folder().toStdString();
    m_exportButton->setEnabled(false);
    m_cancelButton->setEnabled(true);
    m_progress->setRange(0, 0);
    m_task->start([options, format, folder](TaskContext& context) mutable {
        options.progress = formatsProgress(context);
        auto project = project::Project::open(folder);
        if (!project)
            return TaskResult{{}, QString::fromStdString(project.message())};
        auto report = formats::exportProject(**project, format, options);
        if (!report)
            return TaskResult{{}, QString::fromStdString(report.message())};
        return TaskResult{QObject::tr("Exported %1 images and %2 boxes to %3 (%4 unlabeled left out).")
                              .arg(report->images)
                              .arg(report->boxes)
                              .arg(QString::fromStdString(options.dest.string()))
                              .arg(report->skippedUnlabeled),
                          {}};
    });
}

void ExportDialog::onFinished(const TaskResult& result) {
    m_exportButton->setEnabled(true);
    m_cancelButton->setEnabled(false);
    m_progress->setRange(0, 1);
    m_progress->setValue(result.ok() ? 1 : 0);
    m_status->setText(result.ok() ? result.value.toString() : tr("Export failed: %1").arg(result.error));
}

void ExportDialog::reject() {
    if (m_task->isRunning()) {
        m_task->cancel();
        m_task->wait();
    }
    QDialog::reject();
}

} // namespace osprey::ui
