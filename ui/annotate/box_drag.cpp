#include "ui/annotate/box_drag.h"

#include "ui/annotate/annotation_session.h"
#include "ui/annotate/box_canvas.h"
#include "ui/annotate/box_painter.h"

#include <algorithm>
#include <cmath>

namespace osprey::ui {

namespace {

/// A drag shorter than this (widget pixels, either side) is a click, not a box.
constexpr double kMinDrawWidgetPx = 4.0;

QPointF roundPoint(QPointF p) {
    return {std::round(p.x()), std::round(p.y())};
}

QPointF clampedPixel(QPointF p, QSize image) {
    return {std::clamp(std::round(p.x()), 0.0, double(image.width())),
            std::clamp(std::round(p.y()), 0.0, double(image.height()))};
}

} // namespace

std::vector<project::BoxRecord> translatedInside(std::vector<project::BoxRecord> boxes, QPointF delta,
                                                 QSize image) {
    for (const auto& box : boxes) {
        delta.setX(std::clamp(delta.x(), -box.x1, image.width() - box.x2));
        delta.setY(std::clamp(delta.y(), -box.y1, image.height() - box.y2));
    }
    for (auto& box : boxes) {
        box.x1 += delta.x();
        box.x2 += delta.x();
        box.y1 += delta.y();
        box.y2 += delta.y();
    }
    return boxes;
}

std::optional<project::BoxRecord> resizedByHandle(project::BoxRecord box, int handle, QPointF point) {
    if (handle == 0 || handle == 6 || handle == 7)
        box.x1 = point.x();
    if (handle == 2 || handle == 3 || handle == 4)
        box.x2 = point.x();
    if (handle == 0 || handle == 1 || handle == 2)
        box.y1 = point.y();
    if (handle == 4 || handle == 5 || handle == 6)
        box.y2 = point.y();
    if (box.x1 > box.x2)
        std::swap(box.x1, box.x2);
    if (box.y1 > box.y2)
        std::swap(box.y1, box.y2);
    if (box.x2 - box.x1 < 1 || box.y2 - box.y1 < 1)
        return std::nullopt;
    return box;
}

std::vector<std::int64_t> BoxDrag::boxesAt(QPointF widgetPoint) const {
    std::vector<std::pair<double, std::int64_t>> hits;
    if (m_canvas.m_boxesHidden)
        return {};
    for (const auto& box : m_canvas.m_session->boxes())
        if (m_canvas.boxWidgetRect(box).adjusted(-2, -2, 2, 2).contains(widgetPoint))
            hits.emplace_back((box.x2 - box.x1) * (box.y2 - box.y1), box.id);
    std::sort(hits.begin(), hits.end());
    std::vector<std::int64_t> ids;
    for (const auto& hit : hits)
        ids.push_back(hit.second);
    return ids;
}

std::pair<std::int64_t, int> BoxDrag::handleAt(QPointF widgetPoint) const {
    if (m_canvas.m_boxesHidden)
        return {0, -1};
    for (const std::int64_t id : m_canvas.m_selection) {
        const auto* box = m_canvas.m_session->findBox(id);
        if (!box)
            continue;
        const QRectF r = m_canvas.boxWidgetRect(*box);
        for (int handle = 0; handle < 8; ++handle) {
            const QPointF d = BoxPainter::handleCenter(r, handle) - widgetPoint;
            if (std::abs(d.x()) <= BoxPainter::kHandleGrab && std::abs(d.y()) <= BoxPainter::kHandleGrab)
                return {id, handle};
        }
    }
    return {0, -1};
}

void BoxDrag::cancel() {
    if (m_kind == Kind::Move || m_kind == Kind::Resize) {
        m_canvas.m_session->endPreview();
        m_start.clear();
        m_pending.clear();
    }
    if (m_kind != Kind::Pan)
        m_kind = Kind::None;
}

void BoxDrag::press(QPointF pos, Qt::MouseButton button, Qt::KeyboardModifiers modifiers) {
    BoxCanvas& c = m_canvas;
    m_pressWidget = pos;
    m_lastPanWidget = pos;
    m_pressImage = c.toImage(pos);
    m_moved = false;
    if (button == Qt::LeftButton && c.m_overlay && !c.m_drawArmed && !c.m_spaceHeld &&
        c.m_overlay->overlayClicked(m_pressImage))
        return;
    if (button == Qt::MiddleButton || (button == Qt::LeftButton && c.m_spaceHeld)) {
        m_kind = Kind::Pan;
        c.m_spacePanned = c.m_spaceHeld;
        c.setCursor(Qt::ClosedHandCursor);
        return;
    }
    if (button != Qt::LeftButton || c.imageSize().isEmpty() || c.m_session->imageId() == 0)
        return;
    if (!c.m_drawArmed) {
        if (const auto [boxId, handle] = handleAt(pos); handle >= 0 && !(modifiers & Qt::ControlModifier)) {
            m_kind = Kind::Resize;
            m_handle = handle;
            m_start = {*c.m_session->findBox(boxId)};
            m_serial = c.m_session->newDragSerial();
            return;
        }
        m_candidates = boxesAt(pos);
        if (!m_candidates.empty()) {
            pressOnBoxes(modifiers);
            return;
        }
        if (modifiers & Qt::ShiftModifier) {
            m_kind = Kind::RubberBand;
            m_rectImage = QRectF(m_pressImage, m_pressImage);
            return;
        }
    }
    m_kind = Kind::Draw;
    const QPointF start = roundPoint(m_pressImage);
    m_rectImage = QRectF(start, start);
    c.update();
}

void BoxDrag::pressOnBoxes(Qt::KeyboardModifiers modifiers) {
    BoxCanvas& c = m_canvas;
    const auto selected = std::find_if(m_candidates.begin(), m_candidates.end(),
                                       [&c](std::int64_t id) { return c.isSelected(id); });
    m_pressOnSelected = selected != m_candidates.end();
    if (modifiers & Qt::ControlModifier) {
        std::vector<std::int64_t> ids = c.m_selection;
        const std::int64_t target = m_pressOnSelected ? *selected : m_candidates.front();
        if (c.isSelected(target))
            std::erase(ids, target);
        else
            ids.push_back(target);
        c.setSelection(ids);
        return;
    }
    if (!m_pressOnSelected)
        c.setSelection({m_candidates.front()});
    m_kind = Kind::Move;
    m_start.clear();
    for (const std::int64_t id : c.m_selection)
        if (const auto* box = c.m_session->findBox(id))
            m_start.push_back(*box);
    m_serial = c.m_session->newDragSerial();
}

void BoxDrag::moveTo(QPointF pos) {
    BoxCanvas& c = m_canvas;
    if ((pos - m_pressWidget).manhattanLength() >= 3)
        m_moved = true;
    const QSize size = c.imageSize();
    const QPointF image = c.toImage(pos);
    switch (m_kind) {
    case Kind::Pan:
        c.m_view.pan(pos - m_lastPanWidget);
        m_lastPanWidget = pos;
        break;
    case Kind::Draw:
    case Kind::RubberBand:
        m_rectImage.setBottomRight(clampedPixel(image, size));
        break;
    case Kind::Move: {
        if (!m_moved || m_start.empty())
            return;
        const auto after = translatedInside(m_start, roundPoint(image - m_pressImage), size);
        const auto* now = c.m_session->findBox(after.front().id);
        if (now && now->x1 == after.front().x1 && now->y1 == after.front().y1)
            return;
        m_pending = after;
        c.m_session->previewBoxGeometry(after);
        break;
    }
    case Kind::Resize: {
        const auto box = resizedByHandle(m_start.front(), m_handle, clampedPixel(image, size));
        if (!box)
            return;
        const auto* now = c.m_session->findBox(box->id);
        if (now && now->x1 == box->x1 && now->y1 == box->y1 && now->x2 == box->x2 && now->y2 == box->y2)
            return;
        m_pending = {*box};
        c.m_session->previewBoxGeometry(m_pending);
        break;
    }
    case Kind::None:
        break;
    }
    c.update();
}

void BoxDrag::finish(QPointF pos, Qt::KeyboardModifiers modifiers) {
    BoxCanvas& c = m_canvas;
    const Kind kind = m_kind;
    m_kind = Kind::None;
    switch (kind) {
    case Kind::Draw: {
        const QRectF r = m_rectImage.normalized();
        const QRectF onScreen = c.m_view.toWidget(r);
        if (onScreen.width() >= kMinDrawWidgetPx && onScreen.height() >= kMinDrawWidgetPx && r.width() >= 1 &&
            r.height() >= 1) {
            if (const std::int64_t id = c.m_session->addBox(r))
                c.setSelection({id});
            c.m_drawArmed = false;
        } else if (!(modifiers & Qt::ControlModifier)) {
            c.setSelection({});
        }
        break;
    }
    case Kind::Move:
    case Kind::Resize:
        // The drag was shown from memory; its end state is stored now, as one edit.
        if (!m_pending.empty())
            c.m_session->setBoxGeometry(m_pending,
                                        kind == Kind::Move ? AnnotationSession::GeometryEdit::Move
                                                           : AnnotationSession::GeometryEdit::Resize,
                                        m_serial);
        if (kind == Kind::Move)
            finishMove();
        break;
    case Kind::RubberBand:
        finishBand(modifiers);
        break;
    case Kind::Pan:
    case Kind::None:
        break;
    }
    m_start.clear();
    m_pending.clear();
    updateCursor(pos);
    c.update();
}

void BoxDrag::finishMove() {
    BoxCanvas& c = m_canvas;
    if (m_moved || !m_pressOnSelected)
        return;
    // A click (no drag) on a stack of overlapping boxes that is already selected picks the next one.
    if (m_candidates.size() > 1) {
        auto it = std::find_if(m_candidates.begin(), m_candidates.end(),
                               [&c](std::int64_t id) { return c.isSelected(id); });
        const size_t index = static_cast<size_t>(it - m_candidates.begin());
        c.setSelection({m_candidates[(index + 1) % m_candidates.size()]});
    } else if (c.m_selection.size() > 1) {
        c.setSelection({m_candidates.front()});
    }
}

void BoxDrag::finishBand(Qt::KeyboardModifiers modifiers) {
    BoxCanvas& c = m_canvas;
    const QRectF band = m_rectImage.normalized();
    std::vector<std::int64_t> ids =
        (modifiers & Qt::ControlModifier) ? c.m_selection : std::vector<std::int64_t>{};
    // Duplicates are checked against the new selection: a plain band over boxes that are selected
    // already must select them again, not drop them.
    for (const auto& box : c.m_session->boxes())
        if (band.contains(QRectF(QPointF(box.x1, box.y1), QPointF(box.x2, box.y2))) &&
            std::find(ids.begin(), ids.end(), box.id) == ids.end())
            ids.push_back(box.id);
    c.setSelection(ids);
}

void BoxDrag::updateCursor(QPointF pos) {
    BoxCanvas& c = m_canvas;
    if (c.m_spaceHeld || m_kind == Kind::Pan) {
        c.setCursor(m_kind == Kind::Pan ? Qt::ClosedHandCursor : Qt::OpenHandCursor);
        return;
    }
    if (c.m_drawArmed) {
        c.setCursor(Qt::CrossCursor);
        return;
    }
    static const Qt::CursorShape kHandleCursors[8] = {
        Qt::SizeFDiagCursor, Qt::SizeVerCursor, Qt::SizeBDiagCursor, Qt::SizeHorCursor,
        Qt::SizeFDiagCursor, Qt::SizeVerCursor, Qt::SizeBDiagCursor, Qt::SizeHorCursor};
    if (const int handle = handleAt(pos).second; handle >= 0)
        c.setCursor(kHandleCursors[handle]);
    else if (!boxesAt(pos).empty())
        c.setCursor(Qt::SizeAllCursor);
    else
        c.setCursor(Qt::CrossCursor);
}

} // namespace osprey::ui
