#include "ui/assist/auto_label_dialog.h"

#include "assist/assist_options.h"
#include "assist/inference_threads.h"
#include "run/run_curves.h"
#include "ui/assist/auto_label_choices.h"
#include "ui/assist/auto_label_summary.h"
#include "ui/assist/class_mapping_dialog.h"
#include "ui/assist/model_file_chooser.h"
#include "ui/common/background_task.h"
#include "ui/common/option_form.h"
#include "ui/project/project_document.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>
#include <chrono>

Q_DECLARE_METATYPE(std::shared_ptr<osprey::assist::AutoLabelReport>)

namespace osprey::ui {

namespace {

QString toText(const std::filesystem::path& path) {
    return QString::fromStdString(path.string());
}

} // namespace

/// One stored batch, as the worker hands it to the dialog.
struct AutoLabelProgress {
    int done = 0;
    int total = 0;
    double elapsedSeconds = 0;
};

} // namespace osprey::ui

Q_DECLARE_METATYPE(osprey::ui::AutoLabelProgress)

namespace osprey::ui {

AutoLabelDialog::AutoLabelDialog(ProjectDocument* document, const assist::ModelSource& model, QWidget* parent)
    : QDialog(parent), m_document(document), m_task(new BackgroundTask(this)) {
    qRegisterMetaType<std::shared_ptr<assist::AutoLabelReport>>();
    setWindowTitle(tr("Auto-Label Images"));
    resize(640, 540);

    m_modelPath = new QLineEdit(this);
    m_modelPath->setReadOnly(true);
    m_modelPath->setPlaceholderText(tr("No model yet: choose an Osprey checkpoint, ONNX or Darknet model"));
    m_chooseButton = new QPushButton(tr("C&hoose…"), this);
    m_mappingButton = new QPushButton(tr("Class &Mapping…"), this);
    m_mappingButton->setToolTip(tr("Which project class each model class becomes, or ignore it"));
    auto* modelRow = new QHBoxLayout;
    modelRow->addWidget(m_modelPath, 1);
    modelRow->addWidget(m_chooseButton);
    modelRow->addWidget(m_mappingButton);

    m_images = new QComboBox(this);
    m_images->addItem(tr("Unlabeled images (status new)"), QStringLiteral("unlabeled"));
    m_images->addItem(tr("All images"), QStringLiteral("all"));
    m_images->addItem(tr("Train split"), QStringLiteral("split:train"));
    m_images->addItem(tr("Validation split"), QStringLiteral("split:val"));
    m_images->addItem(tr("Test split"), QStringLiteral("split:test"));
    m_count = new QLabel(this);

    // Confidence, IoU, mode and add_classes are `osprey-cli autolabel`'s declared options (core/assist),
    // drawn by the generic form with their defaults and ranges; the choices read as sentences here.
    m_settings = new OptionForm(OptionForm::guiFields(assist::autoLabelOptions()), this);
    m_settings->setObjectName(QStringLiteral("settings"));
    m_settings->layout()->setContentsMargins(0, 0, 0, 0);
    m_settings->setChoices(QStringLiteral("mode"),
                           {{tr("Add to the existing boxes"), QStringLiteral("add")},
                            {tr("Replace earlier model boxes"), QStringLiteral("replace")}});
    m_settings->setChoices(
        QStringLiteral("add_classes"),
        {{tr("Automatic: only when the project has no classes yet"), QStringLiteral("auto")},
         {tr("Yes: add the model classes the project lacks"), QStringLiteral("true")},
         {tr("No: ignore the model classes the project lacks"), QStringLiteral("false")}});

    auto* form = new QFormLayout;
    form->addRow(tr("M&odel:"), modelRow);
    form->addRow(tr("&Images:"), m_images);
    form->addRow(QString(), m_count);
    form->addRow(m_settings);
    if (auto* label = qobject_cast<QLabel*>(form->labelForField(modelRow)))
        label->setBuddy(m_chooseButton);

    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setVisible(false); // until the first run: an empty bar looks like a text field
    m_status = new QLabel(tr("Choose the images and thresholds, then Start."), this);
    m_status->setWordWrap(true);
    m_summary = new QPlainTextEdit(this);
    m_summary->setReadOnly(true);
    m_summary->setPlaceholderText(tr("The summary of the run appears here."));

    m_startButton = new QPushButton(tr("&Start"), this);
    m_startButton->setDefault(true);
    m_cancelButton = new QPushButton(tr("S&top"), this);
    m_cancelButton->setToolTip(
        tr("Stop after the current batch; the images labelled so far keep their boxes"));
    m_cancelButton->setEnabled(false);
    m_closeButton = new QPushButton(tr("Close"), this);
    m_reviewButton = new QPushButton(tr("&Review Them"), this);
    m_reviewButton->setToolTip(tr("Close this dialog and walk the images that got boxes, the least confident "
                                  "first (the review queue)"));
    m_reviewButton->setVisible(false);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_reviewButton);
    buttons->addStretch(1);
    buttons->addWidget(m_startButton);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_closeButton);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(m_summary, 1);
    layout->addLayout(buttons);

    // Names for tests and accessibility tools.
    m_images->setObjectName(QStringLiteral("images"));
    m_count->setObjectName(QStringLiteral("count"));
    m_status->setObjectName(QStringLiteral("status"));
    m_progress->setObjectName(QStringLiteral("progress"));
    m_startButton->setObjectName(QStringLiteral("start"));
    m_cancelButton->setObjectName(QStringLiteral("stop"));
    m_closeButton->setObjectName(QStringLiteral("close"));
    m_reviewButton->setObjectName(QStringLiteral("review"));
    m_mappingButton->setObjectName(QStringLiteral("classMapping"));

    connect(m_chooseButton, &QPushButton::clicked, this, &AutoLabelDialog::chooseModel);
    connect(m_mappingButton, &QPushButton::clicked, this, &AutoLabelDialog::editClassMapping);
    connect(m_images, &QComboBox::currentIndexChanged, this, &AutoLabelDialog::updateCount);
    connect(m_startButton, &QPushButton::clicked, this, &AutoLabelDialog::start);
    connect(m_cancelButton, &QPushButton::clicked, this, &AutoLabelDialog::cancel);
    connect(m_closeButton, &QPushButton::clicked, this, &AutoLabelDialog::reject);
    connect(m_reviewButton, &QPushButton::clicked, this, [this] {
        emit reviewRequested();
        QDialog::accept();
    });
    connect(m_task, &BackgroundTask::finished, this, &AutoLabelDialog::onFinished);
    connect(m_task, &BackgroundTask::delivered, this, &AutoLabelDialog::onDelivered);
    restoreSettings();
    setModel(model);
    m_images->setFocus();
}

