#pragma once
// ThumbnailCache: makes image thumbnails on worker threads and keeps them in memory and on disk under the
// project's .cache/thumbs. Lives on the GUI thread; requests return at once and `ready` fires later
// (queued) with the finished thumbnail.
//
// Scheduling keeps a fast scroll through a long list smooth: the newest requests (the rows on screen
// now) are decoded first, only a bounded number wait (the oldest, long scrolled past, are dropped), and
// the workers run at a lower CPU priority than the GUI thread so that decoding never takes the cores from
// painting.

#include <QCache>
#include <QHash>
#include <QImage>
#include <QObject>
#include <QSet>
#include <QThreadPool>
#include <map>

namespace osprey::ui {

class ThumbnailCache : public QObject {
    Q_OBJECT
public:
    enum class WorkerPriority {
        Normal,     ///< the same CPU priority as the GUI thread
        Background, ///< lower than the GUI thread (Linux: nice +10 per worker thread)
    };
    struct Scheduling {
        int threads = 2;
        WorkerPriority priority = WorkerPriority::Background;
        /// Requests that may wait for a worker; beyond it the oldest is dropped. 0 keeps every request.
        int maxWaiting = 256;
    };

    explicit ThumbnailCache(QString cacheFolder, int sizePx = 96, QObject* parent = nullptr);
    ThumbnailCache(QString cacheFolder, int sizePx, Scheduling scheduling, QObject* parent = nullptr);
    ~ThumbnailCache() override;

    /// Returns the thumbnail when cached in memory; otherwise schedules it (or, when it already waits,
    /// moves it to the front) and returns a null image. `key` identifies the image content (its hash, or
    /// id plus path).
    QImage thumbnail(const QString& key, const QString& filePath);
    int sizePx() const { return m_sizePx; }
    const Scheduling& scheduling() const { return m_scheduling; }
    /// Requests waiting for a worker, and being decoded.
    int waitingCount() const { return static_cast<int>(m_waiting.size()); }
    int runningCount() const { return static_cast<int>(m_running.size()); }
    /// Drops the waiting requests and waits for the ones being decoded (shutdown, tests).
    void waitForDone();

signals:
    void ready(const QString& key);
    /// A waiting request was dropped to make room for newer ones; asking again schedules it again.
    void dropped(const QString& key);

private:
    void onFinished(const QString& key, const QImage& image);

private:
    struct Request {
        QString key;
        QString filePath;
    };
    void startWaiting();

    QString m_folder;
    int m_sizePx;
    Scheduling m_scheduling;
    QCache<QString, QImage> m_memory;
    std::map<quint64, Request> m_waiting; ///< by request serial: the newest last
    QHash<QString, quint64> m_waitingSerial;
    QSet<QString> m_running;
    quint64 m_serial = 0;
    QThreadPool m_pool;
};

} // namespace osprey::ui
