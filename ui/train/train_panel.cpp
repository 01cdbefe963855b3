#include "ui/train/train_panel.h"

#include "remote/mlflow_client.h"
#include "run/run_files.h"
#include "run/run_folder.h"
#include "ui/planner/planner_panel.h"
#include "ui/project/project_document.h"
#include "ui/project/task_progress.h"
#include "ui/train/confusion_matrix_dialog.h"
#include "ui/train/gpu_probe.h"
#include "ui/train/live_run.h"
#include "ui/train/run_diff_panel.h"
#include "ui/train/run_viewer.h"
#include "ui/train/runs_table.h"
#include "ui/train/train_preflight.h"
#include "ui/train/train_settings.h"
#include "ui/train/training_charts.h"
#include "ui/train/training_run_model.h"
#include "ui/train/training_view.h"

#include <QDir>
#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace osprey::ui {

namespace {

QPushButton* button(const QString& text, const char* name, const QString& tooltip, QWidget* parent) {
    auto* created = new QPushButton(text, parent);
    created->setObjectName(QLatin1String(name));
    created->setToolTip(tooltip);
    return created;
}

} // namespace

TrainPanel::TrainPanel(ProjectDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document),
      m_liveRun(new LiveRun(QDir(document->cacheFolder()).filePath(QStringLiteral("trainer")), this)),
      m_preflight(new TrainPreflight(this)), m_gpuProbe(new GpuProbe(this)), m_live(m_liveRun->model()) {
    m_form = new TrainForm(this);
    if (const auto remote = m_document->project().settings().get("remote.project");
        remote && !remote->empty())
        m_form->setValue(QStringLiteral("remote"), QString::fromStdString(*remote));
    restoreTracking();
    m_form->setChoices(QStringLiteral("device"), GpuProbe::deviceChoices({}));
    m_form->setNote(QStringLiteral("device"), tr("looking for NVIDIA GPUs…"));
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_start = button(tr("Start Training"), "startTraining",
                     tr("Check the dataset, then train a detector on this project's train split, validating "
                        "on the val split."),
                     this);
    m_stop = button(tr("Stop"), "stopTraining",
                    tr("Finish the current batch, save last.pt and end the run; it can be resumed."), this);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_start, 1);
    buttons->addWidget(m_stop);
    m_checkStatus = new QLabel(this);
    m_checkStatus->setObjectName(QStringLiteral("preflightStatus"));
    m_checkStatus->setStyleSheet(QStringLiteral("color: #b0b4bb;"));
    m_checkStatus->hide();
    m_checkProgress = new QProgressBar(this);
    m_checkProgress->setMaximumHeight(6);
    m_checkProgress->setTextVisible(false);
    m_checkProgress->hide();
    m_runs = new RunsTable(document, this);
    // The planner in the wide right-hand view, beside the form it follows (model, epochs, imgsz, batch): its
    // table of GPUs needs the room (every column in view at 1280 x 800), the 420-px form column has not.
    m_planner = new PlannerPanel(this);
    m_planner->setObjectName(QStringLiteral("plannerPanel"));
    QList<QWidget*> watched;
    for (const char* key : {"model", "epochs", "imgsz", "batch"})
        watched << m_form->editor(QLatin1String(key));
    m_planner->watch(watched, [this](const QString& key) { return m_form->value(key); });
    m_planner->setProjectFolder(document->folder());
    auto* tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("trainTabs"));
    tabs->addTab(scroll, tr("Settings"));
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(tabs, 3);
    leftLayout->addLayout(buttons);
    leftLayout->addWidget(m_checkProgress);
    leftLayout->addWidget(m_checkStatus);
    leftLayout->addWidget(m_runs, 2);

    m_view = new TrainingView(this);
    m_viewer = new RunViewer(m_view, m_live, this);
    connect(m_view->charts(), &TrainingCharts::epochClicked, this, [this](int epoch) {
        const TrainingRunModel* shown = m_view->charts()->model();
        if (shown && !shown->runDir().isEmpty())
            emit worstImagesRequested(shown->runDir(), epoch);
    });
    connect(m_view->charts(), &TrainingCharts::confusionMatrixRequested, this,
            [this](int epoch) { showConfusionMatrix(epoch); });
    m_view->tabs()->addTab(m_planner, tr("Planner"));
    m_diff = new RunDiffPanel(m_document, this);
    m_view->tabs()->setTabVisible(m_view->tabs()->addTab(m_diff, tr("Differences")), false);
    connect(m_diff, &RunDiffPanel::changedImagesRequested, this, &TrainPanel::changedImagesRequested);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(m_view);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({420, 1000});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(splitter);

    connect(m_start, &QPushButton::clicked, this, [this] {
        if (m_preflight->isRunning()) {
            m_preflight->cancel();
            return;
        }
        QString error;
        if (!requestStart(&error))
            QMessageBox::warning(this, tr("Training"), error);
    });
    connect(m_stop, &QPushButton::clicked, this, &TrainPanel::stop);
    connect(m_runs, &RunsTable::openRequested, this, [this](const QStringList& names) {
        if (names.size() > 1)
            compareRuns(names);
        else if (!names.isEmpty())
            openRun(names.first());
    });
    connect(m_runs, &RunsTable::resumeRequested, this, [this](const QString& name) {
        QString error;
        if (!resume(name, &error))
            QMessageBox::warning(this, tr("Training"), error);
    });
    connect(m_runs, &RunsTable::retrainRequested, this, [this](const QString& name) {
        QString error;
        if (!retrain(name, &error))
            QMessageBox::warning(this, tr("Training"), error);
    });
    connect(m_viewer, &RunViewer::opened, this, &TrainPanel::runOpened);
    connect(m_viewer, &RunViewer::comparisonShown, this, &TrainPanel::runsCompared);
    connect(m_viewer, &RunViewer::followChanged, this, &TrainPanel::updateButtons);
    connect(m_viewer, &RunViewer::followedRunEnded, this, &TrainPanel::reloadRuns);
    connect(m_liveRun, &LiveRun::runNamed, this, &TrainPanel::reloadRuns);
    connect(m_liveRun, &LiveRun::ended, this, [this] {
        m_planner->reloadData(); // the finished run is a measured point now
        reloadRuns();
        updateButtons();
        emit runEnded();
    });
    connect(m_preflight, &TrainPreflight::finished, this, &TrainPanel::onPreflight);
    showTaskProgress(m_preflight->task(), m_checkProgress, m_checkStatus);
    connect(m_gpuProbe, &GpuProbe::finished, this, &TrainPanel::onGpus);
    m_gpuProbe->start();
    reloadRuns();
    updateButtons();
}

