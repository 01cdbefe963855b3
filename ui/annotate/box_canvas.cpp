#include "ui/annotate/box_canvas.h"

#include "ui/annotate/annotation_session.h"
#include "ui/annotate/box_painter.h"
#include "ui/project/image_list_model.h"
#include "ui/project/project_document.h"

#include <QFileInfo>
#include <QKeyEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace osprey::ui {

namespace {
const QColor kBackground(0x1b, 0x1d, 0x21);
constexpr double kFitMarginPx = 8.0;
/// The fitted image starts below the caption so the caption never hides a box label.
constexpr double kCaptionSpacePx = 40.0;
constexpr double kMaxScale = 32.0;
constexpr double kZoomStep = 1.25;
/// A drag shorter than this (widget pixels, either side) is a click, not a box.
constexpr double kMinDrawWidgetPx = 4.0;
/// Arrow-key presses closer together than this merge into one undo step.
constexpr qint64 kNudgeMergeMs = 700;

QPointF roundPoint(QPointF p) {
    return {std::round(p.x()), std::round(p.y())};
}
} // namespace

BoxCanvas::BoxCanvas(AnnotationSession* session, QWidget* parent) : QWidget(parent), m_session(session) {
    setObjectName("BoxCanvas");
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(320, 240);
    connect(session, &AnnotationSession::boxesChanged, this, &BoxCanvas::onBoxesChanged);
    connect(session, &AnnotationSession::currentClassChanged, this, qOverload<>(&QWidget::update));
    connect(session, &AnnotationSession::imageChanged, this, [this] {
        m_selection.clear();
        m_hovered = 0;
        m_drag = Drag::None;
        m_pyramid.reset();
        m_placeholder.clear();
        emit selectionChanged();
        update();
    });
}

void BoxCanvas::setPyramid(std::shared_ptr<const ImagePyramid> pyramid) {
    const bool sameSize = m_pyramid && pyramid && m_pyramid->size() == pyramid->size();
    m_pyramid = std::move(pyramid);
    m_placeholder.clear();
    // Consecutive frames of the same size keep the zoom and position, which helps when labelling video.
    if (!sameSize || m_fit)
        zoomToFit();
    update();
}

void BoxCanvas::setPlaceholder(const QString& text) {
    m_placeholder = text;
    update();
}

QSize BoxCanvas::imageSize() const {
    if (m_pyramid)
        return m_pyramid->size();
    return {m_session->image().width, m_session->image().height};
}

QPointF BoxCanvas::toWidget(QPointF imagePx) const {
    return m_origin + imagePx * m_scale;
}

QPointF BoxCanvas::toImage(QPointF widgetPoint) const {
    return (widgetPoint - m_origin) / m_scale;
}

QRectF BoxCanvas::boxWidgetRect(const project::BoxRecord& box) const {
    return QRectF(toWidget({box.x1, box.y1}), toWidget({box.x2, box.y2}));
}

bool BoxCanvas::isSelected(std::int64_t boxId) const {
    return std::find(m_selection.begin(), m_selection.end(), boxId) != m_selection.end();
}

void BoxCanvas::setSelection(std::vector<std::int64_t> boxIds) {
    std::erase_if(boxIds, [this](std::int64_t id) { return m_session->findBox(id) == nullptr; });
    if (boxIds == m_selection)
        return;
    m_selection = std::move(boxIds);
    emit selectionChanged();
    update();
}

void BoxCanvas::onBoxesChanged() {
    std::vector<std::int64_t> kept = m_selection;
    std::erase_if(kept, [this](std::int64_t id) { return m_session->findBox(id) == nullptr; });
    if (kept != m_selection) {
        m_selection = kept;
        emit selectionChanged();
    }
    update();
}

