#include "ui/annotate/annotation_session.h"

#include "ui/annotate/commands/add_box_command.h"
#include "ui/annotate/commands/change_box_class_command.h"
#include "ui/annotate/commands/delete_boxes_command.h"
#include "ui/annotate/commands/move_boxes_command.h"
#include "ui/annotate/commands/paste_boxes_command.h"
#include "ui/annotate/commands/resize_box_command.h"
#include "ui/annotate/commands/set_image_status_command.h"
#include "ui/project/project_document.h"

#include <algorithm>

namespace osprey::ui {

namespace {
// Pasting onto the image the boxes came from shifts them so the copy does not hide the original.
constexpr double kPasteOffsetPx = 12.0;
} // namespace

AnnotationSession::AnnotationSession(QObject* parent)
    : QObject(parent), m_edits(new EditQueue([this] { reload(); }, this)) {
    connect(m_edits, &EditQueue::message, this, &AnnotationSession::message);
    connect(m_edits, &EditQueue::unsavedChanged, this, &AnnotationSession::unsavedChanged);
    connect(m_edits, &EditQueue::historyChanged, this, &AnnotationSession::historyChanged);
}

AnnotationSession::~AnnotationSession() = default;

void AnnotationSession::setDocument(ProjectDocument* document) {
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_edits->setDocument(document);
    m_ids = {};
    m_document = document;
    m_image = {};
    m_boxes.clear();
    m_previewStored.clear();
    m_clipboard.clear();
    m_previousImageId = 0;
    m_classId = 0;
    if (document) {
        connect(document, &ProjectDocument::imageChanged, this, [this](qint64 id) {
            if (id == m_image.id)
                reload();
        });
        connect(document, &ProjectDocument::classesChanged, this, [this] {
            emit currentClassChanged(currentClassId());
            emit boxesChanged();
        });
    }
    emit imageChanged(0);
    emit currentClassChanged(currentClassId());
}

void AnnotationSession::setImage(std::int64_t imageId) {
    if (imageId == m_image.id)
        return;
    if (m_image.id != 0)
        m_previousImageId = m_image.id;
    m_image = {};
    m_boxes.clear();
    m_previewStored.clear();
    if (m_document && imageId != 0) {
        if (auto record = m_document->project().images().get(imageId))
            m_image = record.value();
        if (auto boxes = m_document->project().boxes().ofImage(imageId))
            m_boxes = std::move(boxes.value());
    }
    emit imageChanged(m_image.id);
}

void AnnotationSession::reload() {
    if (!m_document || m_image.id == 0)
        return;
    if (auto record = m_document->project().images().get(m_image.id))
        m_image = record.value();
    auto boxes = m_document->project().boxes().ofImage(m_image.id);
    m_boxes = boxes ? std::move(boxes.value()) : std::vector<project::BoxRecord>{};
    m_previewStored.clear();
    emit boxesChanged();
}

const project::BoxRecord* AnnotationSession::findBox(std::int64_t boxId) const {
    for (const auto& box : m_boxes)
        if (box.id == boxId)
            return &box;
    return nullptr;
}

std::int64_t AnnotationSession::currentClassId() const {
    if (!m_document || m_document->classes().empty())
        return 0;
    for (const auto& info : m_document->classes())
        if (info.id == m_classId)
            return m_classId;
    return m_document->classes().front().id;
}

void AnnotationSession::setCurrentClassId(std::int64_t classId) {
    if (classId == m_classId)
        return;
    m_classId = classId;
    emit currentClassChanged(currentClassId());
}

QRectF AnnotationSession::clampToImage(const QRectF& rectPx) const {
    QRectF r = rectPx.normalized();
    if (m_image.width > 0 && m_image.height > 0)
        r = r.intersected(QRectF(0, 0, m_image.width, m_image.height));
    return r;
}

std::int64_t AnnotationSession::addBox(const QRectF& rectPx) {
    if (!m_document || m_image.id == 0)
        return 0;
    const std::int64_t classId = currentClassId();
    if (classId == 0) {
        emit message(tr("Add a class first (Class ▸ Add Class…)"));
        return 0;
    }
    const QRectF r = clampToImage(rectPx);
    if (r.width() <= 0 || r.height() <= 0)
        return 0;
    project::BoxRecord box;
    box.imageId = m_image.id;
    box.classId = classId;
    box.x1 = r.left();
    box.y1 = r.top();
    box.x2 = r.right();
    box.y2 = r.bottom();
    auto* stored = pushEdit([this, box] { return new AddBoxCommand(m_document, &m_ids, box); });
    return stored ? static_cast<AddBoxCommand*>(stored)->boxId() : 0;
}

void AnnotationSession::deleteBoxes(const std::vector<std::int64_t>& boxIds) {
    std::vector<project::BoxRecord> doomed;
    for (const std::int64_t id : boxIds)
        if (const auto* box = findBox(id))
            doomed.push_back(*box);
    if (!doomed.empty())
        pushEdit([this, imageId = m_image.id, doomed] {
            return new DeleteBoxesCommand(m_document, &m_ids, imageId, doomed);
        });
}

std::optional<project::BoxRecord> AnnotationSession::clampedGeometry(const project::BoxRecord& stored,
                                                                     const project::BoxRecord& box) const {
    const QRectF r = clampToImage(QRectF(QPointF(box.x1, box.y1), QPointF(box.x2, box.y2)));
    if (r.width() <= 0 || r.height() <= 0)
        return std::nullopt;
    project::BoxRecord next = stored;
    next.x1 = r.left();
    next.y1 = r.top();
    next.x2 = r.right();
    next.y2 = r.bottom();
    return next;
}

void AnnotationSession::previewBoxGeometry(const std::vector<project::BoxRecord>& boxes) {
    for (const auto& box : boxes) {
        auto it = std::find_if(m_boxes.begin(), m_boxes.end(),
                               [&](const project::BoxRecord& b) { return b.id == box.id; });
        if (it == m_boxes.end())
            continue;
        const auto next = clampedGeometry(*it, box);
        if (!next)
            continue;
        if (std::none_of(m_previewStored.begin(), m_previewStored.end(),
                         [&](const project::BoxRecord& b) { return b.id == box.id; }))
            m_previewStored.push_back(*it);
        *it = *next;
    }
    emit boxesChanged();
}

void AnnotationSession::restorePreviewed() {
    for (const auto& stored : m_previewStored)
        for (auto& box : m_boxes)
            if (box.id == stored.id)
                box = stored;
    m_previewStored.clear();
}

void AnnotationSession::endPreview() {
    if (m_previewStored.empty())
        return;
    restorePreviewed();
    emit boxesChanged();
}

void AnnotationSession::setBoxGeometry(const std::vector<project::BoxRecord>& after, GeometryEdit kind,
                                       int dragSerial) {
    // A drag's preview ends here: the step goes from the stored geometry to `after`.
    const bool previewed = !m_previewStored.empty();
    restorePreviewed();
    std::vector<project::BoxRecord> before;
    std::vector<project::BoxRecord> clamped;
    for (const auto& box : after) {
        const auto* stored = findBox(box.id);
        const auto next = stored ? clampedGeometry(*stored, box) : std::nullopt;
        if (!next) {
            if (previewed)
                emit boxesChanged();
            return;
        }
        before.push_back(*stored);
        clamped.push_back(*next);
    }
    if (before.empty())
        return;
    pushEdit([this, imageId = m_image.id, before, clamped, kind, dragSerial]() -> QUndoCommand* {
        if (kind == GeometryEdit::Resize && before.size() == 1)
            return new ResizeBoxCommand(m_document, &m_ids, before.front(), clamped.front(), dragSerial);
        return new MoveBoxesCommand(m_document, &m_ids, imageId, before, clamped, dragSerial);
    });
}

void AnnotationSession::setBoxClass(const std::vector<std::int64_t>& boxIds, std::int64_t classId) {
    if (!m_document || classId == 0)
        return;
    setCurrentClassId(classId);
    std::vector<project::BoxRecord> changed;
    for (const std::int64_t id : boxIds)
        if (const auto* box = findBox(id); box && box->classId != classId)
            changed.push_back(*box);
    if (!changed.empty())
        pushEdit([this, imageId = m_image.id, changed, classId, name = m_document->className(classId)] {
            return new ChangeBoxClassCommand(m_document, &m_ids, imageId, changed, classId, name);
        });
}

void AnnotationSession::copyBoxes(const std::vector<std::int64_t>& boxIds) {
    m_clipboard.clear();
    for (const std::int64_t id : boxIds)
        if (const auto* box = findBox(id))
            m_clipboard.push_back(*box);
    m_clipboardImageId = m_image.id;
    m_pasteCount = 0;
    emit message(m_clipboard.size() == 1 ? tr("Copied 1 box")
                                         : tr("Copied %1 boxes").arg(m_clipboard.size()));
}

std::vector<std::int64_t> AnnotationSession::paste() {
    if (!m_document || m_image.id == 0 || m_clipboard.empty())
        return {};
    std::vector<project::BoxRecord> boxes = m_clipboard;
    const double offset = m_clipboardImageId == m_image.id ? kPasteOffsetPx * ++m_pasteCount : 0.0;
    for (auto& box : boxes) {
        box.x1 += offset;
        box.y1 += offset;
        box.x2 += offset;
        box.y2 += offset;
        const QRectF r = clampToImage(QRectF(QPointF(box.x1, box.y1), QPointF(box.x2, box.y2)));
        box.x1 = r.left();
        box.y1 = r.top();
        box.x2 = r.right();
        box.y2 = r.bottom();
    }
    std::erase_if(boxes, [](const auto& b) { return b.x2 <= b.x1 || b.y2 <= b.y1; });
    if (boxes.empty())
        return {};
    auto* stored = pushEdit([this, imageId = m_image.id, boxes] {
        return new PasteBoxesCommand(m_document, &m_ids, imageId, boxes,
                                     PasteBoxesCommand::Origin::Clipboard);
    });
    return stored ? static_cast<PasteBoxesCommand*>(stored)->boxIds() : std::vector<std::int64_t>{};
}

std::vector<std::int64_t> AnnotationSession::pasteFromImage(std::int64_t sourceImageId) {
    if (!m_document || m_image.id == 0 || sourceImageId == 0 || sourceImageId == m_image.id)
        return {};
    auto source = m_document->project().boxes().ofImage(sourceImageId);
    if (!source || source->empty()) {
        emit message(tr("The previous image has no boxes to paste"));
        return {};
    }
    std::vector<project::BoxRecord> boxes;
    for (const auto& box : *source) {
        const QRectF r = clampToImage(QRectF(QPointF(box.x1, box.y1), QPointF(box.x2, box.y2)));
        if (r.width() <= 0 || r.height() <= 0)
            continue;
        project::BoxRecord copy = box;
        copy.x1 = r.left();
        copy.y1 = r.top();
        copy.x2 = r.right();
        copy.y2 = r.bottom();
        boxes.push_back(copy);
    }
    auto* stored = pushEdit([this, imageId = m_image.id, boxes] {
        return new PasteBoxesCommand(m_document, &m_ids, imageId, boxes,
                                     PasteBoxesCommand::Origin::PreviousImage);
    });
    return stored ? static_cast<PasteBoxesCommand*>(stored)->boxIds() : std::vector<std::int64_t>{};
}

bool AnnotationSession::setStatus(project::ImageStatus status) {
    if (!m_document || m_image.id == 0 || m_image.status == status)
        return false;
    if (status == project::ImageStatus::VerifiedEmpty && !m_boxes.empty()) {
        emit message(tr("This image has boxes, so it is not empty. Delete its boxes first."));
        return false;
    }
    pushEdit([this, imageId = m_image.id, before = m_image.status, status] {
        return new SetImageStatusCommand(m_document, imageId, before, status);
    });
    return true;
}

} // namespace osprey::ui