TrainPanel::~TrainPanel() {
    // Stop (and wait for) an attached trainer while the models it reports to still exist.
    delete m_liveRun;
    m_liveRun = nullptr;
}

bool TrainPanel::isRunning() const {
    return m_liveRun && m_liveRun->isRunning();
}

qint64 TrainPanel::trainerProcessId() const {
    return m_liveRun->processId();
}

qint64 TrainPanel::detachRun() {
    const qint64 pid = m_liveRun->detach();
    updateButtons();
    return pid;
}

void TrainPanel::setTrainerPath(const QString& path) {
    m_liveRun->setTrainerPath(path);
}

QString TrainPanel::trainerPath() const {
    return m_liveRun->trainerPath();
}

QStringList TrainPanel::lastArguments() const {
    return m_liveRun->lastArguments();
}

bool TrainPanel::requestStart(QString* error) {
    if (isRunning() || m_preflight->isRunning()) {
        if (error)
            *error = isRunning() ? tr("A run is already in progress. Stop it before starting another.")
                                 : tr("The dataset check is still running.");
        return false;
    }
    if (!m_form->validate(error))
        return false;
    m_preflight->start(m_document->folder(), m_form->value(QStringLiteral("imgsz")).toInt());
    m_checkStatus->setText(tr("Checking the dataset before training…"));
    m_checkStatus->show();
    m_checkProgress->setRange(0, 0);
    m_checkProgress->show();
    updateButtons();
    return true;
}

