#include "ui/project/video_import_dialog.h"

#include "formats/folder_watch.h"
#include "formats/format_options.h"
#include "formats/video_import.h"
#include "project/project.h"
#include "ui/common/background_task.h"
#include "ui/common/option_form.h"
#include "ui/project/project_document.h"
#include "ui/project/task_progress.h"

#include <QCheckBox>
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

VideoImportDialog::VideoImportDialog(ProjectDocument* document, QWidget* parent)
    : QDialog(parent), m_document(document), m_task(new BackgroundTask(this)) {
    setWindowTitle(tr("Import Videos as Frames"));
    resize(680, 520);
    m_source = new QLineEdit(this);
    m_source->setPlaceholderText(tr("A video file, or a folder of videos (.mp4, .avi, .mov, .mkv, …)"));
    auto* fileButton = new QPushButton(tr("Video…"), this);
    auto* folderButton = new QPushButton(tr("Folder…"), this);
    auto* sourceRow = new QHBoxLayout;
    sourceRow->addWidget(m_source, 1);
    sourceRow->addWidget(fileButton);
    sourceRow->addWidget(folderButton);
    auto* form = new QFormLayout;
    form->addRow(tr("Videos:"), sourceRow);
    m_settings = new OptionForm(OptionForm::guiFields(formats::datasetImportOptions()), this);
    m_keepWatching =
        new QCheckBox(tr("Keep importing from this folder (new images and videos as they arrive)"), this);
    m_keepWatching->setToolTip(
        tr("Watches the folder until Stop: each new image or video is taken once, also after Osprey starts "
           "again (osprey-cli import watch=true does the same)."));

    m_status = new QLabel(tr("Choose a video or a folder, then Import."), this);
    m_status->setWordWrap(true);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_summary = new QPlainTextEdit(this);
    m_summary->setReadOnly(true);
    m_summary->setPlaceholderText(tr("What each video gave appears here."));
    m_importButton = new QPushButton(tr("Import"), this);
    m_importButton->setDefault(true);
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_cancelButton->setEnabled(false);
    auto* closeButton = new QPushButton(tr("Close"), this);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_importButton);
    buttons->addWidget(closeButton);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_settings);
    layout->addWidget(m_keepWatching);
    layout->addWidget(m_status);
    layout->addWidget(m_progress);
    layout->addWidget(m_summary, 1);
    layout->addLayout(buttons);

    connect(fileButton, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(
            this, tr("Video"), m_source->text(),
            tr("Videos (*.mp4 *.avi *.mov *.mkv *.webm *.m4v *.mpg *.mpeg *.wmv);;All files (*)"));
        if (!file.isEmpty())
            m_source->setText(file);
    });
    connect(folderButton, &QPushButton::clicked, this, [this] {
        const QString folder =
            QFileDialog::getExistingDirectory(this, tr("Folder of videos"), m_source->text());
        if (!folder.isEmpty())
            m_source->setText(folder);
    });
    connect(m_importButton, &QPushButton::clicked, this, &VideoImportDialog::runImport);
    connect(m_cancelButton, &QPushButton::clicked, this, &VideoImportDialog::cancel);
    connect(closeButton, &QPushButton::clicked, this, &VideoImportDialog::reject);
    showTaskProgress(m_task, m_progress, m_status);
    connect(m_task, &BackgroundTask::finished, this, &VideoImportDialog::onFinished);
    connect(m_task, &BackgroundTask::delivered, this, &VideoImportDialog::onTaken);
    connect(m_keepWatching, &QCheckBox::toggled, this,
            [this](bool watch) { m_importButton->setText(watch ? tr("Start Watching") : tr("Import")); });
}

void VideoImportDialog::setKeepWatching(bool watch) {
    m_keepWatching->setChecked(watch);
}

void VideoImportDialog::onTaken(const QVariant& line) {
    m_summary->appendPlainText(line.toString());
    emit m_document->imagesReset();
}

void VideoImportDialog::setSource(const QString& path) {
    m_source->setText(path);
}

bool VideoImportDialog::isBusy() const {
    return m_task->isRunning();
}

QString VideoImportDialog::statusText() const {
    return m_status->text();
}

QString VideoImportDialog::summaryText() const {
    return m_summary->toPlainText();
}

void VideoImportDialog::cancel() {
    m_task->cancel();
}