AutoLabelDialog::~AutoLabelDialog() {
    // Never leave a worker behind: release it from its wait, let it finish the batch, join it.
    m_task->cancel();
    m_task->wait();
}

void AutoLabelDialog::setModel(const assist::ModelSource& model) {
    m_model = model;
    // A model from an Osprey run brings its best-F1 confidence (the run's curves.json) as the default.
    if (const auto best = run::runBestConfidence(m_model.model))
        m_settings->setValue(QStringLiteral("conf"), *best);
    updateModelLabel();
    updateCount();
}

void AutoLabelDialog::updateModelLabel() {
    const bool have = !m_model.model.empty();
    m_modelPath->setText(have ? toText(m_model.model) : QString());
    QString tip = have ? toText(m_model.model) : QString();
    if (!m_model.weights.empty())
        tip += "\n" + tr("Weights: %1").arg(toText(m_model.weights));
    if (!m_model.names.empty())
        tip += "\n" + tr("Class names: %1").arg(toText(m_model.names));
    m_modelPath->setToolTip(tip);
    m_mappingButton->setEnabled(have && !isRunning());
}

assist::AutoLabelOptions AutoLabelDialog::options() const {
    assist::AutoLabelOptions options;
    // The same words as the CLI's images=, parsed by the same code.
    (void)assist::parseImageSelection(m_images->currentData().toString().toStdString(), options);
    options.suggest.confThreshold = static_cast<float>(m_settings->value(QStringLiteral("conf")).toDouble());
    options.suggest.iouThreshold = static_cast<float>(m_settings->value(QStringLiteral("iou")).toDouble());
    options.mode = m_settings->value(QStringLiteral("mode")).toString() == QLatin1String("replace")
                       ? assist::WriteMode::Replace
                       : assist::WriteMode::Add;
    const QString addClasses = m_settings->value(QStringLiteral("add_classes")).toString();
    options.addClasses = addClasses == QLatin1String("true")    ? assist::AddClasses::Yes
                         : addClasses == QLatin1String("false") ? assist::AddClasses::No
                                                                : assist::AddClasses::Auto;
    options.batchSize = m_batchSize;
    options.mappingKey = ClassMappingDialog::modelKey(m_model);
    return options;
}

void AutoLabelDialog::saveSettings() {
    if (!m_document)
        return;
    AutoLabelChoices{m_images->currentData().toString(), m_settings->arguments()}.write(
        m_document->project());
}

