#include "ui/project/thumbnail_cache.h"

#include <QDir>
#include <QFileInfo>
#include <QImageReader>
#include <QMetaObject>
#include <QPointer>
#include <QRunnable>

namespace osprey::ui {

namespace {

QImage makeThumbnail(const QString& filePath, const QString& cachedPath, int sizePx) {
    if (QFileInfo::exists(cachedPath)) {
        QImage cached(cachedPath);
        if (!cached.isNull())
            return cached;
    }
    QImageReader reader(filePath);
    reader.setAutoTransform(true); // EXIF orientation
    const QSize size = reader.size();
    if (size.isValid()) {
        // JPEG decodes straight to the reduced size, which is far cheaper than a full decode.
        reader.setScaledSize(size.scaled(sizePx, sizePx, Qt::KeepAspectRatio));
    }
    QImage image = reader.read();
    if (image.isNull())
        return {};
    if (image.width() > sizePx || image.height() > sizePx)
        image = image.scaled(sizePx, sizePx, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    image = image.convertToFormat(QImage::Format_RGB32);
    QDir().mkpath(QFileInfo(cachedPath).absolutePath());
    // Write to a temporary name first so a concurrent reader never sees half a file.
    const QString temporary = cachedPath + ".part";
    if (image.save(temporary, "JPG", 85))
        QFile::rename(temporary, cachedPath);
    return image;
}

} // namespace

ThumbnailCache::ThumbnailCache(QString cacheFolder, int sizePx, QObject* parent)
    : QObject(parent), m_folder(std::move(cacheFolder)), m_sizePx(sizePx), m_memory(4000) {
    m_pool.setMaxThreadCount(2);
}

ThumbnailCache::~ThumbnailCache() {
    m_pool.waitForDone();
}

void ThumbnailCache::waitForDone() {
    m_pool.waitForDone();
}

QImage ThumbnailCache::thumbnail(const QString& key, const QString& filePath) {
    if (const QImage* cached = m_memory.object(key))
        return *cached;
    if (m_pending.contains(key))
        return {};
    m_pending.insert(key);
    const QString cachedPath =
        QDir(m_folder).filePath(QStringLiteral("thumbs/%1-%2.jpg").arg(key).arg(m_sizePx));
    QPointer<ThumbnailCache> self(this);
    const int sizePx = m_sizePx;
    m_pool.start([self, key, filePath, cachedPath, sizePx] {
        QImage image = makeThumbnail(filePath, cachedPath, sizePx);
        if (self)
            QMetaObject::invokeMethod(self, "onFinished", Qt::QueuedConnection, Q_ARG(QString, key),
                                      Q_ARG(QImage, image));
    });
    return {};
}

void ThumbnailCache::onFinished(const QString& key, const QImage& image) {
    m_pending.remove(key);
    // A failed decode is cached as an empty image so the view shows a placeholder instead of retrying.
    m_memory.insert(key, new QImage(image));
    emit ready(key);
}

} // namespace osprey::ui
