#include "ui/main/image_view.h"

#include "ui/project/image_list_delegate.h"
#include "ui/project/image_list_model.h"
#include "ui/project/project_document.h"

#include <QFileInfo>
#include <QImageReader>
#include <QPainter>
#include <QPainterPath>
#include <QtConcurrent>

namespace osprey::ui {

namespace {
const QColor kBackground(0x1b, 0x1d, 0x21);

QImage decode(const QString& path) {
    QImageReader reader(path);
    reader.setAutoTransform(true);
    return reader.read();
}

// Black or white, whichever reads better on `background`.
QColor textOn(const QColor& background) {
    const double luminance =
        0.299 * background.redF() + 0.587 * background.greenF() + 0.114 * background.blueF();
    return luminance > 0.6 ? QColor(Qt::black) : QColor(Qt::white);
}
} // namespace

ImageView::ImageView(QWidget* parent) : QWidget(parent) {
    setMinimumSize(320, 240);
    setAutoFillBackground(false);
    connect(&m_watcher, &QFutureWatcher<QImage>::finished, this, &ImageView::onDecoded);
}

void ImageView::setDocument(ProjectDocument* document) {
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    m_imageId = m_pendingId = 0;
    m_image = {};
    m_boxes.clear();
    if (document) {
        connect(document, &ProjectDocument::imageChanged, this, [this](qint64 id) {
            if (id == m_imageId)
                reloadBoxes();
        });
        connect(document, &ProjectDocument::classesChanged, this, qOverload<>(&QWidget::update));
    }
    update();
}

void ImageView::showImage(qint64 imageId) {
    if (!m_document || imageId == 0) {
        m_imageId = m_pendingId = 0;
        m_image = {};
        m_boxes.clear();
        update();
        return;
    }
    auto record = m_document->project().image(imageId);
    if (!record)
        return;
    m_pendingId = imageId;
    m_record = record.value();
    const QString path = m_document->imageFilePath(m_record);
    m_watcher.setFuture(QtConcurrent::run(decode, path));
}

void ImageView::onDecoded() {
    if (m_pendingId == 0)
        return;
    m_imageId = m_pendingId;
    m_image = m_watcher.result();
    m_error = m_image.isNull() ? tr("Cannot read %1").arg(m_document->imageFilePath(m_record)) : QString();
    reloadBoxes();
    emit imageShown(m_imageId);
}

void ImageView::reloadBoxes() {
    if (!m_document || m_imageId == 0)
        return;
    auto boxes = m_document->project().boxes(m_imageId);
    m_boxes = boxes ? std::move(boxes.value()) : std::vector<project::BoxRecord>{};
    if (auto record = m_document->project().image(m_imageId))
        m_record = record.value();
    update();
}

QRectF ImageView::imageRect() const {
    if (m_image.isNull())
        return {};
    const QRectF area = QRectF(rect()).adjusted(12, 12, -12, -12);
    const QSizeF fitted = QSizeF(m_image.size()).scaled(area.size(), Qt::KeepAspectRatio);
    return QRectF(area.center().x() - fitted.width() / 2, area.center().y() - fitted.height() / 2,
                  fitted.width(), fitted.height());
}

QPointF ImageView::toWidget(QPointF imagePoint) const {
    const QRectF target = imageRect();
    if (target.isEmpty())
        return {};
    const double scale = target.width() / m_image.width();
    return target.topLeft() + imagePoint * scale;
}

void ImageView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), kBackground);
    if (m_image.isNull()) {
        painter.setPen(QColor(0x9a, 0xa0, 0xa6));
        QFont font = painter.font();
        font.setPointSizeF(font.pointSizeF() * 1.2);
        painter.setFont(font);
        const QString message = !m_error.isEmpty() ? m_error
                                : m_document
                                    ? tr("Select an image in the list")
                                    : tr("No project open\n\nFile ▸ Open Project… (Ctrl+O)\nFile ▸ New "
                                         "Project… (Ctrl+N)");
        painter.drawText(rect(), Qt::AlignCenter, message);
        return;
    }
    const QRectF target = imageRect();
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    painter.drawImage(target, m_image);
    const double scale = target.width() / m_image.width();

    painter.setRenderHint(QPainter::Antialiasing);
    QFont labelFont = painter.font();
    labelFont.setBold(true);
    labelFont.setPointSizeF(std::max(7.5, labelFont.pointSizeF() * 0.9));
    painter.setFont(labelFont);
    const QFontMetricsF metrics(labelFont);
    for (const auto& box : m_boxes) {
        const QColor color = m_document->classColor(box.classId);
        const QRectF r(target.left() + box.x1 * scale, target.top() + box.y1 * scale,
                       (box.x2 - box.x1) * scale, (box.y2 - box.y1) * scale);
        // A thin dark halo under the coloured line keeps it visible on light and dark images alike.
        painter.setPen(QPen(QColor(0, 0, 0, 150), 4));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(r);
        painter.setPen(QPen(color, 2));
        painter.drawRect(r);
        QString label = m_document->className(box.classId);
        if (box.score)
            label += QStringLiteral(" %1").arg(*box.score, 0, 'f', 2);
        const QSizeF textSize(metrics.horizontalAdvance(label) + 8, metrics.height() + 2);
        QPointF tagTopLeft(r.left() - 1, r.top() - textSize.height());
        if (tagTopLeft.y() < target.top())
            tagTopLeft.setY(r.top());
        const QRectF tag(tagTopLeft, textSize);
        painter.fillRect(tag, color);
        painter.setPen(textOn(color));
        painter.drawText(tag, Qt::AlignCenter, label);
    }

    // Caption: file, size, status and box count.
    const QString boxCount = m_boxes.size() == 1 ? tr("1 box") : tr("%1 boxes").arg(m_boxes.size());
    const QString caption = tr("%1   %2 × %3 px   %4   %5")
                                .arg(QFileInfo(QString::fromStdString(m_record.path)).fileName())
                                .arg(m_record.width)
                                .arg(m_record.height)
                                .arg(ImageListModel::statusText(m_record.status))
                                .arg(boxCount);
    QFont captionFont = font();
    painter.setFont(captionFont);
    const QFontMetrics captionMetrics(captionFont);
    const QRect captionRect(8, 8, captionMetrics.horizontalAdvance(caption) + 16,
                            captionMetrics.height() + 8);
    QPainterPath pill;
    pill.addRoundedRect(captionRect, 6, 6);
    painter.fillPath(pill, QColor(0, 0, 0, 170));
    painter.setPen(Qt::white);
    painter.drawText(captionRect, Qt::AlignCenter, caption);
}

} // namespace osprey::ui
