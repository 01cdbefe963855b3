#include "ui/annotate/image_pyramid.h"

#include <QImageReader>
#include <QPainter>
#include <cmath>

namespace osprey::ui {

namespace {
// Levels stop once the image would fit a small screen tile; smaller ones are never drawn.
constexpr int kSmallestLevelPx = 256;
} // namespace

std::shared_ptr<const ImagePyramid> ImagePyramid::load(const QString& filePath, QString* error) {
    QImageReader reader(filePath);
    reader.setAutoTransform(true);
    QImage image = reader.read();
    if (image.isNull()) {
        if (error)
            *error = reader.errorString();
        return nullptr;
    }
    return fromImage(std::move(image));
}

std::shared_ptr<const ImagePyramid> ImagePyramid::fromImage(QImage image) {
    auto pyramid = std::make_shared<ImagePyramid>();
    // The raster paint engine blends these two formats fastest.
    image = image.convertToFormat(image.hasAlphaChannel() ? QImage::Format_ARGB32_Premultiplied
                                                          : QImage::Format_RGB32);
    pyramid->m_levels.push_back(std::move(image));
    while (std::max(pyramid->m_levels.back().width(), pyramid->m_levels.back().height()) > kSmallestLevelPx) {
        const QImage& last = pyramid->m_levels.back();
        pyramid->m_levels.push_back(last.scaled(std::max(1, last.width() / 2), std::max(1, last.height() / 2),
                                                Qt::IgnoreAspectRatio, Qt::SmoothTransformation));
    }
    return pyramid;
}

qint64 ImagePyramid::bytes() const {
    qint64 total = 0;
    for (const auto& level : m_levels)
        total += level.sizeInBytes();
    return total;
}

void ImagePyramid::draw(QPainter& painter, QPointF originWidget, double scale,
                        const QRectF& clipWidget) const {
    if (m_levels.empty() || scale <= 0)
        return;
    const QSizeF full = size();
    // The smallest level that still has at least one pixel per screen pixel.
    int index = 0;
    while (index + 1 < levelCount() && level(index + 1).width() >= full.width() * scale)
        ++index;
    const QImage& image = level(index);
    const double levelPerImage = image.width() / full.width();

    const QRectF imageWidget(originWidget, full * scale);
    const QRectF visibleWidget = imageWidget.intersected(clipWidget);
    if (visibleWidget.isEmpty())
        return;
    // Whole source pixels only, so the picture does not shimmer while panning.
    QRectF source((visibleWidget.topLeft() - originWidget) / scale * levelPerImage,
                  visibleWidget.size() / scale * levelPerImage);
    source = QRectF(QPointF(std::floor(source.left()), std::floor(source.top())),
                    QPointF(std::ceil(source.right()), std::ceil(source.bottom())))
                 .intersected(QRectF(image.rect()));
    const double widgetPerLevel = scale / levelPerImage;
    const QRectF target(originWidget + source.topLeft() * widgetPerLevel, source.size() * widgetPerLevel);
    // Smooth when shrinking; sharp pixels when zoomed in, which is what annotators want to see.
    painter.setRenderHint(QPainter::SmoothPixmapTransform, widgetPerLevel < 1.0);
    painter.drawImage(target, image, source);
}

} // namespace osprey::ui
