#pragma once
// ImageListModel: the project's images as a virtualised list model. Rows are fetched from the database
// a page at a time, only when a view asks for them, so a 100,000-image project opens at once.
// GUI thread only.

#include "project/types.h"

#include <QAbstractListModel>
#include <QHash>
#include <vector>

namespace osprey::ui {

class ProjectDocument;
class ThumbnailCache;

class ImageListModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role {
        ImageIdRole = Qt::UserRole + 1,
        StatusRole,   ///< project::ImageStatus as int
        SplitRole,    ///< project::Split as int
        BoxCountRole, ///< int
        PathRole,     ///< absolute file path
    };

    ImageListModel(ProjectDocument* document, ThumbnailCache* thumbnails, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

    /// Filters (status, split, class); paging fields are ignored. Resets the model and leaves an image
    /// order (below).
    void setFilter(const project::ImageQuery& filter);
    const project::ImageQuery& filter() const { return m_filter; }
    /// Shows exactly these images in this order (a review queue, say) instead of the filtered list, until
    /// clearImageOrder() or setFilter(). `title` says what the order is. The rows stay put while images
    /// change status, so walking the list with D/A is not disturbed by the edits made on the way.
    void setImageOrder(std::vector<std::int64_t> imageIds, const QString& title);
    void clearImageOrder();
    bool hasImageOrder() const { return m_ordered; }
    const QString& imageOrderTitle() const { return m_orderTitle; }
    /// Re-reads everything (after an import, say).
    void reload();
    /// Row of an image id among the rows fetched so far (with an image order: any row); -1 when not found.
    int rowOfImage(std::int64_t imageId) const;
    std::int64_t imageIdAt(int row) const;

    static QString statusText(project::ImageStatus status);
    static QString splitText(project::Split split);

signals:
    /// An image order was set or cleared.
    void imageOrderChanged();

private:
    void onImageChanged(qint64 imageId);
    void onThumbnailReady(const QString& key);
    const project::ImageRecord* record(int row) const;
    std::vector<project::ImageRecord> loadPage(int page) const;
    static QString thumbnailKey(const project::ImageRecord& image);

    static constexpr int kPageSize = 256;
    static constexpr int kMaxPages = 64;
    ProjectDocument* m_document;
    ThumbnailCache* m_thumbnails;
    project::ImageQuery m_filter;
    bool m_ordered = false;
    std::vector<std::int64_t> m_order;
    QString m_orderTitle;
    int m_count = 0;
    mutable QHash<int, std::vector<project::ImageRecord>> m_pages;
    QHash<QString, int> m_rowsWaitingForThumbnail;
};

} // namespace osprey::ui
