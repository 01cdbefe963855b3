#pragma once
// BoxDrag: the canvas's mouse gestures. Hit testing (boxes under the pointer, smallest first; the
// handles of the selection), the gesture a left press starts (draw, move, resize by one of 8 handles,
// Shift rubber band, Ctrl toggle, Space or middle-button pan), its progress while the mouse moves (shown
// from memory through the session's preview; nothing is written), what the release stores or decides (a
// move or resize as one edit and one write, a new box, cycling through overlapping boxes, the band's
// selection) and the cursor shape.
// Belongs to one BoxCanvas; GUI thread only.

#include "project/types.h"

#include <QPointF>
#include <QRectF>
#include <QSize>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace osprey::ui {

class BoxCanvas;

/// The boxes moved by `delta` image pixels, the step shortened so that every box stays inside `image`
/// (a box is never squashed against an edge).
std::vector<project::BoxRecord> translatedInside(std::vector<project::BoxRecord> boxes, QPointF delta,
                                                 QSize image);

/// `box` with the edges of `handle` (0 top-left, clockwise to 7 left) moved to `point`; dragging past the
/// opposite edge flips the box. Nullopt when it would be thinner than 1 px.
std::optional<project::BoxRecord> resizedByHandle(project::BoxRecord box, int handle, QPointF point);

class BoxDrag {
public:
    enum class Kind { None, Draw, Move, Resize, RubberBand, Pan };

    explicit BoxDrag(BoxCanvas& canvas) : m_canvas(canvas) {}

    Kind kind() const { return m_kind; }
    /// The box being drawn or the rubber band, in image pixels (Draw and RubberBand).
    QRectF rectImage() const { return m_rectImage; }
    /// Ends a draw, rubber band, move or resize without effect (Escape): the boxes stay as stored.
    void cancel();
    /// Forgets any gesture (another image was opened).
    void reset() {
        m_kind = Kind::None;
        m_start.clear();
        m_pending.clear();
    }

    /// Boxes under a widget point, smallest first (so a small box inside a big one wins).
    std::vector<std::int64_t> boxesAt(QPointF widgetPoint) const;
    /// The selected box and handle (0-7) under a widget point; handle -1 when none.
    std::pair<std::int64_t, int> handleAt(QPointF widgetPoint) const;

    /// A mouse press; starts the gesture it means (or toggles the selection with Ctrl).
    void press(QPointF widgetPoint, Qt::MouseButton button, Qt::KeyboardModifiers modifiers);
    /// A mouse move while a gesture is on.
    void moveTo(QPointF widgetPoint);
    /// The release: what the gesture decides.
    void finish(QPointF widgetPoint, Qt::KeyboardModifiers modifiers);
    /// The pointer shape for a widget point when no button is held (and during a pan).
    void updateCursor(QPointF widgetPoint);

private:
    void pressOnBoxes(Qt::KeyboardModifiers modifiers);
    void finishMove();
    void finishBand(Qt::KeyboardModifiers modifiers);

    BoxCanvas& m_canvas;
    Kind m_kind = Kind::None;
    QPointF m_pressWidget;
    QPointF m_pressImage;
    QPointF m_lastPanWidget;
    std::vector<project::BoxRecord> m_start;   ///< the dragged boxes as they were at the press
    std::vector<project::BoxRecord> m_pending; ///< where the drag has them now, stored on release
    std::vector<std::int64_t> m_candidates;    ///< the boxes under the press, smallest first
    bool m_pressOnSelected = false;
    bool m_moved = false;
    int m_handle = -1;
    int m_serial = 0;
    QRectF m_rectImage;
};

} // namespace osprey::ui
