#pragma once
// CanvasView: where the image sits in the canvas: the scale, the widget position of image pixel (0, 0),
// and whether it keeps fitting the widget as it resizes. Fit leaves room for the caption at the top;
// zooming keeps the pixel under the pointer in place. A value type; GUI thread.

#include <QPointF>
#include <QRectF>
#include <QSize>

namespace osprey::ui {

class CanvasView {
public:
    static constexpr double kZoomStep = 1.25;
    static constexpr double kMaxScale = 32.0;

    double scale() const { return m_scale; }
    QPointF origin() const { return m_origin; }
    /// True while the view follows the widget size (after fit(), until a zoom or a pan).
    bool fitted() const { return m_fit; }

    QPointF toWidget(QPointF imagePx) const { return m_origin + imagePx * m_scale; }
    QPointF toImage(QPointF widgetPoint) const { return (widgetPoint - m_origin) / m_scale; }
    QRectF toWidget(const QRectF& imageRect) const {
        return QRectF(toWidget(imageRect.topLeft()), toWidget(imageRect.bottomRight()));
    }

    /// Fits `image` into `widget` below the caption; false (nothing changes) for an empty image.
    bool fit(QSizeF widget, QSize image);
    /// Scales to `newScale` (clamped between a quarter of the fit, or 1:1 if smaller, and kMaxScale)
    /// keeping `widgetPoint` over the same image pixel; false for an empty image.
    bool zoomAround(QPointF widgetPoint, double newScale, QSizeF widget, QSize image);
    /// Moves the image by `widgetDelta` (a pan ends fitting).
    void pan(QPointF widgetDelta);

private:
    double m_scale = 1.0;
    QPointF m_origin;
    bool m_fit = true;
};

} // namespace osprey::ui
