#include "ui/project/image_list_delegate.h"

#include "ui/project/image_list_model.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>

namespace osprey::ui {

QColor statusColor(int status) {
    switch (static_cast<project::ImageStatus>(status)) {
    case project::ImageStatus::New:
        return QColor(0x8a, 0x8f, 0x98);
    case project::ImageStatus::Labeled:
        return QColor(0x3d, 0x8b, 0xfd);
    case project::ImageStatus::Reviewed:
        return QColor(0x2e, 0xb8, 0x72);
    case project::ImageStatus::VerifiedEmpty:
        return QColor(0xc0, 0x8a, 0x2b);
    }
    return Qt::gray;
}

QSize ImageListDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex&) const {
    return QSize(option.rect.width(), kRowHeight);
}

void ImageListDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                              const QModelIndex& index) const {
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const QPalette& palette = option.palette;
    const bool selected = option.state & QStyle::State_Selected;
    if (selected)
        painter->fillRect(option.rect, palette.highlight());
    else if (option.state & QStyle::State_MouseOver)
        painter->fillRect(option.rect, palette.alternateBase());

    const QRect thumbRect(option.rect.left() + 6, option.rect.top() + (kRowHeight - kThumbnailPx) / 2,
                          kThumbnailPx, kThumbnailPx);
    const QImage thumbnail = index.data(Qt::DecorationRole).value<QImage>();
    painter->fillRect(thumbRect, palette.base().color().darker(115));
    if (!thumbnail.isNull()) {
        const QSize fitted = thumbnail.size().scaled(thumbRect.size(), Qt::KeepAspectRatio);
        const QRect target(thumbRect.center().x() - fitted.width() / 2 + 1,
                           thumbRect.center().y() - fitted.height() / 2 + 1, fitted.width(), fitted.height());
        painter->drawImage(target, thumbnail);
    }

    const int textLeft = thumbRect.right() + 10;
    const QColor textColor = selected ? palette.highlightedText().color() : palette.text().color();
    QFont nameFont = option.font;
    nameFont.setBold(true);
    painter->setFont(nameFont);
    painter->setPen(textColor);
    const QRect nameRect(textLeft, option.rect.top() + 8, option.rect.right() - textLeft - 6, 20);
    painter->drawText(nameRect, Qt::AlignLeft | Qt::AlignVCenter,
                      QFontMetrics(nameFont).elidedText(index.data(Qt::DisplayRole).toString(),
                                                        Qt::ElideMiddle, nameRect.width()));

    // Status pill.
    const int status = index.data(ImageListModel::StatusRole).toInt();
    const QString statusLabel = ImageListModel::statusText(static_cast<project::ImageStatus>(status));
    QFont small = option.font;
    small.setPointSizeF(option.font.pointSizeF() * 0.85);
    painter->setFont(small);
    const QFontMetrics smallMetrics(small);
    const QRect pill(textLeft, option.rect.top() + 34, smallMetrics.horizontalAdvance(statusLabel) + 14, 18);
    QPainterPath path;
    path.addRoundedRect(pill, 9, 9);
    painter->fillPath(path, statusColor(status));
    painter->setPen(Qt::white);
    painter->drawText(pill, Qt::AlignCenter, statusLabel);

    const int boxes = index.data(ImageListModel::BoxCountRole).toInt();
    const QString split =
        ImageListModel::splitText(static_cast<project::Split>(index.data(ImageListModel::SplitRole).toInt()));
    const QString count = boxes == 1 ? tr("1 box") : tr("%1 boxes").arg(boxes);
    const QString details = count + QStringLiteral("  ·  ") + split;
    QColor dim = textColor;
    dim.setAlphaF(0.7);
    painter->setPen(dim);
    painter->drawText(
        QRect(pill.right() + 8, pill.top(), option.rect.right() - pill.right() - 12, pill.height()),
        Qt::AlignLeft | Qt::AlignVCenter, details);
    painter->restore();
}

} // namespace osprey::ui
