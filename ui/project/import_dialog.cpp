#include "ui/project/import_dialog.h"

#include "formats/format_registry.h"
#include "formats/project_import.h"
#include "ui/common/background_task.h"
#include "ui/project/project_document.h"
#include "ui/project/task_progress.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace osprey::ui {

namespace {

QString problemLines(const std::vector<formats::Problem>& problems, int limit) {
    QString text;
    int shown = 0;
    for (const auto& problem : problems) {
        if (shown++ == limit) {
            text += QObject::tr("… and %1 more\n").arg(static_cast<qsizetype>(problems.size()) - limit);
            break;
        }
        text += (problem.severity == formats::Severity::Error ? QObject::tr("skipped: ")
                                                              : QObject::tr("warning: ")) +
                QString::fromStdString(problem.text()) + "\n";
    }
    return text;
}

} // namespace

ImportDialog::ImportDialog(ProjectDocument* document, QWidget* parent)
    : QDialog(parent), m_document(document), m_task(new BackgroundTask(this)) {
    setWindowTitle(tr("Import Dataset"));
    resize(720, 560);
    m_source = new QLineEdit(this);
    m_source->setPlaceholderText(tr("A dataset folder (YOLO, VOC, images) or a COCO JSON file"));
    auto* folderButton = new QPushButton(tr("Folder…"), this);
    auto* fileButton = new QPushButton(tr("File…"), this);
    auto* sourceRow = new QHBoxLayout;
    sourceRow->addWidget(m_source, 1);
    sourceRow->addWidget(folderButton);
    sourceRow->addWidget(fileButton);

    m_format = new QComboBox(this);
    m_format->addItem(tr("Detect automatically"), "auto");
    for (const formats::Format* format : formats::FormatRegistry::instance().formats())
        m_format->addItem(QString::fromStdString(format->name() + " — " + format->description()),
                          QString::fromStdString(format->name()));
    m_imagesDir = new QLineEdit(this);
    m_imagesDir->setPlaceholderText(tr("Optional: where the images are, when not beside the labels"));
    m_crowd = new QComboBox(this);
    m_crowd->addItem(tr("Keep, flagged as crowd (evaluation ignores them)"), 0);
    m_crowd->addItem(tr("Skip them"), 1);
    m_strict = new QCheckBox(tr("Strict: abort on any problem, warnings included"), this);
    m_strict->setToolTip(
        tr("By default valid items are imported and every skipped item is listed. In strict mode "
           "any problem aborts and the project stays exactly as it was."));

    // Named as the CLI flag, so the import's messages ("pass outside=true to follow it") read the same here.
    m_outside = new QCheckBox(tr("Follow paths that lead outside the source folder (outside=true)"), this);
    m_outside->setToolTip(
        tr("A data.yaml's path: or a COCO file_name may point outside the source folder. By default only "
           "a relative data.yaml path: to a dataset folder (images/ and labels/) is followed; tick this to "
           "follow any such path."));

    auto* form = new QFormLayout;
    form->addRow(tr("Source:"), sourceRow);
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Images folder:"), m_imagesDir);
    form->addRow(tr("COCO crowd boxes:"), m_crowd);
    form->addRow(QString(), m_strict);
    form->addRow(QString(), m_outside);

    m_status = new QLabel(tr("Choose a source, then Preview."), this);
    m_status->setWordWrap(true);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_summary = new QPlainTextEdit(this);
    m_summary->setReadOnly(true);
    m_summary->setPlaceholderText(tr("The preview and the import summary appear here."));

    m_previewButton = new QPushButton(tr("Preview"), this);
    m_importButton = new QPushButton(tr("Import"), this);
    m_importButton->setDefault(true);
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_cancelButton->setEnabled(false);
    auto* closeButton = new QPushButton(tr("Close"), this);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_previewButton);
    buttons->addStretch(1);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_importButton);
    buttons->addWidget(closeButton);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(m_progress);
    layout->addWidget(m_summary, 1);
    layout->addLayout(buttons);

    connect(folderButton, &QPushButton::clicked, this, &ImportDialog::browseFolder);
    connect(fileButton, &QPushButton::clicked, this, &ImportDialog::browseFile);
    connect(m_previewButton, &QPushButton::clicked, this, &ImportDialog::preview);
    connect(m_importButton, &QPushButton::clicked, this, &ImportDialog::runImport);
    connect(m_cancelButton, &QPushButton::clicked, m_task, &BackgroundTask::cancel);
    connect(closeButton, &QPushButton::clicked, this, &ImportDialog::reject);
    showTaskProgress(m_task, m_progress, m_status);
    connect(m_task, &BackgroundTask::finished, this, &ImportDialog::onFinished);
}

void ImportDialog::setSource(const QString& path) {
    m_source->setText(path);
}
bool ImportDialog::isBusy() const {
    return m_task->isRunning();
}
QString ImportDialog::summaryText() const {
    return m_summary->toPlainText();
}

void ImportDialog::browseFolder() {
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Dataset folder"), m_source->text());
    if (!folder.isEmpty())
        m_source->setText(folder);
}

void ImportDialog::browseFile() {
    const QString file =
        QFileDialog::getOpenFileName(this, tr("Annotation file"), m_source->text(),
                                     tr("Annotations (*.json *.yaml *.yml *.data *.txt);;All files (*)"));
    if (!file.isEmpty())
        m_source->setText(file);
}

