#include "ui/train/train_panel.h"

#include "ui/project/background_task.h"
#include "ui/project/project_document.h"
#include "ui/project/task_progress.h"
#include "ui/train/gpu_probe.h"
#include "ui/train/train_preflight.h"
#include "ui/train/train_settings.h"
#include "ui/train/trainer_process.h"
#include "ui/train/training_charts.h"
#include "ui/train/training_run_model.h"
#include "ui/train/training_view.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <ctime>

namespace osprey::ui {

namespace {

QString statusName(project::RunStatus status) {
    switch (status) {
    case project::RunStatus::Running:
        return TrainPanel::tr("running");
    case project::RunStatus::Finished:
        return TrainPanel::tr("finished");
    case project::RunStatus::Stopped:
        return TrainPanel::tr("stopped");
    case project::RunStatus::Failed:
        return TrainPanel::tr("failed");
    }
    return {};
}

QTableWidgetItem* item(const QString& text, const QVariant& sortValue = {}) {
    auto* cell = new QTableWidgetItem(text);
    cell->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (sortValue.isValid())
        cell->setData(Qt::UserRole, sortValue);
    return cell;
}

} // namespace

TrainPanel::TrainPanel(ProjectDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document),
      m_trainerPath(QCoreApplication::applicationDirPath() + QStringLiteral("/osprey-cli")),
      m_trainer(new TrainerProcess(QDir(document->cacheFolder()).filePath(QStringLiteral("trainer")), this)),
      m_preflight(new TrainPreflight(this)), m_gpuProbe(new GpuProbe(this)),
      m_live(new TrainingRunModel(this)), m_replay(new TrainingRunModel(this)), m_follow(new QTimer(this)) {
    m_form = new TrainForm(this);
    if (const auto remote = m_document->project().setting("remote.project"); remote && !remote->empty())
        m_form->setValue(QStringLiteral("remote"), QString::fromStdString(*remote));
    m_form->setChoices(QStringLiteral("device"), {{tr("CPU"), QStringLiteral("cpu")}});
    m_form->setNote(QStringLiteral("device"), tr("looking for NVIDIA GPUs…"));
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_start = new QPushButton(tr("Start Training"), this);
    m_start->setToolTip(tr("Check the dataset, then train a detector on this project's train split, "
                           "validating on the val split."));
    m_start->setObjectName(QStringLiteral("startTraining"));
    m_stop = new QPushButton(tr("Stop"), this);
    m_stop->setObjectName(QStringLiteral("stopTraining"));
    m_stop->setToolTip(tr("Finish the current batch, save last.pt and end the run; it can be resumed."));
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

    m_runs = new QTableWidget(0, ColumnCount, this);
    m_runs->setHorizontalHeaderLabels(
        {tr("Run"), tr("Status"), tr("Model"), tr("Epochs"), tr("Best mAP50-95"), tr("Duration")});
    m_runs->verticalHeader()->hide();
    m_runs->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_runs->horizontalHeader()->setStretchLastSection(true);
    m_runs->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_runs->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_runs->setToolTip(tr("Select one run to see its charts, or several (Ctrl+click) to compare them."));
    m_runsEmpty = new QLabel(tr("No runs yet in this project."), this);
    m_runsEmpty->setStyleSheet(QStringLiteral("color: #8a8f98;"));
    m_open = new QPushButton(tr("Show Charts"), this);
    m_open->setObjectName(QStringLiteral("showCharts"));
    m_open->setToolTip(tr("Show the selected run's charts (double-click a row does the same); with several "
                          "runs selected, overlay their charts."));
    m_resume = new QPushButton(tr("Resume"), this);
    m_resume->setObjectName(QStringLiteral("resumeRun"));
    m_resume->setToolTip(tr("Continue the selected stopped run from its last.pt."));
    auto* runButtons = new QHBoxLayout;
    runButtons->addWidget(m_open);
    runButtons->addWidget(m_resume);
    runButtons->addStretch(1);

    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(scroll, 3);
    leftLayout->addLayout(buttons);
    leftLayout->addWidget(m_checkProgress);
    leftLayout->addWidget(m_checkStatus);
    leftLayout->addWidget(new QLabel(tr("<b>Runs</b>"), this));
    leftLayout->addWidget(m_runs, 2);
    leftLayout->addWidget(m_runsEmpty);
    leftLayout->addLayout(runButtons);

    m_view = new TrainingView(this);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(m_view);
    splitter->setStretchFactor(0, 0);
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
    connect(m_open, &QPushButton::clicked, this, [this] {
        const QStringList names = selectedRuns();
        if (names.size() > 1)
            compareRuns(names);
        else
            openRun(selectedRun());
    });
    connect(m_resume, &QPushButton::clicked, this, [this] {
        QString error;
        if (!resume(selectedRun(), &error))
            QMessageBox::warning(this, tr("Training"), error);
    });
    connect(m_runs, &QTableWidget::cellDoubleClicked, this,
            [this](int row) { openRun(m_runs->item(row, ColumnName)->text()); });
    connect(m_runs, &QTableWidget::itemSelectionChanged, this, &TrainPanel::updateButtons);
    connect(m_trainer, &TrainerProcess::lineReceived, this, &TrainPanel::onLine);
    connect(m_trainer, &TrainerProcess::errorLine, this, &TrainPanel::onErrorLine);
    connect(m_trainer, &TrainerProcess::finished, this, &TrainPanel::onFinished);
    connect(m_trainer, &TrainerProcess::failedToStart, this, &TrainPanel::onFailedToStart);
    connect(m_preflight, &TrainPreflight::finished, this, &TrainPanel::onPreflight);
    showTaskProgress(m_preflight->task(), m_checkProgress, m_checkStatus);
    connect(m_gpuProbe, &GpuProbe::finished, this, &TrainPanel::onGpus);
    m_follow->setInterval(500);
    connect(m_follow, &QTimer::timeout, this, &TrainPanel::follow);
    m_gpuProbe->start();
    reloadRuns();
    updateButtons();
}

TrainPanel::~TrainPanel() {
    // Stop (and wait for) an attached trainer while the models it reports to still exist.
    delete m_trainer;
    m_trainer = nullptr;
}

bool TrainPanel::isRunning() const {
    return m_trainer && m_trainer->isRunning();
}

qint64 TrainPanel::trainerProcessId() const {
    return m_trainer->processId();
}

qint64 TrainPanel::detachRun() {
    if (!isRunning())
        return 0;
    const qint64 pid = m_trainer->detach();
    m_live->appendLog(tr("The run goes on in the background (process %1). Open it from the runs table "
                         "to see its progress.")
                          .arg(pid));
    updateButtons();
    return pid;
}

bool TrainPanel::validateForm(QString* error) const {
    if (!m_form->value(QStringLiteral("stream")).toBool())
        return true;
    static const QRegularExpression project(QStringLiteral("^[^/\\s]+/\\S.*$"));
    if (!project.match(m_form->value(QStringLiteral("remote")).toString()).hasMatch()) {
        if (error)
            *error = tr("Stream to platform is on, but the platform project is missing. Enter it as "
                        "user/project, or turn streaming off.");
        return false;
    }
    return true;
}

bool TrainPanel::requestStart(QString* error) {
    if (isRunning() || m_preflight->isRunning()) {
        if (error)
            *error = isRunning() ? tr("A run is already in progress. Stop it before starting another.")
                                 : tr("The dataset check is still running.");
        return false;
    }
    if (!validateForm(error))
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
    m_checkProgress = new QProgressBar(this);
    m_checkProgress->setMaximumHeight(6);
    m_checkProgress->setTextVisible(false);
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
    QList<TrainChoice> choices;
    for (const GpuDevice& gpu : devices)
        choices.append({gpu.memoryMiB > 0 ? tr("GPU %1: %2 (%3 GB)")
                                                .arg(gpu.index)
                                                .arg(gpu.name)
                                                .arg(gpu.memoryMiB / 1024.0, 0, 'f', 0)
                                          : tr("GPU %1: %2").arg(gpu.index).arg(gpu.name),
                        QString::number(gpu.index)});
    choices.append({tr("CPU"), QStringLiteral("cpu")});
    m_form->setChoices(QStringLiteral("device"), choices);
    m_form->setNote(QStringLiteral("device"), note);
}

bool TrainPanel::start(QString* error) {
    if (!validateForm(error))
        return false;
    const QStringList arguments = m_form->trainArguments();
    if (!launch(arguments, error))
        return false;
    if (m_form->value(QStringLiteral("stream")).toBool()) {
        const std::string remote = m_form->value(QStringLiteral("remote")).toString().toStdString();
        if (const Status saved = m_document->project().setSetting("remote.project", remote); !saved)
            m_live->appendLog(tr("warning: could not remember the platform project for this project: %1")
                                  .arg(QString::fromStdString(saved.message())));
    }
    return true;
}

bool TrainPanel::resume(const QString& name, QString* error) {
    if (name.isEmpty()) {
        if (error)
            *error = tr("Select a stopped run to resume.");
        return false;
    }
    return launch({QStringLiteral("name=%1").arg(name), QStringLiteral("resume=true")}, error);
}

bool TrainPanel::launch(const QStringList& arguments, QString* error) {
    if (isRunning()) {
        if (error)
            *error = tr("A run is already in progress. Stop it before starting another.");
        return false;
    }
    if (!QFileInfo(m_trainerPath).isExecutable()) {
        if (error)
            *error = tr("The trainer %1 was not found. Reinstall Osprey, or build the osprey-cli target.")
                         .arg(QDir::toNativeSeparators(m_trainerPath));
        return false;
    }
    const QStringList command =
        QStringList{QStringLiteral("train"), QStringLiteral("project=%1").arg(m_document->folder())} +
        arguments + QStringList{QStringLiteral("events=jsonl")};
    m_stderrTail.clear();
    m_liveRunName.clear();
    m_live->clear();
    m_view->setModel(m_live);
    if (!m_trainer->start(m_trainerPath, command, error))
        return false;
    m_lastArguments = command;
    m_live->appendLog(tr("$ osprey-cli %1").arg(m_lastArguments.join(QLatin1Char(' '))));
    updateButtons();
    return true;
}

void TrainPanel::stop() {
    if (!isRunning()) {
        stopFollowedRun();
        return;
    }
    m_live->appendLog(tr("Stopping: the trainer finishes the batch and saves last.pt…"));
    m_trainer->terminate();
    m_stop->setEnabled(false);
}

bool TrainPanel::followedRunCanStop() const {
    return m_follow->isActive() && TrainerProcess::isTrainer(m_replay->trainerPid());
}

void TrainPanel::stopFollowedRun() {
    if (!m_follow->isActive())
        return;
    const qint64 pid = m_replay->trainerPid();
    if (TrainerProcess::terminateTrainer(pid))
        m_replay->appendLog(
            tr("Stopping the background trainer (process %1): it finishes the batch and saves last.pt…")
                .arg(pid));
    else
        m_replay->appendLog(tr("This run's trainer (process %1) is not running any more.").arg(pid));
    m_stop->setEnabled(false);
}

void TrainPanel::kill() {
    if (!isRunning())
        return;
    m_live->appendLog(tr("Ending the trainer without waiting for it to save…"));
    m_trainer->kill();
}

void TrainPanel::onLine(const QByteArray& line) {
    // Unknown event types are ignored by the model; lines that are not JSON are the trainer's text.
    if (!m_live->ingestLine(line) && !line.trimmed().isEmpty())
        m_live->appendLog(QString::fromUtf8(line.trimmed()));
    if (m_liveRunName.isEmpty() && !m_live->runDir().isEmpty()) {
        m_liveRunName = QFileInfo(m_live->runDir()).fileName();
        reloadRuns();
    }
}

void TrainPanel::onErrorLine(const QString& line) {
    m_live->appendLog(line);
    m_stderrTail.append(line);
    while (m_stderrTail.size() > 5)
        m_stderrTail.removeFirst();
}

void TrainPanel::onFinished(int exitCode, QProcess::ExitStatus exitStatus) {
    const auto status = m_live->status();
    const bool reported =
        status != TrainingRunModel::Status::Running && status != TrainingRunModel::Status::Empty;
    if (!reported) {
        const QString how =
            exitStatus == QProcess::CrashExit
                ? tr("The trainer process crashed")
                : tr("The trainer exited with code %1 without reporting the end of the run").arg(exitCode);
        const QString tail =
            m_stderrTail.isEmpty() ? QString() : tr(" Last output: %1").arg(m_stderrTail.last());
        m_live->markCrashed(how +
                            tr(". Weights up to the last saved checkpoint are kept; resume the run "
                               "to continue.") +
                            tail);
    }
    reloadRuns();
    updateButtons();
    emit runEnded();
}

void TrainPanel::onFailedToStart(const QString& message) {
    m_live->markCrashed(tr("Could not start %1: %2").arg(QDir::toNativeSeparators(m_trainerPath), message));
    updateButtons();
    emit runEnded();
}

void TrainPanel::reloadRuns() {
    auto runs = m_document->project().runs();
    m_runs->setRowCount(0);
    if (!runs) {
        m_runsEmpty->setText(
            tr("Cannot read the runs table: %1").arg(QString::fromStdString(runs.message())));
        m_runsEmpty->show();
        return;
    }
    const auto& records = runs.value();
    m_runs->setRowCount(int(records.size()));
    for (int row = 0; row < int(records.size()); ++row) {
        const project::RunRecord& run = records[size_t(row)];
        const QJsonObject config = QJsonDocument::fromJson(QByteArray::fromStdString(run.config)).object();
        const std::int64_t end = run.finishedAt.value_or(std::time(nullptr));
        m_runs->setItem(row, ColumnName, item(QString::fromStdString(run.name)));
        m_runs->setItem(row, ColumnStatus, item(statusName(run.status)));
        m_runs->setItem(row, ColumnModel, item(config.value(QLatin1String("model")).toString()));
        m_runs->setItem(row, ColumnEpochs, item(config.value(QLatin1String("epochs")).toString()));
        m_runs->setItem(
            row, ColumnBest,
            item(run.bestFitness
                     ? tr("%1 (epoch %2)").arg(*run.bestFitness, 0, 'f', 4).arg(run.bestEpoch.value_or(0))
                     : tr("–"),
                 run.bestFitness.value_or(-1.0)));
        m_runs->setItem(row, ColumnDuration, item(TrainingView::formatDuration(double(end - run.startedAt))));
    }
    m_runsEmpty->setVisible(records.empty());
    updateButtons();
}

QString TrainPanel::selectedRun() const {
    const QStringList names = selectedRuns();
    return names.isEmpty() ? QString() : names.first();
}

QStringList TrainPanel::selectedRuns() const {
    QList<int> rows;
    for (const QModelIndex& index : m_runs->selectionModel()->selectedRows())
        rows.append(index.row());
    std::sort(rows.begin(), rows.end());
    QStringList names;
    for (int row : rows)
        names.append(m_runs->item(row, ColumnName)->text());
    return names;
}

void TrainPanel::openRun(const QString& name) {
    if (name.isEmpty())
        return;
    if (isRunning() && name == m_liveRunName) {
        m_view->setModel(m_live);
        emit runOpened(name);
        return;
    }
    // Parsing a long run's events takes a moment: build the model on a worker thread, then hand it over.
    const QString runDir = QDir(m_document->folder()).filePath(QStringLiteral("runs/") + name);
    QThread* gui = thread();
    auto* watcher = new QFutureWatcher<TrainingRunModel*>(this);
    m_follow->stop();
    connect(watcher, &QFutureWatcher<TrainingRunModel*>::finished, this, [this, watcher, name, runDir] {
        watcher->deleteLater();
        TrainingRunModel* model = watcher->result();
        model->setParent(this);
        delete m_replay;
        m_replay = model;
        m_view->setModel(m_replay);
        // Still being written by a trainer this window did not start: keep reading what it appends.
        const QString events = QDir(runDir).filePath(QStringLiteral("events.jsonl"));
        if (model->status() == TrainingRunModel::Status::Running && QFileInfo::exists(events)) {
            m_followPath = events;
            m_followOffset = model->eventsFileOffset();
            m_follow->start();
        }
        updateButtons();
        emit runOpened(name);
    });
    watcher->setFuture(QtConcurrent::run([runDir, gui] {
        auto* model = new TrainingRunModel;
        QString message;
        if (!model->loadRunFolder(runDir, &message))
            model->markCrashed(message);
        model->moveToThread(gui);
        return model;
    }));
}

void TrainPanel::follow() {
    // A trainer that is gone may still have written its last lines: look at the process first, then read.
    const qint64 pid = m_replay->trainerPid();
    const bool trainerGone = pid > 0 && !TrainerProcess::isTrainer(pid);
    QFile file(m_followPath);
    if (m_view->model() != m_replay || !file.open(QIODevice::ReadOnly) || file.size() < m_followOffset) {
        m_follow->stop();
        updateButtons();
        return;
    }
    file.seek(m_followOffset);
    const QByteArray fresh = file.readAll();
    const qsizetype complete = fresh.lastIndexOf('\n') + 1;
    qsizetype start = 0;
    for (qsizetype end; start < complete && (end = fresh.indexOf('\n', start)) >= 0; start = end + 1)
        m_replay->ingestLine(fresh.mid(start, end - start));
    m_followOffset += complete;
    if (m_replay->status() == TrainingRunModel::Status::Running && trainerGone)
        m_replay->markCrashed(
            tr("the trainer (process %1) ended without finishing the run; resume it from last.pt").arg(pid));
    const auto status = m_replay->status();
    if (status != TrainingRunModel::Status::Running && status != TrainingRunModel::Status::Empty) {
        m_follow->stop();
        reloadRuns();
    }
    updateButtons();
}

void TrainPanel::compareRuns(const QStringList& names) {
    if (names.isEmpty())
        return;
    m_follow->stop();
    const QDir runs(QDir(m_document->folder()).filePath(QStringLiteral("runs")));
    const QString live = isRunning() ? m_liveRunName : QString();
    QThread* gui = thread();
    auto* watcher = new QFutureWatcher<QList<TrainingRunModel*>>(this);
    connect(watcher, &QFutureWatcher<QList<TrainingRunModel*>>::finished, this, [this, watcher, names] {
        watcher->deleteLater();
        const QList<TrainingRunModel*> loaded = watcher->result();
        m_view->setModel(nullptr);
        qDeleteAll(m_compared);
        m_compared.clear();
        QList<ChartRun> chartRuns;
        for (qsizetype i = 0; i < names.size(); ++i) {
            TrainingRunModel* model = loaded[i];
            if (model) {
                model->setParent(this);
                m_compared.append(model);
            }
            chartRuns.append({names[i], model ? model : m_live});
        }
        m_view->setComparison(chartRuns);
        emit runsCompared(names);
    });
    // The run in progress is shown from its live model (null here); the others are read from disk.
    watcher->setFuture(QtConcurrent::run([runs, names, live, gui] {
        QList<TrainingRunModel*> models;
        for (const QString& name : names) {
            if (name == live) {
                models.append(nullptr);
                continue;
            }
            auto* model = new TrainingRunModel;
            QString message;
            if (!model->loadRunFolder(runs.filePath(name), &message))
                model->markCrashed(message);
            model->moveToThread(gui);
            models.append(model);
        }
        return models;
    }));
}

void TrainPanel::updateButtons() {
    const bool running = isRunning();
    const bool checking = m_preflight->isRunning();
    m_start->setEnabled(!running);
    m_start->setText(checking ? tr("Cancel Dataset Check") : tr("Start Training"));
    m_stop->setEnabled(running || followedRunCanStop());
    m_form->setEnabled(!running && !checking);
    const auto rows = m_runs->selectionModel()->selectedRows();
    m_open->setEnabled(!rows.isEmpty());
    m_open->setText(rows.size() > 1 ? tr("Compare %1 Runs").arg(rows.size()) : tr("Show Charts"));
    const bool stopped = rows.size() == 1 && m_runs->item(rows.first().row(), ColumnStatus)->text() ==
                                                 statusName(project::RunStatus::Stopped);
    m_resume->setEnabled(stopped && !running);
}

} // namespace osprey::ui
