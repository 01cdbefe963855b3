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

    /// Filters (status, split, class); paging fields are ignored. Resets the model.
    void setFilter(const project::ImageQuery& filter);
    const project::ImageQuery& filter() const { return m_filter; }
    /// Re-reads everything (after an import, say).
    void reload();
    /// Row of an image id among the rows fetched so far; -1 when not loaded.
    int rowOfImage(std::int64_t imageId) const;
    std::int64_t imageIdAt(int row) const;

    static QString statusText(project::ImageStatus status);
    static QString splitText(project::Split split);

private:
    void onImageChanged(qint64 imageId);
    void onThumbnailReady(const QString& key);
    const project::ImageRecord* record(int row) const;
    static QString thumbnailKey(const project::ImageRecord& image);

    static constexpr int kPageSize = 256;
    static constexpr int kMaxPages = 64;
    ProjectDocument* m_document;
    ThumbnailCache* m_thumbnails;
    project::ImageQuery m_filter;
    int m_count = 0;
    mutable QHash<int, std::vector<project::ImageRecord>> m_pages;
    QHash<QString, int> m_rowsWaitingForThumbnail;
};

} // namespace osprey::ui