void VideoImportDialog::setBusy(bool busy) {
    m_importButton->setEnabled(!busy);
    m_cancelButton->setEnabled(busy);
    m_source->setEnabled(!busy);
    m_settings->setEnabled(!busy);
    m_keepWatching->setEnabled(!busy);
    m_cancelButton->setText(busy && m_keepWatching->isChecked() ? tr("Stop") : tr("Cancel"));
    if (busy) {
        m_progress->setRange(0, 0);
        m_summary->clear();
    } else {
        m_progress->setRange(0, 1);
        m_progress->setValue(1);
    }
}

void VideoImportDialog::runImport() {
    if (m_source->text().trimmed().isEmpty()) {
        m_status->setText(tr("Choose a video or a folder first."));
        return;
    }
    formats::VideoImportOptions options;
    options.source = m_source->text().trimmed().toStdString();
    options.fps = m_settings->value("fps").toDouble();
    options.every = m_settings->value("every").toLongLong();
    options.dedupBits = m_settings->value("dedup").toInt();
    for (const char* key : {"start", "end"}) {
        const QString text = m_settings->value(key).toString().trimmed();
        if (text.isEmpty())
            continue;
        auto seconds = formats::parseVideoTime(text.toStdString(), key);
        if (!seconds) {
            m_status->setText(QString::fromStdString(seconds.message()));
            return;
        }
        (QString(key) == "start" ? options.startSeconds : options.endSeconds.emplace()) = *seconds;
    }
    const std::string folder = m_document->folder().toStdString();
    if (m_keepWatching->isChecked()) {
        formats::WatchOptions watch;
        watch.folder = options.source;
        watch.video = options;
        setBusy(true);
        m_status->setText(tr("Watching %1 for images and videos…").arg(m_source->text().trimmed()));
        m_task->start([watch, folder](TaskContext& context) mutable {
            watch.video.progress = formatsProgress(context);
            auto project = project::Project::open(folder);
            if (!project)
                return TaskResult{{}, QString::fromStdString(project.message())};
            watch.onTaken = [&context](const project::TakenFile& file, const std::string& problem) {
                QString line = QObject::tr("%1: %2 image(s) added")
                                   .arg(QString::fromStdString(file.path))
                                   .arg(file.images);
                if (!problem.empty())
                    line += " — " + QString::fromStdString(problem);
                context.post(line);
            };
            auto summary = formats::watchFolder(**project, watch);
            if (!summary)
                return TaskResult{{}, QString::fromStdString(summary.message())};
            return TaskResult{
                QStringList{QObject::tr("Stopped watching: %1 file(s) taken, %2 image(s) added.")
                                .arg(summary->files)
                                .arg(summary->images),
                            QString()},
                {}};
        });
        return;
    }
    setBusy(true);
    m_status->setText(tr("Importing…"));
    m_task->start([options, folder](TaskContext& context) mutable {
        options.progress = formatsProgress(context);
        // The worker has its own connection: a Project object belongs to one thread.
        auto project = project::Project::open(folder);
        if (!project)
            return TaskResult{{}, QString::fromStdString(project.message())};
        auto summary = formats::importVideos(**project, options);
        if (!summary)
            return TaskResult{{}, QString::fromStdString(summary.message())};
        QString text;
        for (const auto& video : summary->videos)
            text += QObject::tr("%1: %2 frames decoded, %3 sampled, %4 imported, %5 near-duplicates skipped, "
                                "%6 already in the project\n")
                        .arg(QString::fromStdString(video.video))
                        .arg(video.framesDecoded)
                        .arg(video.framesSampled)
                        .arg(video.imported)
                        .arg(video.nearDuplicates)
                        .arg(video.alreadyPresent);
        for (const auto& problem : summary->problems)
            text += QString::fromStdString(problem.text()) + "\n";
        const QString headline =
            summary->cancelled ? QObject::tr("Cancelled: %1 frames imported (kept).").arg(summary->imported)
                               : QObject::tr("Imported %1 frames from %2 video(s).")
                                     .arg(summary->imported)
                                     .arg(summary->videos.size());
        return TaskResult{QStringList{headline, text}, {}};
    });
}

void VideoImportDialog::onFinished(const TaskResult& result) {
    setBusy(false);
    if (!result.ok()) {
        m_status->setText(tr("Import failed."));
        m_summary->setPlainText(result.error);
        return;
    }
    const QStringList parts = result.value.toStringList();
    m_status->setText(parts.value(0));
    if (!parts.value(1).isEmpty() || !m_keepWatching->isChecked()) // a watch keeps the lines it listed
        m_summary->setPlainText(parts.value(1));
    emit m_document->imagesReset();
    emit imported();
}

void VideoImportDialog::reject() {
    if (m_task->isRunning()) {
        m_task->cancel();
        m_task->wait();
    }
    QDialog::reject();
}

} // namespace osprey::ui