void TrainPanel::onPreflight(const PreflightResult& result) {
    m_checkStatus->hide();
    m_checkProgress->hide();
    updateButtons();
    if (result.cancelled) {
        emit preflightFinished(result);
        return;
    }
    if (result.blocksStart() || !result.warnings.isEmpty() || !result.failure.isEmpty()) {
        QMessageBox* box = TrainPreflight::createDialog(result, this);
        if (!result.blocksStart())
            connect(box, &QMessageBox::accepted, this, [this] {
                QString error;
                if (!start(&error))
                    QMessageBox::warning(this, tr("Training"), error);
            });
        box->open();
    } else {
        QString error;
        if (!start(&error))
            QMessageBox::warning(this, tr("Training"), error);
    }
    emit preflightFinished(result);
}

void TrainPanel::onGpus(const QList<GpuDevice>& devices, const QString& note) {
    m_form->setChoices(QStringLiteral("device"), GpuProbe::deviceChoices(devices));
    m_form->setNote(QStringLiteral("device"), note);
}

bool TrainPanel::start(QString* error) {
    if (!m_form->validate(error))
        return false;
    QStringList arguments = m_form->trainArguments();
    // The switch decides, also when MLFLOW_TRACKING_URI is set in the GUI's environment.
    if (!m_form->value(QStringLiteral("track")).toBool())
        arguments.append(QStringLiteral("mlflow=none"));
    if (!launch(arguments, error))
        return false;
    if (m_form->value(QStringLiteral("stream")).toBool()) {
        const std::string remote = m_form->value(QStringLiteral("remote")).toString().toStdString();
        if (const Status saved = m_document->project().settings().set("remote.project", remote); !saved)
            m_live->appendLog(tr("warning: could not remember the platform project for this project: %1")
                                  .arg(QString::fromStdString(saved.message())));
    }
    rememberTracking();
    return true;
}

namespace {
// The project settings that remember the MLflow rows of the train form.
constexpr const char* kTrackSetting = "mlflow.enabled";
constexpr const char* kServerSetting = "mlflow.uri";
constexpr const char* kExperimentSetting = "mlflow.experiment";
} // namespace

void TrainPanel::restoreTracking() {
    auto& project = m_document->project();
    const auto read = [&](const char* key) {
        const auto value = project.settings().get(key);
        return value ? QString::fromStdString(*value) : QString();
    };
    if (const QString enabled = read(kTrackSetting); !enabled.isEmpty()) {
        m_form->setValue(QStringLiteral("track"), enabled == QLatin1String("true"));
        m_form->setValue(QStringLiteral("mlflow"), read(kServerSetting));
        m_form->setValue(QStringLiteral("mlflow_experiment"), read(kExperimentSetting));
        return;
    }
    // Never chosen for this project: MLflow's own variables say where a team logs.
    const QString uri = qEnvironmentVariable(remote::kMlflowUriEnv);
    if (uri.startsWith(QLatin1String("http"))) {
        m_form->setValue(QStringLiteral("track"), true);
        m_form->setValue(QStringLiteral("mlflow"), uri);
        m_form->setValue(QStringLiteral("mlflow_experiment"),
                         qEnvironmentVariable(remote::kMlflowExperimentEnv));
    }
}

void TrainPanel::rememberTracking() {
    const bool on = m_form->value(QStringLiteral("track")).toBool();
    const std::vector<std::pair<const char*, std::string>> values = {
        {kTrackSetting, on ? "true" : "false"},
        {kServerSetting, m_form->value(QStringLiteral("mlflow")).toString().trimmed().toStdString()},
        {kExperimentSetting,
         m_form->value(QStringLiteral("mlflow_experiment")).toString().trimmed().toStdString()}};
    for (const auto& [key, value] : values)
        if (const Status saved = m_document->project().settings().set(key, value); !saved) {
            m_live->appendLog(tr("warning: could not remember the MLflow settings for this project: %1")
                                  .arg(QString::fromStdString(saved.message())));
            return;
        }
}

bool TrainPanel::resume(const QString& name, QString* error) {
    if (name.isEmpty()) {
        if (error)
            *error = tr("Select a stopped run to resume.");
        return false;
    }
    return launch({QStringLiteral("name=%1").arg(name), QStringLiteral("resume=true")}, error);
}