std::vector<std::int64_t> BoxCanvas::boxesAt(QPointF widgetPoint) const {
    std::vector<std::pair<double, std::int64_t>> hits;
    if (m_boxesHidden)
        return {};
    for (const auto& box : m_session->boxes())
        if (boxWidgetRect(box).adjusted(-2, -2, 2, 2).contains(widgetPoint))
            hits.emplace_back((box.x2 - box.x1) * (box.y2 - box.y1), box.id);
    std::sort(hits.begin(), hits.end());
    std::vector<std::int64_t> ids;
    for (const auto& hit : hits)
        ids.push_back(hit.second);
    return ids;
}

std::pair<std::int64_t, int> BoxCanvas::handleAt(QPointF widgetPoint) const {
    if (m_boxesHidden)
        return {0, -1};
    for (const std::int64_t id : m_selection) {
        const auto* box = m_session->findBox(id);
        if (!box)
            continue;
        const QRectF r = boxWidgetRect(*box);
        for (int handle = 0; handle < 8; ++handle) {
            const QPointF d = BoxPainter::handleCenter(r, handle) - widgetPoint;
            if (std::abs(d.x()) <= BoxPainter::kHandleGrab && std::abs(d.y()) <= BoxPainter::kHandleGrab)
                return {id, handle};
        }
    }
    return {0, -1};
}

// ---- view -----------------------------------------------------------------------------------------

void BoxCanvas::zoomToFit() {
    const QSize size = imageSize();
    if (size.isEmpty())
        return;
    const double sx = (width() - 2 * kFitMarginPx) / size.width();
    const double sy = (height() - kFitMarginPx - kCaptionSpacePx) / size.height();
    m_scale = std::max(1e-3, std::min(sx, sy));
    m_origin =
        QPointF((width() - size.width() * m_scale) / 2,
                kCaptionSpacePx + (height() - kFitMarginPx - kCaptionSpacePx - size.height() * m_scale) / 2);
    m_fit = true;
    emit zoomChanged(m_scale);
    update();
}

void BoxCanvas::zoomAround(QPointF widgetPoint, double newScale) {
    const QSize size = imageSize();
    if (size.isEmpty())
        return;
    const double fitScale = std::min(double(width()) / size.width(), double(height()) / size.height());
    newScale = std::clamp(newScale, std::min(fitScale / 4, 1.0), kMaxScale);
    const QPointF anchor = toImage(widgetPoint);
    m_scale = newScale;
    m_origin = widgetPoint - anchor * m_scale;
    m_fit = false;
    emit zoomChanged(m_scale);
    update();
}

void BoxCanvas::zoomIn() {
    zoomAround(rect().center(), m_scale * kZoomStep);
}

void BoxCanvas::zoomOut() {
    zoomAround(rect().center(), m_scale / kZoomStep);
}

void BoxCanvas::zoomToActualSize() {
    zoomAround(m_cursor.x() >= 0 ? m_cursor : QPointF(rect().center()), 1.0);
}

void BoxCanvas::resizeEvent(QResizeEvent*) {
    if (m_fit)
        zoomToFit();
}

void BoxCanvas::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0)
        zoomAround(event->position(), m_scale * std::pow(kZoomStep, steps));
    event->accept();
}

// ---- commands from actions ------------------------------------------------------------------------

void BoxCanvas::armDrawing() {
    m_drawArmed = true;
    setCursor(Qt::CrossCursor);
    update();
}

void BoxCanvas::setBoxesHidden(bool hidden) {
    m_boxesHidden = hidden;
    update();
}

void BoxCanvas::nudge(double dx, double dy) {
    if (m_selection.empty() || m_drag != Drag::None)
        return;
    const QSize size = imageSize();
    std::vector<project::BoxRecord> after;
    for (const std::int64_t id : m_selection)
        if (const auto* box = m_session->findBox(id))
            after.push_back(*box);
    // Keep every box inside the image: shorten the step instead of squashing a box against the edge.
    for (const auto& box : after) {
        dx = std::clamp(dx, -box.x1, size.width() - box.x2);
        dy = std::clamp(dy, -box.y1, size.height() - box.y2);
    }
    if (dx == 0 && dy == 0)
        return;
    for (auto& box : after) {
        box.x1 += dx;
        box.x2 += dx;
        box.y1 += dy;
        box.y2 += dy;
    }
    if (!m_nudgeTimer.isValid() || m_nudgeTimer.elapsed() > kNudgeMergeMs)
        m_nudgeSerial = m_session->newDragSerial();
    m_nudgeTimer.start();
    m_session->setBoxGeometry(after, AnnotationSession::GeometryEdit::Move, m_nudgeSerial);
}