void ImportDialog::setBusy(bool busy) {
    m_previewButton->setEnabled(!busy);
    m_importButton->setEnabled(!busy);
    m_cancelButton->setEnabled(busy);
    m_source->setEnabled(!busy);
    if (busy) {
        m_progress->setRange(0, 0);
        m_summary->clear();
    } else {
        m_progress->setRange(0, 1);
        m_progress->setValue(1);
    }
}

void ImportDialog::preview() {
    if (m_source->text().trimmed().isEmpty()) {
        m_status->setText(tr("Choose a source first."));
        return;
    }
    formats::ReadOptions options;
    options.source = m_source->text().trimmed().toStdString();
    options.imagesDir = m_imagesDir->text().trimmed().toStdString();
    options.crowd =
        m_crowd->currentData().toInt() == 1 ? formats::CrowdPolicy::Skip : formats::CrowdPolicy::Keep;
    options.allowOutsideRoots = m_outside->isChecked();
    options.probe = formats::ImageProbe::None; // counts only: no image is opened
    const std::string format = m_format->currentData().toString().toStdString();
    m_importing = false;
    setBusy(true);
    m_status->setText(tr("Reading the source…"));
    m_task->start([options, format](TaskContext& context) mutable {
        options.progress = formatsProgress(context);
        std::string chosen;
        auto result = formats::readSource(options, format, &chosen);
        if (!result)
            return TaskResult{{}, QString::fromStdString(result.message())};
        qint64 boxes = 0;
        for (const auto& image : result->dataset.images)
            boxes += static_cast<qint64>(image.boxes.size());
        // What was found and how it paired, first; then why an import would stop, if it would.
        QString text = QString::fromStdString(result->layout) + "\n";
        if (const std::string problem = formats::emptyImportProblem(*result, chosen, options);
            !problem.empty())
            text += QObject::tr("Importing would fail: %1\n").arg(QString::fromStdString(problem));
        text += QObject::tr("Format: %1\nImages: %2\nBoxes: %3\nClasses: %4\n")
                    .arg(QString::fromStdString(chosen))
                    .arg(result->dataset.images.size())
                    .arg(boxes)
                    .arg(result->dataset.classes.size());
        for (const auto& note : result->notes)
            text += QString::fromStdString(note) + "\n";
        if (!result->problems.empty())
            text += QObject::tr("\n%1 problems:\n").arg(result->problems.size()) +
                    problemLines(result->problems, 200);
        return TaskResult{QStringList{QString::fromStdString(chosen), text}, {}};
    });
}

void ImportDialog::runImport() {
    if (m_source->text().trimmed().isEmpty()) {
        m_status->setText(tr("Choose a source first."));
        return;
    }
    formats::ImportOptions options;
    options.read.source = m_source->text().trimmed().toStdString();
    options.read.imagesDir = m_imagesDir->text().trimmed().toStdString();
    options.read.crowd =
        m_crowd->currentData().toInt() == 1 ? formats::CrowdPolicy::Skip : formats::CrowdPolicy::Keep;
    options.read.allowOutsideRoots = m_outside->isChecked();
    options.format = m_format->currentData().toString().toStdString();
    options.mode = m_strict->isChecked() ? formats::ImportMode::Strict : formats::ImportMode::Lenient;
    const std::string folder = m_document->folder().toStdString();
    m_importing = true;
    setBusy(true);
    m_status->setText(tr("Importing…"));
    m_task->start([options, folder](TaskContext& context) mutable {
        options.read.progress = formatsProgress(context);
        // The worker has its own connection: a Project object belongs to one thread.
        auto project = project::Project::open(folder);
        if (!project)
            return TaskResult{{}, QString::fromStdString(project.message())};
        auto summary = formats::importDataset(**project, options);
        if (!summary)
            return TaskResult{{}, QString::fromStdString(summary.message())};
        QString text =
            QObject::tr("Imported with format %1: %2 images, %3 boxes, %4 new classes.\n"
                        "Unlabeled: %5, verified empty: %6, already in the project: %7, crowd skipped: %8.\n")
                .arg(QString::fromStdString(summary->format))
                .arg(summary->images)
                .arg(summary->boxes)
                .arg(summary->classesAdded)
                .arg(summary->unlabeled)
                .arg(summary->verifiedEmpty)
                .arg(summary->alreadyPresent)
                .arg(summary->skippedCrowd);
        for (const auto& note : summary->notes)
            text += QString::fromStdString(note) + "\n";
        if (!summary->problems.empty())
            text += QObject::tr("\n%1 problems:\n").arg(summary->problems.size()) +
                    problemLines(summary->problems, 500);
        return TaskResult{QStringList{QString::fromStdString(summary->format), text}, {}};
    });
}

void ImportDialog::onFinished(const TaskResult& result) {
    setBusy(false);
    if (!result.ok()) {
        m_status->setText(m_importing ? tr("Import failed; the project is unchanged.")
                                      : tr("Cannot read the source."));
        m_summary->setPlainText(result.error);
        return;
    }
    const QStringList parts = result.value.toStringList();
    m_detected = parts.value(0);
    m_summary->setPlainText(parts.value(1));
    if (m_importing) {
        m_status->setText(tr("Import finished."));
        m_document->reloadClasses();
        emit m_document->imagesReset();
        emit imported();
    } else {
        m_status->setText(tr("Preview of the source (nothing imported yet)."));
    }
}

void ImportDialog::reject() {
    if (m_task->isRunning()) {
        m_task->cancel();
        m_task->wait();
    }
    QDialog::reject();
}

} // namespace osprey::ui
