#include "ui/project/image_list_model.h"

#include "ui/project/project_document.h"
#include "ui/project/thumbnail_cache.h"

#include <QFileInfo>
#include <algorithm>
#include <utility>

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
    if (m_ordered) {
        m_count = static_cast<int>(m_order.size());
    } else {
        auto count = m_document->project().images().count(m_filter);
        m_count = count ? static_cast<int>(*count) : 0;
    }
    endResetModel();
}

void ImageListModel::setFilter(const project::ImageQuery& filter) {
    m_filter = filter;
    m_filter.offset = 0;
    m_filter.limit = kPageSize;
    const bool wasOrdered = std::exchange(m_ordered, false);
    m_order.clear();
    m_orderTitle.clear();
    reload();
    if (wasOrdered)
        emit imageOrderChanged();
}

void ImageListModel::setImageOrder(std::vector<std::int64_t> imageIds, const QString& title) {
    m_ordered = true;
    m_order = std::move(imageIds);
    m_orderTitle = title;
    reload();
    emit imageOrderChanged();
}

void ImageListModel::clearImageOrder() {
    if (m_ordered)
        setFilter(m_filter);
}

std::vector<project::ImageRecord> ImageListModel::loadPage(int page) const {
    if (!m_ordered) {
        project::ImageQuery query = m_filter;
        query.offset = static_cast<std::int64_t>(page) * kPageSize;
        query.limit = kPageSize;
        auto images = m_document->project().images().list(query);
        return images ? std::move(images.value()) : std::vector<project::ImageRecord>{};
    }
    std::vector<project::ImageRecord> images;
    const size_t first = static_cast<size_t>(page) * kPageSize;
    const size_t last = std::min(m_order.size(), first + kPageSize);
    images.reserve(last - first);
    for (size_t i = first; i < last; ++i) {
        auto image = m_document->project().images().get(m_order[i]);
        if (image) {
            images.push_back(std::move(image.value()));
        } else { // deleted since the order was made: keep the row, marked by its id alone
            project::ImageRecord gone;
            gone.id = m_order[i];
            images.push_back(std::move(gone));
        }
    }
    return images;
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
        it = m_pages.insert(page, loadPage(page));
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
    if (image->path.empty()) { // an ordered row whose image was deleted
        if (role == Qt::DisplayRole)
            return tr("(image %1 was deleted)").arg(image->id);
        return role == ImageIdRole ? QVariant::fromValue<qint64>(image->id) : QVariant();
    }
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
    if (m_ordered) {
        const auto it = std::find(m_order.begin(), m_order.end(), imageId);
        return it == m_order.end() ? -1 : static_cast<int>(it - m_order.begin());
    }
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
    const auto page = m_pages.find(row / kPageSize);
    const size_t offset = static_cast<size_t>(row % kPageSize);
    if (page == m_pages.end() || offset >= page->size())
        return; // not fetched yet: it is read fresh when a view asks for it
    auto updated = m_document->project().images().get(imageId);
    if (!updated)
        return;
    (*page)[offset] = updated.value();
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
