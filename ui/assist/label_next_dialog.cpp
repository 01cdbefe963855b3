#include "ui/assist/label_next_dialog.h"

#include "assist/assist_options.h"
#include "assist/auto_labeler.h"
#include "assist/inference_threads.h"
#include "assist/label_selector.h"
#include "run/run_curves.h"
#include "ui/assist/auto_label_summary.h"
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
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>
#include <chrono>

namespace osprey::ui {

namespace {

QString toText(const std::filesystem::path& path) {
    return QString::fromStdString(path.string());
}

} // namespace

LabelNextDialog::LabelNextDialog(ProjectDocument* document, const assist::ModelSource& model, QWidget* parent)
    : QDialog(parent), m_document(document), m_task(new BackgroundTask(this)) {
    setWindowTitle(tr("Choose Images to Label Next"));
    resize(600, 320);

    m_modelPath = new QLineEdit(this);
    m_modelPath->setReadOnly(true);
    m_modelPath->setPlaceholderText(
        tr("No model yet: choose the model you train (best.pt), an ONNX or Darknet model"));
    m_chooseButton = new QPushButton(tr("C&hoose…"), this);
    auto* modelRow = new QHBoxLayout;
    modelRow->addWidget(m_modelPath, 1);
    modelRow->addWidget(m_chooseButton);

    // How many, which strategy, proposals and their confidence: `osprey-cli select`'s declared options.
    m_settings = new OptionForm(OptionForm::guiFields(assist::selectOptions()), this);
    m_settings->setObjectName(QStringLiteral("settings"));
    m_settings->layout()->setContentsMargins(0, 0, 0, 0);
    m_settings->setChoices(
        QStringLiteral("strategy"),
        {{tr("Where the model is least sure, spread over scenes"), QStringLiteral("uncertainty")},
         {tr("One image per scene (no model needed)"), QStringLiteral("diversity")},
         {tr("At random (the baseline)"), QStringLiteral("random")}});

    auto* explanation = new QLabel(
        tr("Ranks the unlabelled images (status new) by how much labelling them should help the model: boxes "
           "with ambiguous scores, disagreement between the image and its mirror image, two classes proposed "
           "at "
           "one place; near-duplicate frames are grouped so that the picks cover different scenes. The picks "
           "open as the Label Next queue, each with the reason it was picked."),
        this);
    explanation->setWordWrap(true);

    auto* form = new QFormLayout;
    form->addRow(tr("M&odel:"), modelRow);
    form->addRow(m_settings);
    if (auto* label = qobject_cast<QLabel*>(form->labelForField(modelRow)))
        label->setBuddy(m_chooseButton);

    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setVisible(false);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);

    m_startButton = new QPushButton(tr("&Pick Images"), this);
    m_startButton->setDefault(true);
    m_stopButton = new QPushButton(tr("S&top"), this);
    m_stopButton->setToolTip(tr("Stop measuring and pick from the images measured so far"));
    m_stopButton->setEnabled(false);
    m_closeButton = new QPushButton(tr("Close"), this);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_startButton);
    buttons->addWidget(m_stopButton);
    buttons->addWidget(m_closeButton);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(explanation);
    layout->addLayout(form);
    layout->addStretch(1);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addLayout(buttons);

    m_status->setObjectName(QStringLiteral("status"));
    m_progress->setObjectName(QStringLiteral("progress"));
    m_startButton->setObjectName(QStringLiteral("start"));
    m_stopButton->setObjectName(QStringLiteral("stop"));
    m_closeButton->setObjectName(QStringLiteral("close"));

    connect(m_chooseButton, &QPushButton::clicked, this, &LabelNextDialog::chooseModel);
    connect(m_startButton, &QPushButton::clicked, this, &LabelNextDialog::start);
    connect(m_stopButton, &QPushButton::clicked, this, &LabelNextDialog::cancel);
    connect(m_closeButton, &QPushButton::clicked, this, &LabelNextDialog::reject);
    connect(m_task, &BackgroundTask::finished, this, &LabelNextDialog::onFinished);
    const auto started = std::make_shared<std::chrono::steady_clock::time_point>();
    connect(m_task, &BackgroundTask::progressed, this,
            [this, started](qint64 done, qint64 total, const QString& stage) {
                if (done <= 1)
                    *started = std::chrono::steady_clock::now();
                if (!stage.isEmpty() && total <= 0) {
                    m_status->setText(stage);
                    return;
                }
                m_progress->setRange(0, static_cast<int>(std::max<qint64>(1, total)));
                m_progress->setValue(static_cast<int>(done));
                const double elapsed =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - *started).count();
                const double rate = elapsed > 0 && done > 1 ? (done - 1) / elapsed : 0.0;
                QString text =
                    tr("%1 / %2 images measured, %3 images/s").arg(done).arg(total).arg(rate, 0, 'f', 1);
                if (rate > 0 && done < total)
                    text += tr(", about %1 left").arg(AutoLabelSummary::duration((total - done) / rate));
                if (m_task->isCancelled())
                    text += QLatin1Char('\n') + tr("Stopping: picking from the images measured so far…");
                m_status->setText(text);
            });
    if (auto* strategy = qobject_cast<QComboBox*>(m_settings->editor(QStringLiteral("strategy"))))
        connect(strategy, &QComboBox::currentIndexChanged, this, &LabelNextDialog::updateState);
    setModel(model);
}