void BoxCanvas::setOverlay(CanvasOverlay* overlay) {
    m_overlay = overlay;
    update();
}

void BoxCanvas::selectNextBox() {
    const auto& boxes = m_session->boxes();
    if (boxes.empty())
        return;
    size_t next = 0;
    if (!m_selection.empty())
        for (size_t i = 0; i < boxes.size(); ++i)
            if (boxes[i].id == m_selection.back())
                next = (i + 1) % boxes.size();
    setSelection({boxes[next].id});
}

void BoxCanvas::selectAll() {
    std::vector<std::int64_t> ids;
    for (const auto& box : m_session->boxes())
        ids.push_back(box.id);
    setSelection(ids);
}

// ---- mouse ----------------------------------------------------------------------------------------

void BoxCanvas::mousePressEvent(QMouseEvent* event) {
    const QPointF pos = event->position();
    setFocus(Qt::MouseFocusReason);
    m_pressWidget = pos;
    m_lastPanWidget = pos;
    m_pressImage = toImage(pos);
    m_dragMoved = false;
    if (event->button() == Qt::LeftButton && m_overlay && !m_drawArmed && !m_spaceHeld &&
        m_overlay->overlayClicked(m_pressImage))
        return;
    if (event->button() == Qt::MiddleButton || (event->button() == Qt::LeftButton && m_spaceHeld)) {
        m_drag = Drag::Pan;
        m_spacePanned = m_spaceHeld;
        setCursor(Qt::ClosedHandCursor);
        return;
    }
    if (event->button() != Qt::LeftButton || imageSize().isEmpty() || m_session->imageId() == 0)
        return;
    const bool ctrl = event->modifiers() & Qt::ControlModifier;
    if (!m_drawArmed) {
        if (const auto [boxId, handle] = handleAt(pos); handle >= 0 && !ctrl) {
            m_drag = Drag::Resize;
            m_handle = handle;
            m_dragStart = {*m_session->findBox(boxId)};
            m_dragSerial = m_session->newDragSerial();
            return;
        }
        m_pressCandidates = boxesAt(pos);
        if (!m_pressCandidates.empty()) {
            const auto selected = std::find_if(m_pressCandidates.begin(), m_pressCandidates.end(),
                                               [this](std::int64_t id) { return isSelected(id); });
            m_pressOnSelected = selected != m_pressCandidates.end();
            if (ctrl) {
                std::vector<std::int64_t> ids = m_selection;
                const std::int64_t target = m_pressOnSelected ? *selected : m_pressCandidates.front();
                if (isSelected(target))
                    std::erase(ids, target);
                else
                    ids.push_back(target);
                setSelection(ids);
                return;
            }
            if (!m_pressOnSelected)
                setSelection({m_pressCandidates.front()});
            m_drag = Drag::Move;
            m_dragStart.clear();
            for (const std::int64_t id : m_selection)
                if (const auto* box = m_session->findBox(id))
                    m_dragStart.push_back(*box);
            m_dragSerial = m_session->newDragSerial();
            return;
        }
        if (event->modifiers() & Qt::ShiftModifier) {
            m_drag = Drag::RubberBand;
            m_dragRectImage = QRectF(m_pressImage, m_pressImage);
            return;
        }
    }
    m_drag = Drag::Draw;
    const QPointF start = roundPoint(m_pressImage);
    m_dragRectImage = QRectF(start, start);
    update();
}

