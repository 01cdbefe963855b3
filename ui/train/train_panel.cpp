#include "ui/train/train_panel.h"

#include "ui/project/project_document.h"
#include "ui/train/train_settings.h"
#include "ui/train/training_run_model.h"
#include "ui/train/training_view.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
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
      m_live(new TrainingRunModel(this)), m_replay(new TrainingRunModel(this)) {
    m_form = new TrainForm(this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_start = new QPushButton(tr("Start Training"), this);
    m_start->setToolTip(tr("Train a detector on this project's train split, validating on the val split."));
    m_stop = new QPushButton(tr("Stop"), this);
    m_stop->setToolTip(tr("Finish the current batch, save last.pt and end the run; it can be resumed."));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_start, 1);
    buttons->addWidget(m_stop);

    m_runs = new QTableWidget(0, ColumnCount, this);
    m_runs->setHorizontalHeaderLabels(
        {tr("Run"), tr("Status"), tr("Model"), tr("Epochs"), tr("Best mAP50-95"), tr("Duration")});
    m_runs->verticalHeader()->hide();
    m_runs->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_runs->horizontalHeader()->setStretchLastSection(true);
    m_runs->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_runs->setSelectionMode(QAbstractItemView::SingleSelection);
    m_runsEmpty = new QLabel(tr("No runs yet in this project."), this);
    m_runsEmpty->setStyleSheet(QStringLiteral("color: #8a8f98;"));
    m_open = new QPushButton(tr("Show Charts"), this);
    m_open->setToolTip(tr("Show the selected run's charts (double-click a row does the same)."));
    m_resume = new QPushButton(tr("Resume"), this);
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
    splitter->setSizes({360, 1000});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(splitter);

    connect(m_start, &QPushButton::clicked, this, [this] {
        QString error;
        if (!start(&error))
            QMessageBox::warning(this, tr("Training"), error);
    });
    connect(m_stop, &QPushButton::clicked, this, &TrainPanel::stop);
    connect(m_open, &QPushButton::clicked, this, [this] { openRun(selectedRun()); });
    connect(m_resume, &QPushButton::clicked, this, [this] {
        QString error;
        if (!resume(selectedRun(), &error))
            QMessageBox::warning(this, tr("Training"), error);
    });
    connect(m_runs, &QTableWidget::cellDoubleClicked, this, [this] { openRun(selectedRun()); });
    connect(m_runs, &QTableWidget::itemSelectionChanged, this, &TrainPanel::updateButtons);
    reloadRuns();
    updateButtons();
}

TrainPanel::~TrainPanel() {
    if (isRunning()) {
        disconnect(m_process, nullptr, this, nullptr);
        m_process->terminate();
        if (!m_process->waitForFinished(15000))
            m_process->kill();
    }
}

bool TrainPanel::isRunning() const {
    return m_process && m_process->state() != QProcess::NotRunning;
}

bool TrainPanel::start(QString* error) {
    QStringList arguments = m_form->trainArguments();
    return launch(arguments, error);
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
    delete m_process;
    m_process = new QProcess(this);
    m_pending.clear();
    m_stderrTail.clear();
    m_liveRunName.clear();
    m_live->clear();
    m_view->setModel(m_live);
    m_lastArguments =
        QStringList{QStringLiteral("train"), QStringLiteral("project=%1").arg(m_document->folder())} +
        arguments + QStringList{QStringLiteral("events=jsonl")};
    m_live->appendLog(tr("$ osprey-cli %1").arg(m_lastArguments.join(QLatin1Char(' '))));
    connect(m_process, &QProcess::readyReadStandardOutput, this, &TrainPanel::readOutput);
    connect(m_process, &QProcess::readyReadStandardError, this, &TrainPanel::readErrors);
    connect(m_process, &QProcess::finished, this, &TrainPanel::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, &TrainPanel::onProcessError);
    m_process->start(m_trainerPath, m_lastArguments);
    updateButtons();
    return true;
}

void TrainPanel::stop() {
    if (!isRunning())
        return;
    m_live->appendLog(tr("Stopping: the trainer finishes the batch and saves last.pt…"));
    m_process->terminate();
    m_stop->setEnabled(false);
}

void TrainPanel::readOutput() {
    m_pending += m_process->readAllStandardOutput();
    qsizetype start = 0;
    for (qsizetype end; (end = m_pending.indexOf('\n', start)) >= 0; start = end + 1) {
        const QByteArray line = m_pending.mid(start, end - start);
        if (!m_live->ingestLine(line) && !line.trimmed().isEmpty())
            m_live->appendLog(QString::fromUtf8(line.trimmed()));
    }
    m_pending.remove(0, start);
    if (m_liveRunName.isEmpty() && !m_live->runDir().isEmpty()) {
        m_liveRunName = QFileInfo(m_live->runDir()).fileName();
        reloadRuns();
    }
}

void TrainPanel::readErrors() {
    const QStringList lines = QString::fromUtf8(m_process->readAllStandardError()).split(QLatin1Char('\n'));
    for (const QString& line : lines) {
        if (line.trimmed().isEmpty())
            continue;
        m_live->appendLog(line.trimmed());
        m_stderrTail.append(line.trimmed());
    }
    while (m_stderrTail.size() > 5)
        m_stderrTail.removeFirst();
}

void TrainPanel::onFinished(int exitCode, QProcess::ExitStatus exitStatus) {
    readOutput();
    readErrors();
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

void TrainPanel::onProcessError(QProcess::ProcessError error) {
    if (error != QProcess::FailedToStart)
        return;
    m_live->markCrashed(
        tr("Could not start %1: %2").arg(QDir::toNativeSeparators(m_trainerPath), m_process->errorString()));
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
    const auto rows = m_runs->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return {};
    return m_runs->item(rows.first().row(), ColumnName)->text();
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
    connect(watcher, &QFutureWatcher<TrainingRunModel*>::finished, this, [this, watcher, name] {
        watcher->deleteLater();
        TrainingRunModel* model = watcher->result();
        model->setParent(this);
        delete m_replay;
        m_replay = model;
        m_view->setModel(m_replay);
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

void TrainPanel::updateButtons() {
    const bool running = isRunning();
    m_start->setEnabled(!running);
    m_stop->setEnabled(running);
    m_form->setEnabled(!running);
    const auto rows = m_runs->selectionModel()->selectedRows();
    m_open->setEnabled(!rows.isEmpty());
    const bool stopped = !rows.isEmpty() && m_runs->item(rows.first().row(), ColumnStatus)->text() ==
                                                statusName(project::RunStatus::Stopped);
    m_resume->setEnabled(stopped && !running);
}

} // namespace osprey::ui
