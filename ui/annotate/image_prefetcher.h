#pragma once
// ImagePrefetcher: decodes images (and builds their pyramids) on worker threads and keeps the ones most
// recently wanted in memory, so that moving to a neighbouring image shows it at once. Lives on the GUI
// thread; results arrive through the queued `ready` signal.

#include "ui/annotate/image_pyramid.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>
#include <QThreadPool>
#include <memory>

namespace osprey::ui {

class ImagePrefetcher : public QObject {
    Q_OBJECT
public:
    /// Keeps at most `budgetBytes` of decoded images beyond the ones currently wanted.
    explicit ImagePrefetcher(qint64 budgetBytes = qint64(768) << 20, QObject* parent = nullptr);
    ~ImagePrefetcher() override;

    /// The decoded image, or null when it is not in memory (yet).
    std::shared_ptr<const ImagePyramid> cached(qint64 imageId) const;
    /// Starts decoding unless cached or under way. Later requests run first (the newest is most wanted).
    void request(qint64 imageId, const QString& filePath);
    /// Marks the images to keep; others may be evicted to stay within budget.
    void setWanted(const QList<qint64>& imageIds);
    /// Drops everything (another project); results of running jobs are discarded.
    void clear();
    /// Waits for the workers (tests and shutdown).
    void waitForDone();

signals:
    void ready(qint64 imageId);
    void failed(qint64 imageId, const QString& error);

private:
    void onDecoded(int generation, qint64 imageId, std::shared_ptr<const ImagePyramid> pyramid,
                   const QString& error);
    void evict();

    qint64 m_budgetBytes;
    QThreadPool m_pool;
    QHash<qint64, std::shared_ptr<const ImagePyramid>> m_cache;
    QList<qint64> m_recent; ///< most recently used last
    QSet<qint64> m_pending;
    QSet<qint64> m_wanted;
    int m_generation = 0;
    int m_priority = 0;
};

} // namespace osprey::ui