void BoxCanvas::mouseMoveEvent(QMouseEvent* event) {
    const QPointF pos = event->position();
    m_cursor = pos;
    if ((pos - m_pressWidget).manhattanLength() >= 3)
        m_dragMoved = true;
    if (m_drag != Drag::None) {
        dragMoveTo(pos);
        return;
    }
    const std::vector<std::int64_t> under = boxesAt(pos);
    const std::int64_t hovered = under.empty() ? 0 : under.front();
    if (hovered != m_hovered || m_drawArmed)
        update();
    m_hovered = hovered;
    updateCursor(pos);
}

void BoxCanvas::dragMoveTo(QPointF pos) {
    const QSize size = imageSize();
    const QPointF image = toImage(pos);
    switch (m_drag) {
    case Drag::Pan:
        m_origin += pos - m_lastPanWidget;
        m_lastPanWidget = pos;
        m_fit = false;
        break;
    case Drag::Draw:
    case Drag::RubberBand: {
        const QPointF clamped(std::clamp(std::round(image.x()), 0.0, double(size.width())),
                              std::clamp(std::round(image.y()), 0.0, double(size.height())));
        m_dragRectImage.setBottomRight(clamped);
        break;
    }
    case Drag::Move: {
        if (!m_dragMoved || m_dragStart.empty())
            return;
        QPointF delta = roundPoint(image - m_pressImage);
        for (const auto& box : m_dragStart) {
            delta.setX(std::clamp(delta.x(), -box.x1, size.width() - box.x2));
            delta.setY(std::clamp(delta.y(), -box.y1, size.height() - box.y2));
        }
        std::vector<project::BoxRecord> after = m_dragStart;
        for (auto& box : after) {
            box.x1 += delta.x();
            box.x2 += delta.x();
            box.y1 += delta.y();
            box.y2 += delta.y();
        }
        const auto* now = m_session->findBox(after.front().id);
        if (now && now->x1 == after.front().x1 && now->y1 == after.front().y1)
            return;
        m_session->setBoxGeometry(after, AnnotationSession::GeometryEdit::Move, m_dragSerial);
        break;
    }
    case Drag::Resize: {
        const QPointF p(std::clamp(std::round(image.x()), 0.0, double(size.width())),
                        std::clamp(std::round(image.y()), 0.0, double(size.height())));
        project::BoxRecord box = m_dragStart.front();
        const int h = m_handle;
        if (h == 0 || h == 6 || h == 7)
            box.x1 = p.x();
        if (h == 2 || h == 3 || h == 4)
            box.x2 = p.x();
        if (h == 0 || h == 1 || h == 2)
            box.y1 = p.y();
        if (h == 4 || h == 5 || h == 6)
            box.y2 = p.y();
        // Dragging an edge past the opposite one flips the box rather than collapsing it.
        if (box.x1 > box.x2)
            std::swap(box.x1, box.x2);
        if (box.y1 > box.y2)
            std::swap(box.y1, box.y2);
        if (box.x2 - box.x1 < 1 || box.y2 - box.y1 < 1)
            return;
        const auto* now = m_session->findBox(box.id);
        if (now && now->x1 == box.x1 && now->y1 == box.y1 && now->x2 == box.x2 && now->y2 == box.y2)
            return;
        m_session->setBoxGeometry({box}, AnnotationSession::GeometryEdit::Resize, m_dragSerial);
        break;
    }
    case Drag::None:
        break;
    }
    update();
}

void BoxCanvas::mouseReleaseEvent(QMouseEvent* event) {
    if (m_drag == Drag::None)
        return;
    finishDrag(event->position(), event->modifiers());
}