void AutoLabelDialog::restoreSettings() {
    if (!m_document)
        return;
    const auto choices = AutoLabelChoices::read(m_document->project());
    if (const int index = m_images->findData(choices.images); !choices.images.isEmpty() && index >= 0)
        m_images->setCurrentIndex(index);
    for (const QString& pair : choices.options) {
        const QString key = pair.section(QLatin1Char('='), 0, 0);
        if (m_settings->keys().contains(key))
            m_settings->setValue(key, pair.section(QLatin1Char('='), 1));
    }
}

bool AutoLabelDialog::isRunning() const {
    return m_task->isRunning();
}

QString AutoLabelDialog::summaryText() const {
    return m_summary->toPlainText();
}

void AutoLabelDialog::updateCount() {
    const assist::AutoLabelOptions selection = options();
    project::ImageQuery query;
    query.limit = 0;
    if (selection.images == assist::ImageSelection::Unlabeled)
        query.status = project::ImageStatus::New;
    else if (selection.images == assist::ImageSelection::Split)
        query.split = selection.split;
    auto count = m_document ? m_document->project().images().count(query) : Expected<std::int64_t>(0);
    m_imageCount = count ? static_cast<int>(*count) : -1;
    if (!count)
        m_count->setText(tr("Cannot count the images: %1").arg(QString::fromStdString(count.message())));
    else if (*count == 0)
        m_count->setText(tr("No image matches: nothing to do."));
    else
        m_count->setText(tr("Images to process: %1").arg(m_imageCount));
    m_startButton->setEnabled(!isRunning() && m_imageCount > 0 && !m_model.model.empty());
}

void AutoLabelDialog::setRunning(bool running) {
    for (QWidget* input :
         std::initializer_list<QWidget*>{m_chooseButton, m_images, m_settings, m_startButton, m_closeButton})
        input->setEnabled(!running);
    m_mappingButton->setEnabled(!running && !m_model.model.empty());
    m_cancelButton->setEnabled(running);
    if (running)
        m_reviewButton->setVisible(false);
    if (running) {
        m_progress->setRange(0, 0);
        m_progress->setTextVisible(false);
        m_progress->setVisible(true);
        m_cancelButton->setFocus();
    } else {
        m_closeButton->setFocus();
        updateCount();
    }
}

void AutoLabelDialog::start() {
    if (isRunning() || !m_document)
        return;
    if (m_model.model.empty()) {
        chooseModel();
        if (m_model.model.empty())
            return;
    }
    updateCount();
    if (m_imageCount <= 0)
        return;
    const assist::AutoLabelOptions runOptions = options();
    saveSettings();
    m_runMode = runOptions.mode;
    m_total = m_imageCount;
    m_report.reset();
    m_error.clear();
    m_summary->clear();
    m_closeWhenDone = false;
    setRunning(true);
    m_status->setText(tr("Loading %1…").arg(toText(m_model.model.filename())));

    const std::string folder = m_document->folder().toStdString();
    const QString modelFile = toText(m_model.model);
    m_task->start([folder, model = m_model, modelFile, options = runOptions](TaskContext& context) mutable {
        // The worker has its own connection: a Project object belongs to one thread.
        auto project = project::Project::open(folder);
        if (!project)
            return TaskResult{
                0, tr("Cannot open the project: %1").arg(QString::fromStdString(project.message()))};
        auto predictor = assist::BoxPredictor::open(model);
        if (!predictor) {
            // Core's message names the file; say which one when it does not.
            QString message = QString::fromStdString(predictor.message());
            if (!message.contains(QFileInfo(modelFile).fileName()))
                message = modelFile + ": " + message;
            return TaskResult{
                0,
                tr("Cannot load the model.\n%1\nPick another model with the Choose… button.").arg(message)};
        }
        if (context.cancelled()) { // stopped while the model loaded: nothing stored
            assist::AutoLabelReport nothing;
            nothing.cancelled = true;
            return TaskResult{QVariant::fromValue(std::make_shared<assist::AutoLabelReport>(nothing)), {}};
        }
        context.post(tr("Model loaded; running it on the first batch of images…"));
        // As osprey-cli autolabel; the editor's suggestions get all cores back afterwards.
        const int cores = assist::machineCores();
        options.workers = assist::defaultInferenceWorkers(predictor->get(), model.device);
        options.openPredictor = [model] { return assist::BoxPredictor::open(model); };
        assist::setInferenceThreads(std::max(1, cores / options.workers));
        const auto started = std::chrono::steady_clock::now();
        int stored = 0;
        auto report = assist::autoLabel(**project, **predictor, options, [&](int done, int total) {
            const double elapsed =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            stored = done;
            // Waits until the dialog has shown this batch: a stop asked for now ends right after it.
            return context.deliver(QVariant::fromValue(AutoLabelProgress{done, total, elapsed}));
        });
        assist::setInferenceThreads(cores);
        if (!report)
            return TaskResult{stored, QString::fromStdString(report.message())};
        return TaskResult{QVariant::fromValue(std::make_shared<assist::AutoLabelReport>(std::move(*report))),
                          {}};
    });
}

