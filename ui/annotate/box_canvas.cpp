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
/// Arrow-key presses closer together than this merge into one undo step.
constexpr qint64 kNudgeMergeMs = 700;
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
        m_drag.reset();
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
    if (!sameSize || m_view.fitted())
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

QRectF BoxCanvas::boxWidgetRect(const project::BoxRecord& box) const {
    return m_view.toWidget(QRectF(QPointF(box.x1, box.y1), QPointF(box.x2, box.y2)));
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

// ---- view -----------------------------------------------------------------------------------------

void BoxCanvas::zoomToFit() {
    if (!m_view.fit(size(), imageSize()))
        return;
    emit zoomChanged(m_view.scale());
    update();
}

void BoxCanvas::zoomAround(QPointF widgetPoint, double newScale) {
    if (!m_view.zoomAround(widgetPoint, newScale, size(), imageSize()))
        return;
    emit zoomChanged(m_view.scale());
    update();
}

void BoxCanvas::zoomIn() {
    zoomAround(rect().center(), m_view.scale() * CanvasView::kZoomStep);
}

void BoxCanvas::zoomOut() {
    zoomAround(rect().center(), m_view.scale() / CanvasView::kZoomStep);
}

void BoxCanvas::zoomToActualSize() {
    zoomAround(m_cursor.x() >= 0 ? m_cursor : QPointF(rect().center()), 1.0);
}

void BoxCanvas::resizeEvent(QResizeEvent*) {
    if (m_view.fitted())
        zoomToFit();
}

void BoxCanvas::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0)
        zoomAround(event->position(), m_view.scale() * std::pow(CanvasView::kZoomStep, steps));
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
    if (m_selection.empty() || m_drag.kind() != BoxDrag::Kind::None)
        return;
    std::vector<project::BoxRecord> before;
    for (const std::int64_t id : m_selection)
        if (const auto* box = m_session->findBox(id))
            before.push_back(*box);
    if (before.empty())
        return;
    const auto after = translatedInside(before, {dx, dy}, imageSize());
    if (after.front().x1 == before.front().x1 && after.front().y1 == before.front().y1)
        return;
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

// ---- mouse (the gestures are BoxDrag's) -------------------------------------------------------------

void BoxCanvas::mousePressEvent(QMouseEvent* event) {
    setFocus(Qt::MouseFocusReason);
    m_drag.press(event->position(), event->button(), event->modifiers());
}

void BoxCanvas::mouseMoveEvent(QMouseEvent* event) {
    const QPointF pos = event->position();
    m_cursor = pos;
    if (m_drag.kind() != BoxDrag::Kind::None) {
        m_drag.moveTo(pos);
        return;
    }
    const std::vector<std::int64_t> under = m_drag.boxesAt(pos);
    const std::int64_t hovered = under.empty() ? 0 : under.front();
    if (hovered != m_hovered || m_drawArmed)
        update();
    m_hovered = hovered;
    m_drag.updateCursor(pos);
}

void BoxCanvas::mouseReleaseEvent(QMouseEvent* event) {
    if (m_drag.kind() != BoxDrag::Kind::None)
        m_drag.finish(event->position(), event->modifiers());
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
            (key->key() == Qt::Key_Escape && (m_drag.kind() != BoxDrag::Kind::None || m_drawArmed))) {
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
        if (m_drag.kind() != BoxDrag::Kind::None && m_drag.kind() != BoxDrag::Kind::Pan)
            m_drag.cancel();
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
        if (!m_spacePanned && m_drag.kind() != BoxDrag::Kind::Pan)
            emit spaceTapped();
        m_drag.updateCursor(m_cursor);
        return;
    }
    QWidget::keyReleaseEvent(event);
}

// ---- painting -------------------------------------------------------------------------------------

QString BoxCanvas::captionText() const {
    if (!m_pyramid)
        return {};
    const auto& image = m_session->image();
    QString name = QFileInfo(QString::fromStdString(image.path)).fileName();
    if (image.frame)
        name = tr("%1 · frame %2 · %3")
                   .arg(QFileInfo(QString::fromStdString(image.frame->video)).fileName())
                   .arg(image.frame->frame)
                   .arg(QString::fromStdString(project::videoTimeText(image.frame->timeSeconds)));
    const int boxes = static_cast<int>(m_session->boxes().size());
    QString caption = tr("%1   %2 × %3   %4   %5   %6%")
                          .arg(name)
                          .arg(m_pyramid->size().width())
                          .arg(m_pyramid->size().height())
                          .arg(ImageListModel::statusText(image.status))
                          .arg(boxes == 1 ? tr("1 box") : tr("%1 boxes").arg(boxes))
                          .arg(qRound(m_view.scale() * 100));
    if (const std::int64_t classId = m_session->currentClassId())
        caption += tr("   next box: %1").arg(m_session->document()->className(classId));
    if (m_boxesHidden)
        caption += tr("   boxes hidden (H)");
    return caption;
}

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
    m_pyramid->draw(painter, m_view.origin(), m_view.scale(), rect());
    const QRectF imageWidget(m_view.origin(), QSizeF(m_pyramid->size()) * m_view.scale());

    const QString caption = captionText();
    const QPointF captionTopLeft(8, 8);
    // Labels stay clear of the caption, which is drawn last.
    const QRectF captionArea = BoxPainter::captionRect(painter.fontMetrics(), captionTopLeft, caption);

    if (!m_boxesHidden)
        paintBoxes(painter, captionArea);
    if (m_overlay && !m_boxesHidden)
        m_overlay->paintOverlay(painter, captionArea);
    const BoxDrag::Kind drag = m_drag.kind();
    if (drag == BoxDrag::Kind::Draw || drag == BoxDrag::Kind::RubberBand) {
        const QColor color = drag == BoxDrag::Kind::Draw ? document->classColor(m_session->currentClassId())
                                                         : QColor(0x3d, 0x8b, 0xfd);
        BoxPainter::paintDashedRect(painter, m_view.toWidget(m_drag.rectImage()).normalized(), color);
    }
    if ((m_drawArmed || drag == BoxDrag::Kind::Draw) && imageWidget.contains(m_cursor))
        BoxPainter::paintCrosshair(painter, m_cursor, imageWidget.intersected(rect()));

    BoxPainter::paintCaption(painter, captionTopLeft, caption);
    emit framePainted(m_session->imageId());
}

void BoxCanvas::paintBoxes(QPainter& painter, const QRectF& captionArea) {
    ProjectDocument* document = m_session->document();
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

} // namespace osprey::ui