LabelNextDialog::~LabelNextDialog() {
    if (m_abandoned)
        m_abandoned->store(true);
    m_task->cancel();
    m_task->wait();
}

void LabelNextDialog::setModel(const assist::ModelSource& model) {
    m_model = model;
    m_modelPath->setText(toText(m_model.model));
    m_modelPath->setToolTip(toText(m_model.model));
    if (const auto best = run::runBestConfidence(m_model.model))
        m_settings->setValue(QStringLiteral("conf"), *best);
    updateState();
}

bool LabelNextDialog::isRunning() const {
    return m_task->isRunning();
}

QString LabelNextDialog::statusText() const {
    return m_status->text();
}

void LabelNextDialog::updateState() {
    const bool running = isRunning();
    const auto strategy = assist::selectStrategyFromString(
                              m_settings->value(QStringLiteral("strategy")).toString().toStdString())
                              .value_or(assist::SelectStrategy::Uncertainty);
    const bool needsModel = assist::needsModel(strategy);
    const bool haveModel = !m_model.model.empty();
    m_startButton->setEnabled(!running && m_document && (haveModel || !needsModel));
    m_stopButton->setEnabled(running && !m_task->isCancelled());
    m_chooseButton->setEnabled(!running);
    m_settings->setEnabled(!running);
    if (running)
        return;
    if (needsModel && !haveModel)
        m_status->setText(tr("This strategy needs a model: choose one (the model you train, its best.pt)."));
    else if (m_picked == 0)
        m_status->setText(tr("Choose how many images and the strategy, then Pick Images."));
}

void LabelNextDialog::start() {
    if (isRunning() || !m_document)
        return;
    const QStringList arguments = m_settings->arguments();
    assist::SelectOptions options;
    options.strategy = assist::selectStrategyFromString(
                           m_settings->value(QStringLiteral("strategy")).toString().toStdString())
                           .value_or(assist::SelectStrategy::Uncertainty);
    options.count = m_settings->value(QStringLiteral("n")).toInt();
    const bool propose = m_settings->value(QStringLiteral("propose")).toBool() && !m_model.model.empty();
    const float conf = static_cast<float>(m_settings->value(QStringLiteral("conf")).toDouble());
    const bool withModel = assist::needsModel(options.strategy) || propose;
    if (withModel && m_model.model.empty()) {
        chooseModel();
        if (m_model.model.empty())
            return;
    }
    m_picked = 0;
    m_progress->setVisible(true);
    m_progress->setRange(0, 0); // busy until the first image is measured
    m_status->setText(m_model.model.empty() ? tr("Measuring the images…")
                                            : tr("Loading %1…").arg(toText(m_model.model.filename())));
    const std::string folder = m_document->folder().toStdString();
    const QString modelFile = toText(m_model.model);
    m_abandoned = std::make_shared<std::atomic<bool>>(false);
    m_task->start([folder, model = m_model, modelFile, options, withModel, propose, conf,
                   abandoned = m_abandoned](TaskContext& context) mutable {
        auto project = project::Project::open(folder);
        if (!project)
            return TaskResult{
                {}, tr("Cannot open the project: %1").arg(QString::fromStdString(project.message()))};
        std::unique_ptr<assist::BoxPredictor> predictor;
        const int cores = assist::machineCores();
        if (withModel) {
            auto opened = assist::BoxPredictor::open(model);
            if (!opened) {
                QString message = QString::fromStdString(opened.message());
                if (!message.contains(QFileInfo(modelFile).fileName()))
                    message = modelFile + ": " + message;
                return TaskResult{{}, tr("Cannot load the model.\n%1").arg(message)};
            }
            predictor = std::move(*opened);
        }
        options.workers = assist::defaultInferenceWorkers(predictor.get(), model.device);
        options.openPredictor = [model] { return assist::BoxPredictor::open(model); };
        assist::setInferenceThreads(std::max(1, cores / options.workers));
        auto report = assist::selectForLabelling(
            **project, assist::needsModel(options.strategy) ? predictor.get() : nullptr, options,
            [&](int done, int total) {
                context.progress(done, total, {});
                return !context.cancelled();
            });
        if (!report || abandoned->load()) { // closed while measuring: nothing is saved
            assist::setInferenceThreads(cores);
            return TaskResult{{},
                              report ? tr("Closed before the end; nothing saved.")
                                     : QString::fromStdString(report.message())};
        }
        QVariantMap value{{QStringLiteral("picked"), static_cast<int>(report->picked.size())},
                          {QStringLiteral("candidates"), report->candidates},
                          {QStringLiteral("measured"), report->measured},
                          {QStringLiteral("failed"), report->failed},
                          {QStringLiteral("cancelled"), report->cancelled},
                          {QStringLiteral("seconds"), report->seconds}};
        if (auto saved = assist::saveLabelNextQueue(**project, report->picked, options.strategy,
                                                    model.model.filename().string());
            !saved) {
            assist::setInferenceThreads(cores);
            return TaskResult{{}, QString::fromStdString(saved.message())};
        }
        if (propose && predictor && !report->picked.empty()) {
            context.progress(0, 0, tr("Proposing boxes on the picked images…"));
            assist::AutoLabelOptions label;
            label.images = assist::ImageSelection::Listed;
            for (const auto& item : report->picked)
                label.imageIds.push_back(item.imageId);
            label.suggest.confThreshold = conf;
            label.mappingKey = model.model.filename().string();
            label.workers = options.workers;
            label.openPredictor = options.openPredictor;
            auto stored = assist::autoLabel(**project, *predictor, label);
            if (!stored) {
                assist::setInferenceThreads(cores);
                return TaskResult{{},
                                  tr("The picks are saved, but proposing boxes on them failed: %1")
                                      .arg(QString::fromStdString(stored.message()))};
            }
            value.insert(QStringLiteral("boxes"), stored->boxes);
        }
        assist::setInferenceThreads(cores);
        return TaskResult{value, {}};
    });
    updateState();
}

