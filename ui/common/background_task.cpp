#include "ui/common/background_task.h"

#include <QDateTime>
#include <QMetaObject>
#include <QtConcurrent>
#include <algorithm>

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

void TaskContext::post(const QVariant& value) {
    QMetaObject::invokeMethod(
        m_task, [task = m_task, value] { emit task->delivered(value); }, Qt::QueuedConnection);
}

bool TaskContext::deliver(const QVariant& value) {
    const int ticket = ++m_delivered;
    BackgroundTask* task = m_task;
    QMetaObject::invokeMethod(
        task,
        [task, value, ticket] {
            emit task->delivered(value);
            {
                const std::lock_guard lock(task->m_mutex);
                task->m_shown = std::max(task->m_shown, ticket);
            }
            task->m_shownChanged.notify_all();
        },
        Qt::QueuedConnection);
    std::unique_lock lock(task->m_mutex);
    task->m_shownChanged.wait(lock, [&] { return task->m_shown >= ticket || task->m_cancel.load(); });
    return !task->m_cancel.load();
}

void BackgroundTask::cancel() {
    {
        const std::lock_guard lock(m_mutex);
        m_cancel.store(true);
    }
    m_shownChanged.notify_all();
}

BackgroundTask::BackgroundTask(QObject* parent) : QObject(parent) {
    qRegisterMetaType<TaskResult>();
    connect(&m_watcher, &QFutureWatcher<TaskResult>::finished, this, [this] {
        m_running = false;
        emit finished(m_watcher.result());
    });
}

BackgroundTask::~BackgroundTask() {
    cancel();
    m_watcher.waitForFinished();
}

bool BackgroundTask::start(Job job) {
    if (m_running)
        return false;
    m_running = true;
    m_cancel.store(false);
    m_shown = 0;
    m_watcher.setFuture(QtConcurrent::run([this, job = std::move(job)] {
        TaskContext context(this);
        return job(context);
    }));
    return true;
}

} // namespace osprey::ui
