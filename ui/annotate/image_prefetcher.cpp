#include "ui/annotate/image_prefetcher.h"

#include "ui/common/background.h"

namespace osprey::ui {

namespace {

/// A decode's result, handed from the worker to the GUI thread.
struct Decoded {
    std::shared_ptr<const ImagePyramid> pyramid;
    QString error;
};

} // namespace

ImagePrefetcher::ImagePrefetcher(qint64 budgetBytes, QObject* parent)
    : QObject(parent), m_budgetBytes(budgetBytes) {
    // Two decoders: the current image and the next one; more would compete with the GUI for the CPU.
    m_pool.setMaxThreadCount(2);
}

ImagePrefetcher::~ImagePrefetcher() {
    m_pool.clear();
    m_pool.waitForDone();
}

std::shared_ptr<const ImagePyramid> ImagePrefetcher::cached(qint64 imageId) const {
    return m_cache.value(imageId);
}

void ImagePrefetcher::request(qint64 imageId, const QString& filePath) {
    if (imageId == 0 || m_pending.contains(imageId))
        return;
    if (m_cache.contains(imageId)) {
        m_recent.removeOne(imageId);
        m_recent.append(imageId);
        return;
    }
    m_pending.insert(imageId);
    const int generation = m_generation;
    runInBackground(
        this,
        [filePath] {
            Decoded decoded;
            decoded.pyramid = ImagePyramid::load(filePath, &decoded.error);
            return decoded;
        },
        [this, generation, imageId](const Decoded& decoded) {
            onDecoded(generation, imageId, decoded.pyramid, decoded.error);
        },
        &m_pool, ++m_priority);
}

void ImagePrefetcher::onDecoded(int generation, qint64 imageId, std::shared_ptr<const ImagePyramid> pyramid,
                                const QString& error) {
    if (generation != m_generation)
        return;
    m_pending.remove(imageId);
    if (!pyramid) {
        emit failed(imageId, error);
        return;
    }
    m_cache.insert(imageId, std::move(pyramid));
    m_recent.removeOne(imageId);
    m_recent.append(imageId);
    evict();
    emit ready(imageId);
}

void ImagePrefetcher::setWanted(const QList<qint64>& imageIds) {
    m_wanted = QSet<qint64>(imageIds.begin(), imageIds.end());
    evict();
}

void ImagePrefetcher::evict() {
    qint64 total = 0;
    for (const auto& pyramid : std::as_const(m_cache))
        total += pyramid->bytes();
    for (int i = 0; i < m_recent.size() && total > m_budgetBytes;) {
        const qint64 id = m_recent[i];
        if (m_wanted.contains(id)) {
            ++i;
            continue;
        }
        total -= m_cache.value(id)->bytes();
        m_cache.remove(id);
        m_recent.removeAt(i);
    }
}

void ImagePrefetcher::clear() {
    ++m_generation;
    m_pool.clear();
    m_cache.clear();
    m_recent.clear();
    m_pending.clear();
    m_wanted.clear();
}

void ImagePrefetcher::waitForDone() {
    m_pool.waitForDone();
}

} // namespace osprey::ui
