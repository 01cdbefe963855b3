#include "ui/project/image_list_model.h"

#include "ui/project/project_document.h"
#include "ui/project/thumbnail_cache.h"

#include <QFileInfo>

namespace osprey::ui {

ImageListModel::ImageListModel(ProjectDocument* document, ThumbnailCache* thumbnails, QObject* parent)
    : QAbstractListModel(parent), m_document(document), m_thumbnails(thumbnails) {
    connect(document, &ProjectDocument::imageChanged, this, &ImageListModel::onImageChanged);
    connect(document, &ProjectDocument::imagesReset, this, &ImageListModel::reload);
    connect(thumbnails, &ThumbnailCache::ready, this, &ImageListModel::onThumbnailReady);
    connect(thumbnails, &ThumbnailCache::dropped, this,
            [this](const QString& key) { m_rowsWaitingForThumbnail.remove(key); });
    reload();
}

void ImageListModel::reload() {
    beginResetModel();
    m_pages.clear();
    m_rowsWaitingForThumbnail.clear();
    auto count = m_document->project().countImages(m_filter);
    m_count = count ? static_cast<int>(*count) : 0;
    endResetModel();
}

void ImageListModel::setFilter(const project::ImageQuery& filter) {
    m_filter = filter;
    m_filter.offset = 0;
    m_filter.limit = kPageSize;
    reload();
}

int ImageListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : m_count;
}

const project::ImageRecord* ImageListModel::record(int row) const {
    if (row < 0 || row >= m_count)
        return nullptr;
    const int page = row / kPageSize;
    auto it = m_pages.find(page);
    if (it == m_pages.end()) {
        if (m_pages.size() >= kMaxPages)
            m_pages.clear(); // crude but bounded: views only ever need the pages on screen
        project::ImageQuery query = m_filter;
        query.offset = static_cast<std::int64_t>(page) * kPageSize;
        query.limit = kPageSize;
        auto images = m_document->project().listImages(query);
        it = m_pages.insert(page, images ? std::move(images.value()) : std::vector<project::ImageRecord>{});
    }
    const size_t index = static_cast<size_t>(row % kPageSize);
    return index < it->size() ? &(*it)[index] : nullptr;
}

QString ImageListModel::thumbnailKey(const project::ImageRecord& image) {
    return image.hash.empty() ? QStringLiteral("id%1").arg(image.id) : QString::fromStdString(image.hash);
}

QVariant ImageListModel::data(const QModelIndex& index, int role) const {
    const project::ImageRecord* image = record(index.row());
    if (!image)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return QFileInfo(QString::fromStdString(image->path)).fileName();
    case Qt::ToolTipRole:
        return tr("%1\n%2 x %3 px, %4, %5 boxes, split %6")
            .arg(m_document->imageFilePath(*image))
            .arg(image->width)
            .arg(image->height)
            .arg(statusText(image->status))
            .arg(image->boxCount)
            .arg(splitText(image->split));
    case Qt::DecorationRole: {
        const QString key = thumbnailKey(*image);
        QImage thumbnail = m_thumbnails->thumbnail(key, m_document->imageFilePath(*image));
        if (thumbnail.isNull())
            const_cast<ImageListModel*>(this)->m_rowsWaitingForThumbnail.insert(key, index.row());
        return thumbnail;
    }
    case ImageIdRole:
        return QVariant::fromValue<qint64>(image->id);
    case StatusRole:
        return static_cast<int>(image->status);
    case SplitRole:
        return static_cast<int>(image->split);
    case BoxCountRole:
        return image->boxCount;
    case PathRole:
        return m_document->imageFilePath(*image);
    default:
        return {};
    }
}

int ImageListModel::rowOfImage(std::int64_t imageId) const {
    for (auto it = m_pages.cbegin(); it != m_pages.cend(); ++it)
        for (size_t i = 0; i < it->size(); ++i)
            if ((*it)[i].id == imageId)
                return it.key() * kPageSize + static_cast<int>(i);
    return -1;
}

std::int64_t ImageListModel::imageIdAt(int row) const {
    const project::ImageRecord* image = record(row);
    return image ? image->id : 0;
}

void ImageListModel::onImageChanged(qint64 imageId) {
    const int row = rowOfImage(imageId);
    if (row < 0)
        return;
    auto updated = m_document->project().image(imageId);
    if (!updated)
        return;
    m_pages[row / kPageSize][static_cast<size_t>(row % kPageSize)] = updated.value();
    emit dataChanged(index(row), index(row));
}

void ImageListModel::onThumbnailReady(const QString& key) {
    const auto it = m_rowsWaitingForThumbnail.find(key);
    if (it == m_rowsWaitingForThumbnail.end())
        return;
    const int row = it.value();
    m_rowsWaitingForThumbnail.erase(it);
    if (row < m_count)
        emit dataChanged(index(row), index(row), {Qt::DecorationRole});
}

QString ImageListModel::statusText(project::ImageStatus status) {
    switch (status) {
    case project::ImageStatus::New:
        return tr("new");
    case project::ImageStatus::Labeled:
        return tr("labeled");
    case project::ImageStatus::Reviewed:
        return tr("reviewed");
    case project::ImageStatus::VerifiedEmpty:
        return tr("verified empty");
    }
    return {};
}

QString ImageListModel::splitText(project::Split split) {
    switch (split) {
    case project::Split::Train:
        return tr("train");
    case project::Split::Val:
        return tr("val");
    case project::Split::Test:
        return tr("test");
    case project::Split::None:
        return tr("none");
    }
    return {};
}

} // namespace osprey::ui
