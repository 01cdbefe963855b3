#include "ui/project/background_task.h"

#include <QDateTime>
#include <QMetaObject>
#include <QtConcurrent>

namespace osprey::ui {

const std::atomic<bool>& TaskContext::cancelFlag() const {
    return m_task->m_cancel;
}

void TaskContext::progress(qint64 done, qint64 total, const QString& stage) {
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (now - m_lastMs < 50 && done < total)
        return;
    m_lastMs = now;
    QMetaObject::invokeMethod(
        m_task, [task = m_task, done, total, stage] { emit task->progressed(done, total, stage); },
        Qt::QueuedConnection);
}

BackgroundTask::BackgroundTask(QObject* parent) : QObject(parent) {
    qRegisterMetaType<TaskResult>();
    connect(&m_watcher, &QFutureWatcher<TaskResult>::finished, this, [this] {
        m_running = false;
        emit finished(m_watcher.result());
    });
}

BackgroundTask::~BackgroundTask() {
    m_cancel.store(true);
    m_watcher.waitForFinished();
}

bool BackgroundTask::start(Job job) {
    if (m_running)
        return false;
    m_running = true;
    m_cancel.store(false);
    m_watcher.setFuture(QtConcurrent::run([this, job = std::move(job)] {
        TaskContext context(this);
        return job(context);
    }));
    return true;
}

} // namespace osprey::ui
