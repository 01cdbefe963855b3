#pragma once
// BoxCanvas: the editor's drawing surface. Shows the current image of an AnnotationSession with its boxes
// and lets the annotator draw (W, or drag on empty space), select (click, Ctrl+click, Shift+drag rubber
// band, clicking again on overlapping boxes cycles through them), move, resize by 8 handles, nudge, zoom
// (wheel, Ctrl+/Ctrl-, fit, 1:1) and pan (Space+drag, middle mouse). Edits go to the session as undo
// commands; the canvas repaints from the session's boxes. GUI thread only.

#include "project/types.h"
#include "ui/annotate/image_pyramid.h"

#include <QElapsedTimer>
#include <QWidget>
#include <memory>
#include <vector>

class QPainter;

namespace osprey::ui {

class AnnotationSession;

/// Something drawn over the boxes that also takes clicks (the model proposals): painted after the boxes
/// and before the caption; offered each left click before the canvas handles it.
class CanvasOverlay {
public:
    virtual ~CanvasOverlay() = default;
    /// Paints in widget coordinates; labels keep clear of `avoid` (the caption).
    virtual void paintOverlay(QPainter& painter, const QRectF& avoid) = 0;
    /// A left click at image pixel `imagePx`; returns true when the overlay took it.
    virtual bool overlayClicked(QPointF imagePx) = 0;
};

class BoxCanvas : public QWidget {
    Q_OBJECT
public:
    explicit BoxCanvas(AnnotationSession* session, QWidget* parent = nullptr);

    /// The decoded image for the session's current image (null while it is being decoded).
    void setPyramid(std::shared_ptr<const ImagePyramid> pyramid);
    bool hasImage() const { return m_pyramid != nullptr; }
    /// A message shown instead of the image (e.g. a decode error); empty clears it.
    void setPlaceholder(const QString& text);

    const std::vector<std::int64_t>& selection() const { return m_selection; }
    void setSelection(std::vector<std::int64_t> boxIds);
    bool boxesHidden() const { return m_boxesHidden; }
    /// Draws `overlay` over the boxes (null removes it); the canvas does not own it.
    void setOverlay(CanvasOverlay* overlay);
    double scale() const { return m_scale; }

    /// Where image pixel `imagePx` lands in widget coordinates, and back.
    QPointF toWidget(QPointF imagePx) const;
    QPointF toImage(QPointF widgetPoint) const;

public slots:
    void armDrawing();
    void setBoxesHidden(bool hidden);
    void zoomIn();
    void zoomOut();
    void zoomToFit();
    void zoomToActualSize();
    /// Moves the selection by (dx, dy) image pixels.
    void nudge(double dx, double dy);
    void selectNextBox();
    void selectAll();

signals:
    /// A frame was painted with the image and boxes of `imageId` (after setPyramid or an edit).
    void framePainted(qint64 imageId);
    /// Space was pressed and released without dragging (Space+drag pans instead).
    void spaceTapped();
    void selectionChanged();
    void zoomChanged(double scale);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    enum class Drag { None, Draw, Move, Resize, RubberBand, Pan };

    QSize imageSize() const;
    QRectF boxWidgetRect(const project::BoxRecord& box) const;
    /// Boxes under a widget point, smallest first (so a small box inside a big one wins).
    std::vector<std::int64_t> boxesAt(QPointF widgetPoint) const;
    /// The selected box and handle (0-7) under a widget point; handle -1 when none.
    std::pair<std::int64_t, int> handleAt(QPointF widgetPoint) const;
    bool isSelected(std::int64_t boxId) const;
    void zoomAround(QPointF widgetPoint, double newScale);
    void updateCursor(QPointF widgetPoint);
    void dragMoveTo(QPointF widgetPoint);
    void finishDrag(QPointF widgetPoint, Qt::KeyboardModifiers modifiers);
    void onBoxesChanged();

    AnnotationSession* m_session;
    CanvasOverlay* m_overlay = nullptr;
    std::shared_ptr<const ImagePyramid> m_pyramid;
    QString m_placeholder;
    double m_scale = 1.0;
    QPointF m_origin; ///< widget position of image pixel (0, 0)
    bool m_fit = true;
    bool m_boxesHidden = false;
    bool m_drawArmed = false;
    bool m_spaceHeld = false;
    bool m_spacePanned = false;
    std::vector<std::int64_t> m_selection;
    std::int64_t m_hovered = 0;
    QPointF m_cursor{-1, -1};

    Drag m_drag = Drag::None;
    QPointF m_pressWidget;
    QPointF m_pressImage;
    QPointF m_lastPanWidget;
    std::vector<project::BoxRecord> m_dragStart; ///< the dragged boxes as they were at the press
    std::vector<std::int64_t> m_pressCandidates;
    bool m_pressOnSelected = false;
    bool m_dragMoved = false;
    int m_handle = -1;
    int m_dragSerial = 0;
    QRectF m_dragRectImage; ///< the box being drawn or the rubber band
    int m_nudgeSerial = 0;
    QElapsedTimer m_nudgeTimer;
};

} // namespace osprey::ui
