#pragma once
// BoxCanvas: the editor's drawing surface. Shows the current image of an AnnotationSession with its boxes
// and lets the annotator draw (W, or drag on empty space), select (click, Ctrl+click, Shift+drag rubber
// band, clicking again on overlapping boxes cycles through them), move, resize by 8 handles, nudge, zoom
// (wheel, Ctrl+/Ctrl-, fit, 1:1) and pan (Space+drag, middle mouse). Edits go to the session as undo
// commands; the canvas repaints from the session's boxes. The zoom and position are a CanvasView; the
// mouse gestures are BoxDrag's. GUI thread only.

#include "project/types.h"
#include "ui/annotate/box_drag.h"
#include "ui/annotate/canvas_view.h"
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
    CanvasOverlay* overlay() const { return m_overlay; }
    double scale() const { return m_view.scale(); }

    /// The caption drawn over the image: name, size, status, boxes, zoom, next class. A frame cut from a
    /// video is named by its video, frame index and time ("cam1.mp4 · frame 1234 · 00:41.13").
    QString captionText() const;

    /// Where image pixel `imagePx` lands in widget coordinates, and back.
    QPointF toWidget(QPointF imagePx) const { return m_view.toWidget(imagePx); }
    QPointF toImage(QPointF widgetPoint) const { return m_view.toImage(widgetPoint); }

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
    friend class BoxDrag;

    QSize imageSize() const;
    QRectF boxWidgetRect(const project::BoxRecord& box) const;
    bool isSelected(std::int64_t boxId) const;
    void zoomAround(QPointF widgetPoint, double newScale);
    void onBoxesChanged();
    void paintBoxes(QPainter& painter, const QRectF& captionArea);

    AnnotationSession* m_session;
    CanvasOverlay* m_overlay = nullptr;
    std::shared_ptr<const ImagePyramid> m_pyramid;
    QString m_placeholder;
    CanvasView m_view;
    BoxDrag m_drag{*this};
    bool m_boxesHidden = false;
    bool m_drawArmed = false;
    bool m_spaceHeld = false;
    bool m_spacePanned = false;
    std::vector<std::int64_t> m_selection;
    std::int64_t m_hovered = 0;
    QPointF m_cursor{-1, -1};
    int m_nudgeSerial = 0;
    QElapsedTimer m_nudgeTimer;
};

} // namespace osprey::ui
