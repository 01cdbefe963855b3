#pragma once
// BoxPainter: draws the editor's overlays in widget coordinates: boxes with a halo of the opposite
// brightness (so that every class colour reads on light and dark images), class labels in the class
// colour with black or white text, the 8 resize handles, the crosshair and the caption. Lines are snapped
// to whole pixels so they stay crisp at any zoom.

#include <QColor>
#include <QFontMetrics>
#include <QRectF>
#include <QString>

class QPainter;

namespace osprey::ui {

class BoxPainter {
public:
    enum class State { Normal, Hovered, Selected };

    /// Half the side of a resize handle, and how far from it a click still grabs it (widget pixels).
    static constexpr double kHandleRadius = 4.5;
    static constexpr double kHandleGrab = 7.0;

    /// Centres of the 8 handles: 0 top-left, 1 top, 2 top-right, 3 right, 4 bottom-right, 5 bottom,
    /// 6 bottom-left, 7 left.
    static QPointF handleCenter(const QRectF& rectWidget, int handle);

    static void paintBox(QPainter& painter, const QRectF& rectWidget, const QColor& color, State state);
    /// The label tag above the box: inside its top edge when there is no room above `bounds`, at the top
    /// of `bounds` when the box's top is out of view, and below `avoid` (the caption) rather than under it.
    static void paintLabel(QPainter& painter, const QRectF& rectWidget, const QColor& color,
                           const QString& text, const QRectF& bounds, const QRectF& avoid = QRectF());
    /// Where paintLabel puts the tag, for a label font with `metrics`.
    static QRect labelRect(const QFontMetrics& metrics, const QRectF& rectWidget, const QString& text,
                           const QRectF& bounds, const QRectF& avoid = QRectF());
    static void paintHandles(QPainter& painter, const QRectF& rectWidget, const QColor& color);
    /// Full-height and full-width lines through `pointWidget`, two-tone so they read on any image.
    static void paintCrosshair(QPainter& painter, QPointF pointWidget, const QRectF& area);
    /// The box being drawn or the rubber band: a two-tone dashed rectangle.
    static void paintDashedRect(QPainter& painter, const QRectF& rectWidget, const QColor& color);
    /// A rounded dark pill with white text at `topLeft`.
    static void paintCaption(QPainter& painter, QPointF topLeft, const QString& text);
    /// The pill paintCaption draws, for the painter's font `metrics`.
    static QRectF captionRect(const QFontMetrics& metrics, QPointF topLeft, const QString& text);
    /// Black or white, whichever has the higher WCAG contrast ratio with `background`.
    static QColor textOn(const QColor& background);
    /// The translucent black or white edge drawn around lines and tags of `color`.
    static QColor haloFor(const QColor& color);
    /// `rect` moved to whole pixels, with edges on pixel centres for a line of width `lineWidth`.
    static QRectF snapped(const QRectF& rect, int lineWidth);
};

} // namespace osprey::ui
