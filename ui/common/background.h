#pragma once
// The one way background work reaches the GUI (STYLE: value snapshots through queued calls).
//
// runInBackground(receiver, job, deliver): `job` runs on a worker thread (on `pool` when given, else
// Qt's global pool) and returns a value; `deliver(value)` then runs on the GUI thread, unless `receiver`
// was destroyed meanwhile. postToGui(receiver, fn) does the second half for a job that reports while it
// runs. Values travel by copy (snapshots: shared pointers to immutable data, Qt value types); no QObject
// crosses threads. BackgroundTask (background_task.h) builds progress, cancellation, waiting and a
// delivery handshake on top for long jobs behind a dialog.
//
// Thread affinity: the receivers are GUI-thread objects. The queued call goes to the application object
// and checks the receiver there, on the GUI thread, so a receiver destroyed at any moment is safe.

#include <QCoreApplication>
#include <QMetaObject>
#include <QPointer>
#include <QThreadPool>
#include <utility>

namespace osprey::ui {

/// Runs `fn()` on the GUI thread through a queued call, unless `receiver` is gone by then. Any thread.
template <typename Fn> void postToGui(const QPointer<QObject>& receiver, Fn fn) {
    QMetaObject::invokeMethod(
        QCoreApplication::instance(),
        [receiver, fn = std::move(fn)]() mutable {
            if (receiver)
                fn();
        },
        Qt::QueuedConnection);
}

/// Runs `job()` on a worker thread, then `deliver(value)` on the GUI thread while `receiver` exists.
/// `priority` orders jobs waiting in the pool (higher first). GUI thread.
template <typename Job, typename Deliver>
void runInBackground(QObject* receiver, Job job, Deliver deliver, QThreadPool* pool = nullptr,
                     int priority = 0) {
    QPointer<QObject> guard(receiver);
    (pool ? pool : QThreadPool::globalInstance())
        ->start(
            [guard, job = std::move(job), deliver = std::move(deliver)]() mutable {
                auto value = job();
                postToGui(guard,
                          [deliver, value = std::move(value)]() mutable { deliver(std::move(value)); });
            },
            priority);
}

} // namespace osprey::ui
