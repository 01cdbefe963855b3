#include "ui/annotate/box_painter.h"

#include <QPainter>
#include <QPainterPath>
#include <cmath>

namespace osprey::ui {

namespace {
constexpr int kHaloAlpha = 170;

/// WCAG relative luminance of an sRGB colour.
double relativeLuminance(const QColor& color) {
    auto linear = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * linear(color.redF()) + 0.7152 * linear(color.greenF()) + 0.0722 * linear(color.blueF());
}
} // namespace

QRectF BoxPainter::snapped(const QRectF& rect, int lineWidth) {
    // Odd-width lines are sharp when centred on a pixel centre, even-width ones on a pixel edge.
    const double shift = (lineWidth % 2) ? 0.5 : 0.0;
    const QPointF a(std::round(rect.left()) + shift, std::round(rect.top()) + shift);
    const QPointF b(std::round(rect.right()) - shift, std::round(rect.bottom()) - shift);
    return QRectF(a, b);
}

QColor BoxPainter::textOn(const QColor& background) {
    // The WCAG contrast ratio against white is 1.05 / (L + 0.05), against black (L + 0.05) / 0.05; black
    // wins above L = 0.179. (A threshold on perceived brightness put white on red and teal at 3.4:1.)
    return relativeLuminance(background) > 0.179 ? QColor(Qt::black) : QColor(Qt::white);
}

QColor BoxPainter::haloFor(const QColor& color) {
    QColor halo = textOn(color);
    halo.setAlpha(kHaloAlpha);
    return halo;
}

QPointF BoxPainter::handleCenter(const QRectF& r, int handle) {
    const double cx = r.center().x(), cy = r.center().y();
    switch (handle) {
    case 0:
        return r.topLeft();
    case 1:
        return {cx, r.top()};
    case 2:
        return r.topRight();
    case 3:
        return {r.right(), cy};
    case 4:
        return r.bottomRight();
    case 5:
        return {cx, r.bottom()};
    case 6:
        return r.bottomLeft();
    default:
        return {r.left(), cy};
    }
}

void BoxPainter::paintBox(QPainter& painter, const QRectF& rectWidget, const QColor& color, State state) {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    const int width = state == State::Selected ? 3 : 2;
    const QRectF r = snapped(rectWidget, width);
    if (state != State::Normal) {
        QColor fill = color;
        fill.setAlpha(state == State::Selected ? 56 : 32);
        painter.fillRect(r, fill);
    }
    // A halo one pixel wider on each side, dark around a pale line and light around a dark one, keeps
    // the line visible on an image of its own brightness.
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(haloFor(color), width + 2, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    painter.drawRect(r);
    painter.setPen(QPen(color, width, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    painter.drawRect(r);
    painter.restore();
}

QRect BoxPainter::labelRect(const QFontMetrics& metrics, const QRectF& rectWidget, const QString& text,
                            const QRectF& bounds, const QRectF& avoid) {
    const QSize size(metrics.horizontalAdvance(text) + 10, metrics.height() + 4);
    const QRectF r = snapped(rectWidget, 2);
    QPointF topLeft(std::round(r.left() - 1), std::round(r.top() - 1 - size.height()));
    if (topLeft.y() < bounds.top()) {
        // No room above the box: inside its top edge, or, when that edge is out of view, at the top of the
        // view for as long as the rest of the box shows.
        const double inside = std::max(std::round(r.top() + 1), std::ceil(bounds.top()));
        topLeft.setY(
            std::min(inside, std::max(std::round(r.top() + 1), std::round(r.bottom()) - size.height())));
    }
    topLeft.setX(
        std::clamp(topLeft.x(), bounds.left(), std::max(bounds.left(), bounds.right() - size.width())));
    QRect tag(topLeft.toPoint(), size);
    if (tag.intersects(avoid.toAlignedRect()))
        tag.moveTop(avoid.toAlignedRect().bottom() + 3);
    return tag;
}

void BoxPainter::paintLabel(QPainter& painter, const QRectF& rectWidget, const QColor& color,
                            const QString& text, const QRectF& bounds, const QRectF& avoid) {
    painter.save();
    QFont font = painter.font();
    font.setBold(true);
    font.setPixelSize(12);
    painter.setFont(font);
    const QRect tag = labelRect(QFontMetrics(font), rectWidget, text, bounds, avoid);
    painter.fillRect(tag.adjusted(-1, -1, 1, 1), haloFor(color));
    painter.fillRect(tag, color);
    painter.setPen(textOn(color));
    painter.drawText(tag, Qt::AlignCenter, text);
    painter.restore();
}

void BoxPainter::paintHandles(QPainter& painter, const QRectF& rectWidget, const QColor& color) {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    const QRectF r = snapped(rectWidget, 3);
    const int side = static_cast<int>(2 * kHandleRadius);
    for (int handle = 0; handle < 8; ++handle) {
        const QPointF c = handleCenter(r, handle);
        const QRect square(static_cast<int>(std::round(c.x() - kHandleRadius)),
                           static_cast<int>(std::round(c.y() - kHandleRadius)), side, side);
        painter.fillRect(square.adjusted(-1, -1, 1, 1), QColor(0, 0, 0, 200));
        painter.fillRect(square, Qt::white);
        painter.fillRect(square.adjusted(2, 2, -2, -2), color);
    }
    painter.restore();
}

void BoxPainter::paintCrosshair(QPainter& painter, QPointF p, const QRectF& area) {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    const double x = std::floor(p.x()) + 0.5, y = std::floor(p.y()) + 0.5;
    // A dark line with a light dashed line on top reads on any background.
    painter.setPen(QPen(QColor(0, 0, 0, 190), 1));
    painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
    painter.drawLine(QPointF(area.left(), y), QPointF(area.right(), y));
    QPen dashes(QColor(255, 255, 255, 230), 1, Qt::CustomDashLine);
    dashes.setDashPattern({4, 4});
    painter.setPen(dashes);
    painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
    painter.drawLine(QPointF(area.left(), y), QPointF(area.right(), y));
    painter.restore();
}

void BoxPainter::paintDashedRect(QPainter& painter, const QRectF& rectWidget, const QColor& color) {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    const QRectF r = snapped(rectWidget, 1);
    QColor fill = color;
    fill.setAlpha(40);
    painter.fillRect(r, fill);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(haloFor(color), 3));
    painter.drawRect(r);
    QPen dashes(color, 1, Qt::CustomDashLine);
    dashes.setDashPattern({5, 3});
    painter.setPen(dashes);
    painter.drawRect(r);
    painter.restore();
}

QRectF BoxPainter::captionRect(const QFontMetrics& metrics, QPointF topLeft, const QString& text) {
    return QRectF(topLeft, QSizeF(metrics.horizontalAdvance(text) + 16, metrics.height() + 8));
}

void BoxPainter::paintCaption(QPainter& painter, QPointF topLeft, const QString& text) {
    painter.save();
    const QRectF r = captionRect(QFontMetrics(painter.font()), topLeft, text);
    QPainterPath pill;
    pill.addRoundedRect(r, 6, 6);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillPath(pill, QColor(0, 0, 0, 175));
    painter.setPen(Qt::white);
    painter.drawText(r, Qt::AlignCenter, text);
    painter.restore();
}

} // namespace osprey::ui