void BoxCanvas::finishDrag(QPointF pos, Qt::KeyboardModifiers modifiers) {
    const Drag drag = m_drag;
    m_drag = Drag::None;
    switch (drag) {
    case Drag::Draw: {
        const QRectF r = m_dragRectImage.normalized();
        const QRectF onScreen = QRectF(toWidget(r.topLeft()), toWidget(r.bottomRight()));
        if (onScreen.width() >= kMinDrawWidgetPx && onScreen.height() >= kMinDrawWidgetPx && r.width() >= 1 &&
            r.height() >= 1) {
            if (const std::int64_t id = m_session->addBox(r))
                setSelection({id});
            m_drawArmed = false;
        } else if (!(modifiers & Qt::ControlModifier)) {
            setSelection({});
        }
        break;
    }
    case Drag::Move:
        // A click (no drag) on a stack of overlapping boxes that is already selected picks the next one.
        if (!m_dragMoved && m_pressOnSelected && m_pressCandidates.size() > 1) {
            auto it = std::find_if(m_pressCandidates.begin(), m_pressCandidates.end(),
                                   [this](std::int64_t id) { return isSelected(id); });
            const size_t index = static_cast<size_t>(it - m_pressCandidates.begin());
            setSelection({m_pressCandidates[(index + 1) % m_pressCandidates.size()]});
        } else if (!m_dragMoved && m_pressOnSelected && m_selection.size() > 1) {
            setSelection({m_pressCandidates.front()});
        }
        break;
    case Drag::RubberBand: {
        const QRectF band = m_dragRectImage.normalized();
        std::vector<std::int64_t> ids =
            (modifiers & Qt::ControlModifier) ? m_selection : std::vector<std::int64_t>{};
        // Duplicates are checked against the new selection: a plain band over boxes that are selected
        // already must select them again, not drop them.
        for (const auto& box : m_session->boxes())
            if (band.contains(QRectF(QPointF(box.x1, box.y1), QPointF(box.x2, box.y2))) &&
                std::find(ids.begin(), ids.end(), box.id) == ids.end())
                ids.push_back(box.id);
        setSelection(ids);
        break;
    }
    case Drag::Pan:
    case Drag::Resize:
    case Drag::None:
        break;
    }
    m_dragStart.clear();
    updateCursor(pos);
    update();
}

void BoxCanvas::updateCursor(QPointF pos) {
    if (m_spaceHeld || m_drag == Drag::Pan) {
        setCursor(m_drag == Drag::Pan ? Qt::ClosedHandCursor : Qt::OpenHandCursor);
        return;
    }
    if (m_drawArmed) {
        setCursor(Qt::CrossCursor);
        return;
    }
    static const Qt::CursorShape kHandleCursors[8] = {
        Qt::SizeFDiagCursor, Qt::SizeVerCursor, Qt::SizeBDiagCursor, Qt::SizeHorCursor,
        Qt::SizeFDiagCursor, Qt::SizeVerCursor, Qt::SizeBDiagCursor, Qt::SizeHorCursor};
    if (const int handle = handleAt(pos).second; handle >= 0)
        setCursor(kHandleCursors[handle]);
    else if (!boxesAt(pos).empty())
        setCursor(Qt::SizeAllCursor);
    else
        setCursor(Qt::CrossCursor);
}

void BoxCanvas::leaveEvent(QEvent*) {
    m_cursor = {-1, -1};
    m_hovered = 0;
    update();
}

// ---- keys -----------------------------------------------------------------------------------------

bool BoxCanvas::event(QEvent* event) {
    if (event->type() == QEvent::ShortcutOverride) {
        auto* key = static_cast<QKeyEvent*>(event);
        // Space pans while held, so the canvas must see it before the window's Space shortcut does;
        // a tap without a drag is passed on as spaceTapped().
        if ((key->key() == Qt::Key_Space && key->modifiers() == Qt::NoModifier) ||
            (key->key() == Qt::Key_Escape && (m_drag != Drag::None || m_drawArmed))) {
            event->accept();
            return true;
        }
    }
    return QWidget::event(event);
}

void BoxCanvas::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Space) {
        if (!event->isAutoRepeat()) {
            m_spaceHeld = true;
            m_spacePanned = false;
            setCursor(Qt::OpenHandCursor);
        }
        return;
    }
    if (event->key() == Qt::Key_Escape) {
        if (m_drag == Drag::Draw || m_drag == Drag::RubberBand)
            m_drag = Drag::None;
        else if (m_drawArmed)
            m_drawArmed = false;
        else
            setSelection({});
        update();
        return;
    }
    QWidget::keyPressEvent(event);
}

