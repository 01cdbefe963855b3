#pragma once
// Paints one image-list row: thumbnail, file name, a status pill, the split and the box count.

#include <QStyledItemDelegate>

namespace osprey::ui {

class ImageListDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    static constexpr int kRowHeight = 64;
    static constexpr int kThumbnailPx = 56;
};

/// Colour of a status pill, shared by the list and the viewer.
QColor statusColor(int status);

} // namespace osprey::ui
