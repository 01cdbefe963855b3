#pragma once
// BackgroundTask: runs one long job (import, export, health check, auto-label, ...) on a worker thread,
// with progress and cancel for the dialog that shows it. The job gets a TaskContext; everything it
// reports reaches the GUI thread as values through queued signals (background.h is the primitive).
// deliver() is the handshake for jobs whose every step must be shown before the next one starts (what a
// progress bar shows is then what is stored). Owned by the GUI thread.

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QVariant>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>

namespace osprey::ui {

/// What a running job sees: a cancel flag to poll and a thread-safe progress reporter.
class TaskContext {
public:
    explicit TaskContext(class BackgroundTask* task) : m_task(task) {}
    const std::atomic<bool>& cancelFlag() const;
    bool cancelled() const { return cancelFlag().load(); }
    /// Thread-safe; throttled to about 20 updates a second.
    void progress(qint64 done, qint64 total, const QString& stage);
    /// Sends `value` to the GUI (`delivered`) without waiting.
    void post(const QVariant& value);
    /// Sends `value` to the GUI (`delivered`) and waits until the GUI has handled it, or the task was
    /// cancelled; false when cancelled.
    bool deliver(const QVariant& value);

private:
    BackgroundTask* m_task;
    qint64 m_lastMs = -1000;
    int m_delivered = 0;
};

/// The job's result: a value for the caller, or an error message.
struct TaskResult {
    QVariant value;
    QString error; ///< empty on success
    bool ok() const { return error.isEmpty(); }
};

class BackgroundTask : public QObject {
    Q_OBJECT
public:
    using Job = std::function<TaskResult(TaskContext&)>;
    explicit BackgroundTask(QObject* parent = nullptr);
    ~BackgroundTask() override;

    /// Starts the job; fails (returns false) when one is already running.
    bool start(Job job);
    /// True from start() until `finished` has been emitted.
    bool isRunning() const { return m_running; }
    /// Asks the job to stop (and releases a deliver() that waits); `finished` still fires.
    void cancel();
    bool isCancelled() const { return m_cancel.load(); }
    /// Blocks until the job ends (tests, shutdown).
    void wait() { m_watcher.waitForFinished(); }

signals:
    void progressed(qint64 done, qint64 total, const QString& stage);
    /// A value the job posted or delivered (see TaskContext).
    void delivered(const QVariant& value);
    void finished(const osprey::ui::TaskResult& result);

private:
    friend class TaskContext;
    std::atomic<bool> m_cancel{false};
    std::mutex m_mutex; ///< guards m_shown for the deliver() handshake
    std::condition_variable m_shownChanged;
    int m_shown = 0; ///< the last delivery the GUI has handled
    bool m_running = false;
    QFutureWatcher<TaskResult> m_watcher;
};

} // namespace osprey::ui

Q_DECLARE_METATYPE(osprey::ui::TaskResult)