void AutoLabelDialog::onDelivered(const QVariant& value) {
    if (value.metaType() == QMetaType::fromType<AutoLabelProgress>()) {
        const auto progress = value.value<AutoLabelProgress>();
        onProgress(progress.done, progress.total, progress.elapsedSeconds);
    } else if (!m_task->isCancelled()) {
        m_status->setText(value.toString());
    }
}

void AutoLabelDialog::onProgress(int done, int total, double elapsedSeconds) {
    m_total = total; // the run's own count, should images have changed since the dialog counted
    m_progress->setRange(0, std::max(1, total));
    m_progress->setValue(done);
    m_progress->setTextVisible(true);
    const double rate = elapsedSeconds > 0 ? done / elapsedSeconds : 0.0;
    QString text = tr("%1 / %2 images, %3 images/s").arg(done).arg(total).arg(rate, 0, 'f', 1);
    if (rate > 0 && done < total)
        text += (total - done) / rate < 1
                    ? tr(", under a second left")
                    : tr(", about %1 left").arg(AutoLabelSummary::duration((total - done) / rate));
    if (m_task->isCancelled())
        text += QLatin1Char('\n') + tr("Stopping after the current batch…");
    m_status->setText(text);
    emit progressed(done, total);
}

void AutoLabelDialog::cancel() {
    if (!isRunning())
        return;
    m_task->cancel();
    m_cancelButton->setEnabled(false);
    m_status->setText(m_status->text() + QLatin1Char('\n') + tr("Stopping after the current batch…"));
}

void AutoLabelDialog::onFinished(const TaskResult& result) {
    setRunning(false);
    m_progress->setRange(0, std::max(1, m_total));
    bool stored = false;
    if (!result.ok()) {
        m_error = result.error;
        m_progress->setVisible(false);
        const int done = result.value.toInt();
        m_status->setText(tr("Auto-label failed."));
        QString text = m_error;
        if (done > 0)
            text += "\n\n" + tr("Images processed before the error keep their boxes: %1.").arg(done);
        m_summary->setPlainText(text);
        stored = done > 0;
    } else {
        m_report = *result.value.value<std::shared_ptr<assist::AutoLabelReport>>();
        m_progress->setValue(m_report->images);
        m_status->setText(m_report->cancelled ? tr("Stopped.") : tr("Finished."));
        m_summary->setPlainText(AutoLabelSummary::of(*m_report, m_total, m_runMode));
        stored = m_report->images > 0;
        m_reviewButton->setVisible(m_report->boxes > 0);
    }
    if (stored && m_document) {
        m_document->reloadClasses(); // add_classes may have added some
        emit m_document->imagesReset();
    }
    if (stored)
        emit projectChanged(m_runMode == assist::WriteMode::Replace);
    emit runFinished();
    if (m_closeWhenDone)
        QDialog::reject();
}

void AutoLabelDialog::reject() {
    if (!isRunning()) {
        QDialog::reject();
        return;
    }
    const auto answer =
        QMessageBox::question(this, tr("Stop Auto-Label?"),
                              tr("Auto-label is still running. Stop it after the current batch and close?\n"
                                 "The images processed so far keep their boxes."),
                              QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes)
        return;
    if (!isRunning()) { // it ended while the question was open
        QDialog::reject();
        return;
    }
    m_closeWhenDone = true;
    cancel();
}

void AutoLabelDialog::chooseModel() {
    const QString start = !m_model.model.empty() ? toText(m_model.model.parent_path())
                          : m_document           ? m_document->folder()
                                                 : QString();
    if (const auto source = askForModelSource(this, tr("Choose a Model for Auto-Label"), start))
        setModel(*source);
}

ClassMappingDialog* AutoLabelDialog::editClassMapping() {
    if (m_model.model.empty())
        chooseModel();
    if (m_model.model.empty() || !m_document || isRunning())
        return nullptr;
    auto* dialog = new ClassMappingDialog(m_document, m_model, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
    return dialog;
}

} // namespace osprey::ui
