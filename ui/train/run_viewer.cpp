#include "ui/train/run_viewer.h"

#include "run/run_folder.h"
#include "ui/common/background_task.h"
#include "ui/train/trainer_process.h"
#include "ui/train/training_charts.h"
#include "ui/train/training_run_model.h"
#include "ui/train/training_view.h"

#include <QDir>
#include <QFile>
#include <QTimer>

Q_DECLARE_METATYPE(osprey::ui::TrainingRunModel::RunFiles)
Q_DECLARE_METATYPE(QList<osprey::ui::TrainingRunModel::RunFiles>)

namespace osprey::ui {

RunViewer::RunViewer(TrainingView* view, TrainingRunModel* live, QObject* parent)
    : QObject(parent), m_view(view), m_live(live), m_replay(new TrainingRunModel(this)),
      m_follow(new QTimer(this)) {
    m_follow->setInterval(500);
    connect(m_follow, &QTimer::timeout, this, &RunViewer::follow);
}

void RunViewer::open(const QString& runDir, const QString& name) {
    stopFollowing();
    delete m_reading; // waits for a superseded read; its result is dropped with it
    m_reading = new BackgroundTask(this);
    BackgroundTask* task = m_reading;
    connect(task, &BackgroundTask::finished, this, [this, task, runDir, name](const TaskResult& result) {
        task->deleteLater();
        m_reading = nullptr;
        m_replay->load(result.value.value<TrainingRunModel::RunFiles>());
        m_view->setModel(m_replay);
        // Still being written by a trainer this window did not start: keep reading what it appends.
        const auto events = run::RunFolder(QFile::encodeName(runDir).toStdString()).events();
        if (m_replay->status() == TrainingRunModel::Status::Running && std::filesystem::exists(events)) {
            m_tail.emplace(events, std::uint64_t(m_replay->eventsFileOffset()));
            m_follow->start();
        }
        emit followChanged();
        emit opened(name);
    });
    task->start([runDir](TaskContext&) {
        return TaskResult{QVariant::fromValue(TrainingRunModel::readRunFolder(runDir)), QString()};
    });
}

void RunViewer::compare(const QString& runsDir, const QStringList& names, const QString& liveName) {
    stopFollowing();
    delete m_reading;
    m_reading = new BackgroundTask(this);
    BackgroundTask* task = m_reading;
    connect(task, &BackgroundTask::finished, this, [this, task, names, liveName](const TaskResult& result) {
        task->deleteLater();
        m_reading = nullptr;
        const auto files = result.value.value<QList<TrainingRunModel::RunFiles>>();
        m_view->setModel(nullptr);
        qDeleteAll(m_compared);
        m_compared.clear();
        QList<ChartRun> chartRuns;
        for (qsizetype i = 0; i < names.size(); ++i) {
            // The run in progress is shown from its live model; the others from what was read.
            if (names[i] == liveName) {
                chartRuns.append({names[i], m_live});
                continue;
            }
            auto* model = new TrainingRunModel(this);
            model->load(files.value(i));
            m_compared.append(model);
            chartRuns.append({names[i], model});
        }
        m_view->setComparison(chartRuns);
        emit comparisonShown(names);
    });
    task->start([runsDir, names, liveName](TaskContext&) {
        QList<TrainingRunModel::RunFiles> files;
        for (const QString& name : names)
            files.append(name == liveName ? TrainingRunModel::RunFiles{}
                                          : TrainingRunModel::readRunFolder(QDir(runsDir).filePath(name)));
        return TaskResult{QVariant::fromValue(files), QString()};
    });
}

void RunViewer::stopFollowing() {
    if (!m_follow->isActive())
        return;
    m_follow->stop();
    emit followChanged();
}

bool RunViewer::isFollowing() const {
    return m_follow->isActive();
}

bool RunViewer::followedRunCanStop() const {
    return m_follow->isActive() && TrainerProcess::isTrainer(m_replay->trainerPid());
}

void RunViewer::stopFollowedRun() {
    if (!m_follow->isActive())
        return;
    const qint64 pid = m_replay->trainerPid();
    if (TrainerProcess::terminateTrainer(pid))
        m_replay->appendLog(
            tr("Stopping the background trainer (process %1): it finishes the batch and saves last.pt…")
                .arg(pid));
    else
        m_replay->appendLog(tr("This run's trainer (process %1) is not running any more.").arg(pid));
}

void RunViewer::follow() {
    // A trainer that is gone may still have written its last lines: look at the process first, then read.
    const qint64 pid = m_replay->trainerPid();
    const bool trainerGone = pid > 0 && !TrainerProcess::isTrainer(pid);
    // A file that is gone, truncated or replaced ends the following.
    const auto lines = m_view->model() == m_replay && m_tail ? m_tail->read() : fail("not following");
    if (!lines) {
        stopFollowing();
        return;
    }
    for (const run::EventsLine& line : *lines)
        if (line.event)
            m_replay->ingestEvent(*line.event);
    if (m_replay->status() == TrainingRunModel::Status::Running && trainerGone)
        m_replay->markCrashed(
            tr("the trainer (process %1) ended without finishing the run; resume it from last.pt").arg(pid));
    const auto status = m_replay->status();
    if (status != TrainingRunModel::Status::Running && status != TrainingRunModel::Status::Empty) {
        m_follow->stop();
        emit followedRunEnded();
    }
    emit followChanged();
}

} // namespace osprey::ui