void LabelNextDialog::cancel() {
    if (!isRunning())
        return;
    m_task->cancel();
    updateState();
}

void LabelNextDialog::onFinished(const TaskResult& result) {
    m_progress->setRange(0, 1);
    if (!result.ok()) {
        m_progress->setVisible(false);
        m_status->setText(tr("Picking images failed.") + QLatin1Char('\n') + result.error);
        updateState();
        return;
    }
    const QVariantMap value = result.value.toMap();
    m_picked = value.value(QStringLiteral("picked")).toInt();
    m_progress->setValue(1);
    const int candidates = value.value(QStringLiteral("candidates")).toInt();
    if (m_picked == 0) {
        m_status->setText(candidates == 0 ? tr("No unlabelled image (status new) to pick from.")
                                          : tr("Stopped before any image was measured; nothing picked."));
        updateState();
        return;
    }
    QString text = tr("Picked %1 of %2 images in %3.")
                       .arg(m_picked)
                       .arg(candidates)
                       .arg(AutoLabelSummary::duration(value.value(QStringLiteral("seconds")).toDouble()));
    if (value.value(QStringLiteral("cancelled")).toBool())
        text += QLatin1Char(' ') + tr("Stopped after %1 images: the picks come from those.")
                                       .arg(value.value(QStringLiteral("measured")).toInt());
    if (value.contains(QStringLiteral("boxes")))
        text += QLatin1Char(' ') +
                tr("Proposed boxes stored for review: %1.").arg(value.value(QStringLiteral("boxes")).toInt());
    m_status->setText(text);
    updateState();
    if (value.contains(QStringLiteral("boxes")) && m_document) {
        m_document->reloadClasses();
        emit m_document->imagesReset();
        emit projectChanged();
    }
    emit queueReady(m_picked);
    QDialog::accept();
}

void LabelNextDialog::reject() {
    if (!isRunning()) {
        QDialog::reject();
        return;
    }
    const auto answer =
        QMessageBox::question(this, tr("Stop Picking Images?"),
                              tr("The images are still being measured. Stop and close? Nothing "
                                 "is saved."),
                              QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes || !isRunning()) {
        if (!isRunning())
            QDialog::reject();
        return;
    }
    disconnect(m_task, &BackgroundTask::finished, this, &LabelNextDialog::onFinished);
    m_abandoned->store(true);
    m_task->cancel();
    m_task->wait();
    QDialog::reject();
}

void LabelNextDialog::chooseModel() {
    const QString start = !m_model.model.empty() ? toText(m_model.model.parent_path())
                          : m_document           ? m_document->folder()
                                                 : QString();
    if (const auto source = askForModelSource(this, tr("Choose a Model to Pick Images With"), start))
        setModel(*source);
}

} // namespace osprey::ui
