#include "ui/project/thumbnail_cache.h"

#include "ui/common/background.h"

#include <QDir>
#include <QFileInfo>
#include <QImageReader>
#include <QMetaObject>
#include <QPointer>
#include <QThread>
#include <algorithm>
#include <iterator>

#if defined(Q_OS_LINUX)
#include <cerrno>
#include <sys/resource.h>
#include <unistd.h>
#endif

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

// Lowers the calling worker thread's CPU priority once. Qt's QThread priorities do nothing for normal
// threads on Linux, where the nice value is per thread, so it is raised there directly (relative to the
// thread's own, so a process started with nice keeps its workers below its GUI thread).
void lowerCurrentThreadPriority() {
    thread_local bool lowered = false;
    if (lowered)
        return;
    lowered = true;
#if defined(Q_OS_LINUX)
    constexpr int kBackgroundNice = 10;
    const auto thread = static_cast<id_t>(gettid());
    errno = 0;
    const int current = getpriority(PRIO_PROCESS, thread);
    if (errno == 0)
        (void)setpriority(PRIO_PROCESS, thread, std::min(current + kBackgroundNice, 19));
#else
    QThread::currentThread()->setPriority(QThread::LowPriority);
#endif
}

} // namespace

ThumbnailCache::ThumbnailCache(QString cacheFolder, int sizePx, QObject* parent)
    : ThumbnailCache(std::move(cacheFolder), sizePx, Scheduling{}, parent) {}

ThumbnailCache::ThumbnailCache(QString cacheFolder, int sizePx, Scheduling scheduling, QObject* parent)
    : QObject(parent), m_folder(std::move(cacheFolder)), m_sizePx(sizePx), m_scheduling(scheduling),
      m_memory(4000) {
    m_scheduling.threads = std::max(1, m_scheduling.threads);
    m_pool.setMaxThreadCount(m_scheduling.threads);
}

ThumbnailCache::~ThumbnailCache() {
    waitForDone();
}

void ThumbnailCache::waitForDone() {
    m_waiting.clear();
    m_waitingSerial.clear();
    m_pool.waitForDone();
}

QImage ThumbnailCache::thumbnail(const QString& key, const QString& filePath) {
    if (const QImage* cached = m_memory.object(key))
        return *cached;
    if (m_running.contains(key))
        return {};
    // A row painted again is still on screen: its request moves to the front.
    if (const auto it = m_waitingSerial.find(key); it != m_waitingSerial.end()) {
        auto node = m_waiting.extract(it.value());
        node.key() = ++m_serial;
        it.value() = m_serial;
        m_waiting.insert(std::move(node));
        return {};
    }
    m_waiting.emplace(++m_serial, Request{key, filePath});
    m_waitingSerial.insert(key, m_serial);
    QStringList droppedKeys;
    while (m_scheduling.maxWaiting > 0 && static_cast<int>(m_waiting.size()) > m_scheduling.maxWaiting) {
        droppedKeys.append(m_waiting.begin()->second.key);
        m_waitingSerial.remove(m_waiting.begin()->second.key);
        m_waiting.erase(m_waiting.begin());
    }
    startWaiting();
    for (const QString& dropped : droppedKeys)
        emit this->dropped(dropped);
    return {};
}

void ThumbnailCache::startWaiting() {
    // One task per free worker, newest request first. The next one starts when a result comes back, so
    // a request made meanwhile (a row that just scrolled into view) overtakes the older ones.
    while (static_cast<int>(m_running.size()) < m_scheduling.threads && !m_waiting.empty()) {
        auto node = m_waiting.extract(std::prev(m_waiting.end()));
        Request request = std::move(node.mapped());
        m_waitingSerial.remove(request.key);
        m_running.insert(request.key);
        const QString cachedPath =
            QDir(m_folder).filePath(QStringLiteral("thumbs/%1-%2.jpg").arg(request.key).arg(m_sizePx));
        const int sizePx = m_sizePx;
        const bool background = m_scheduling.priority == WorkerPriority::Background;
        runInBackground(
            this,
            [request, cachedPath, sizePx, background] {
                if (background)
                    lowerCurrentThreadPriority();
                return makeThumbnail(request.filePath, cachedPath, sizePx);
            },
            [this, key = request.key](const QImage& image) { onFinished(key, image); }, &m_pool);
    }
}

void ThumbnailCache::onFinished(const QString& key, const QImage& image) {
    m_running.remove(key);
    // A failed decode is cached as an empty image so the view shows a placeholder instead of retrying.
    m_memory.insert(key, new QImage(image));
    startWaiting();
    emit ready(key);
}

} // namespace osprey::ui
