#pragma once
// ThumbnailCache: makes image thumbnails on a thread pool and keeps them in memory and on disk under the
// project's .cache/thumbs. Lives on the GUI thread; requests return at once and `ready` fires later
// (queued) with the finished thumbnail.

#include <QCache>
#include <QHash>
#include <QImage>
#include <QObject>
#include <QSet>
#include <QThreadPool>

namespace osprey::ui {

class ThumbnailCache : public QObject {
    Q_OBJECT
public:
    explicit ThumbnailCache(QString cacheFolder, int sizePx = 96, QObject* parent = nullptr);
    ~ThumbnailCache() override;

    /// Returns the thumbnail when cached in memory; otherwise schedules it and returns a null image.
    /// `key` identifies the image content (its hash, or id plus path).
    QImage thumbnail(const QString& key, const QString& filePath);
    int sizePx() const { return m_sizePx; }
    /// Waits for all scheduled work (tests and shutdown).
    void waitForDone();

signals:
    void ready(const QString& key);

private slots:
    void onFinished(const QString& key, const QImage& image);

private:
    QString m_folder;
    int m_sizePx;
    QCache<QString, QImage> m_memory;
    QSet<QString> m_pending;
    QThreadPool m_pool;
};

} // namespace osprey::ui