bool TrainPanel::retrain(const QString& name, QString* error) {
    if (name.isEmpty()) {
        if (error)
            *error = tr("Select the run to retrain from.");
        return false;
    }
    const auto arguments = run::retrainArguments(
        run::RunFolder::inProject(m_document->folder().toStdString(), name.toStdString()).dir());
    if (!arguments) {
        if (error)
            *error = tr("Cannot retrain from %1: %2").arg(name, QString::fromStdString(arguments.message()));
        return false;
    }
    QStringList list;
    for (const auto& argument : *arguments)
        list.append(QString::fromStdString(argument));
    return launch(list, error);
}

bool TrainPanel::launch(const QStringList& arguments, QString* error) {
    if (isRunning()) {
        if (error)
            *error = tr("A run is already in progress. Stop it before starting another.");
        return false;
    }
    m_viewer->stopFollowing();
    m_view->setModel(m_live);
    if (!m_liveRun->launch(m_document->folder(), arguments, error))
        return false;
    updateButtons();
    return true;
}

void TrainPanel::stop() {
    if (isRunning())
        m_liveRun->stop();
    else if (m_viewer->isFollowing())
        m_viewer->stopFollowedRun();
    else
        return;
    m_stop->setEnabled(false);
}

void TrainPanel::kill() {
    m_liveRun->kill();
}

void TrainPanel::reloadRuns() {
    m_runs->reload();
}

QStringList TrainPanel::selectedRuns() const {
    return m_runs->selectedRuns();
}

QTableWidget* TrainPanel::runsTable() const {
    return m_runs->table();
}

TrainingRunModel* TrainPanel::replayModel() const {
    return m_viewer->replay();
}

const QList<TrainingRunModel*>& TrainPanel::comparedModels() const {
    return m_viewer->comparedModels();
}

void TrainPanel::openRun(const QString& name) {
    if (name.isEmpty())
        return;
    m_view->tabs()->setTabVisible(m_view->tabs()->indexOf(m_diff), false);
    if (isRunning() && name == m_liveRun->runName()) {
        m_viewer->stopFollowing();
        m_view->setModel(m_live);
        emit runOpened(name);
        return;
    }
    const auto folder = run::RunFolder::inProject(QFile::encodeName(m_document->folder()).toStdString(),
                                                  QFile::encodeName(name).toStdString());
    m_viewer->open(QFile::decodeName(folder.dir().c_str()), name);
}

void TrainPanel::compareRuns(const QStringList& names) {
    if (names.isEmpty())
        return;
    // The first two runs' argument and data differences, beside the overlaid charts.
    const int diffTab = m_view->tabs()->indexOf(m_diff);
    m_view->tabs()->setTabVisible(diffTab, names.size() >= 2);
    if (names.size() >= 2)
        m_diff->compare(names[0], names[1]);
    const auto runs = run::RunFolder::runsDir(QFile::encodeName(m_document->folder()).toStdString());
    m_viewer->compare(QFile::decodeName(runs.c_str()), names, isRunning() ? m_liveRun->runName() : QString());
}

void TrainPanel::updateButtons() {
    const bool running = isRunning();
    const bool checking = m_preflight->isRunning();
    m_start->setEnabled(!running);
    m_start->setText(checking ? tr("Cancel Dataset Check") : tr("Start Training"));
    m_stop->setEnabled(running || m_viewer->followedRunCanStop());
    m_form->setEnabled(!running && !checking);
    m_runs->setTraining(running);
}

ConfusionMatrixDialog* TrainPanel::showConfusionMatrix(int epoch) {
    const TrainingRunModel* shown = m_view->charts()->model();
    if (!shown || shown->runDir().isEmpty())
        return nullptr;
    auto* dialog = new ConfusionMatrixDialog(shown->runDir(), epoch, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ConfusionMatrixDialog::cellRequested, this, &TrainPanel::confusionCellRequested);
    dialog->show();
    return dialog;
}

} // namespace osprey::ui