void BoxCanvas::keyReleaseEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
        m_spaceHeld = false;
        if (!m_spacePanned && m_drag != Drag::Pan)
            emit spaceTapped();
        updateCursor(m_cursor);
        return;
    }
    QWidget::keyReleaseEvent(event);
}

// ---- painting -------------------------------------------------------------------------------------

void BoxCanvas::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), kBackground);
    ProjectDocument* document = m_session->document();
    if (!m_pyramid) {
        painter.setPen(QColor(0x9a, 0xa0, 0xa6));
        QString message = m_placeholder;
        if (message.isEmpty())
            message =
                !document
                    ? tr("No project open\n\nFile ▸ Open Project… (Ctrl+O)\nFile ▸ New Project… (Ctrl+N)")
                : m_session->imageId() == 0 ? tr("Select an image in the list")
                                            : tr("Loading…");
        painter.drawText(rect(), Qt::AlignCenter, message);
        return;
    }
    m_pyramid->draw(painter, m_origin, m_scale, rect());
    const QRectF imageWidget(m_origin, QSizeF(m_pyramid->size()) * m_scale);

    const auto& image = m_session->image();
    const int boxes = static_cast<int>(m_session->boxes().size());
    QString caption = tr("%1   %2 × %3   %4   %5   %6%")
                          .arg(QFileInfo(QString::fromStdString(image.path)).fileName())
                          .arg(m_pyramid->size().width())
                          .arg(m_pyramid->size().height())
                          .arg(ImageListModel::statusText(image.status))
                          .arg(boxes == 1 ? tr("1 box") : tr("%1 boxes").arg(boxes))
                          .arg(qRound(m_scale * 100));
    if (const std::int64_t classId = m_session->currentClassId())
        caption += tr("   next box: %1").arg(document->className(classId));
    if (m_boxesHidden)
        caption += tr("   boxes hidden (H)");
    const QPointF captionTopLeft(8, 8);
    // Labels stay clear of the caption, which is drawn last.
    const QRectF captionArea = BoxPainter::captionRect(painter.fontMetrics(), captionTopLeft, caption);

    if (!m_boxesHidden) {
        // Unselected boxes first, so the selection is drawn on top.
        for (int pass = 0; pass < 2; ++pass)
            for (const auto& box : m_session->boxes()) {
                const bool selected = isSelected(box.id);
                if (selected != (pass == 1))
                    continue;
                const QColor color = document->classColor(box.classId);
                const QRectF r = boxWidgetRect(box);
                BoxPainter::paintBox(painter, r, color,
                                     selected              ? BoxPainter::State::Selected
                                     : box.id == m_hovered ? BoxPainter::State::Hovered
                                                           : BoxPainter::State::Normal);
                QString label = document->className(box.classId);
                if (box.score)
                    label += QStringLiteral(" %1").arg(*box.score, 0, 'f', 2);
                BoxPainter::paintLabel(painter, r, color, label, rect(), captionArea);
                if (selected)
                    BoxPainter::paintHandles(painter, r, color);
            }
    }
    if (m_overlay && !m_boxesHidden)
        m_overlay->paintOverlay(painter, captionArea);
    if (m_drag == Drag::Draw || m_drag == Drag::RubberBand) {
        const QRectF r(toWidget(m_dragRectImage.topLeft()), toWidget(m_dragRectImage.bottomRight()));
        const QColor color = m_drag == Drag::Draw ? document->classColor(m_session->currentClassId())
                                                  : QColor(0x3d, 0x8b, 0xfd);
        BoxPainter::paintDashedRect(painter, r.normalized(), color);
    }
    if ((m_drawArmed || m_drag == Drag::Draw) && imageWidget.contains(m_cursor))
        BoxPainter::paintCrosshair(painter, m_cursor, imageWidget.intersected(rect()));

    BoxPainter::paintCaption(painter, captionTopLeft, caption);
    emit framePainted(m_session->imageId());
}

} // namespace osprey::ui
