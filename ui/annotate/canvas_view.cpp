#include "ui/annotate/canvas_view.h"

#include <algorithm>

namespace osprey::ui {

namespace {
constexpr double kFitMarginPx = 8.0;
/// The fitted image starts below the caption so the caption never hides a box label.
constexpr double kCaptionSpacePx = 40.0;
} // namespace

bool CanvasView::fit(QSizeF widget, QSize image) {
    if (image.isEmpty())
        return false;
    const double sx = (widget.width() - 2 * kFitMarginPx) / image.width();
    const double sy = (widget.height() - kFitMarginPx - kCaptionSpacePx) / image.height();
    m_scale = std::max(1e-3, std::min(sx, sy));
    m_origin = QPointF((widget.width() - image.width() * m_scale) / 2,
                       kCaptionSpacePx +
                           (widget.height() - kFitMarginPx - kCaptionSpacePx - image.height() * m_scale) / 2);
    m_fit = true;
    return true;
}

bool CanvasView::zoomAround(QPointF widgetPoint, double newScale, QSizeF widget, QSize image) {
    if (image.isEmpty())
        return false;
    const double fitScale = std::min(widget.width() / image.width(), widget.height() / image.height());
    newScale = std::clamp(newScale, std::min(fitScale / 4, 1.0), kMaxScale);
    const QPointF anchor = toImage(widgetPoint);
    m_scale = newScale;
    m_origin = widgetPoint - anchor * m_scale;
    m_fit = false;
    return true;
}

void CanvasView::pan(QPointF widgetDelta) {
    m_origin += widgetDelta;
    m_fit = false;
}

} // namespace osprey::ui
