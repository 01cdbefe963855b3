#include "ui/annotate/annotation_session.h"

#include "ui/annotate/commands/add_box_command.h"
#include "ui/annotate/commands/change_box_class_command.h"
#include "ui/annotate/commands/delete_boxes_command.h"
#include "ui/annotate/commands/move_boxes_command.h"
#include "ui/annotate/commands/paste_boxes_command.h"
#include "ui/annotate/commands/resize_box_command.h"
#include "ui/annotate/commands/set_image_status_command.h"
#include "ui/project/project_document.h"

#include <QTimer>
#include <QUndoStack>
#include <algorithm>

namespace osprey::ui {

namespace {
// Pasting onto the image the boxes came from shifts them so the copy does not hide the original.
constexpr double kPasteOffsetPx = 12.0;
// An edit waits this long for another program's write, then is kept and retried (the window stays live).
constexpr std::chrono::milliseconds kEditBusyWait{500};
// A retry barely waits: the other writer may still hold the project.
constexpr std::chrono::milliseconds kRetryBusyWait{20};
} // namespace

AnnotationSession::AnnotationSession(QObject* parent)
    : QObject(parent), m_undoStack(new QUndoStack(this)), m_retryTimer(new QTimer(this)) {
    m_undoStack->setUndoLimit(0); // unlimited
    m_retryTimer->setSingleShot(true);
    connect(m_retryTimer, &QTimer::timeout, this, &AnnotationSession::retryUnsaved);
    for (auto signal : {&QUndoStack::canUndoChanged, &QUndoStack::canRedoChanged})
        connect(m_undoStack, signal, this, &AnnotationSession::historyChanged);
    for (auto signal : {&QUndoStack::undoTextChanged, &QUndoStack::redoTextChanged})
        connect(m_undoStack, signal, this, &AnnotationSession::historyChanged);
    connect(m_undoStack, &QUndoStack::indexChanged, this, &AnnotationSession::historyChanged);
}

AnnotationSession::~AnnotationSession() = default;

void AnnotationSession::setDocument(ProjectDocument* document) {
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_undoStack->clear();
    clearUnsaved();
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
        if (auto record = m_document->project().image(imageId))
            m_image = record.value();
        if (auto boxes = m_document->project().boxes(imageId))
            m_boxes = std::move(boxes.value());
    }
    emit imageChanged(m_image.id);
}

void AnnotationSession::reload() {
    if (!m_document || m_image.id == 0)
        return;
    if (auto record = m_document->project().image(m_image.id))
        m_image = record.value();
    auto boxes = m_document->project().boxes(m_image.id);
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
    auto source = m_document->project().boxes(sourceImageId);
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

QUndoCommand* AnnotationSession::pushEdit(const MakeCommand& make, Waiting waiting) {
    if (!m_document)
        return nullptr;
    if (m_document->readOnly()) {
        emit message(tr("This project is read-only: the edit was not stored"));
        return nullptr;
    }
    // A new edit ends what Redo could bring back.
    m_takenBack.clear();
    Pending pending{Pending::Kind::Edit, make, std::move(waiting), nullptr};
    // Edits stay in order: behind a kept one, a new edit waits its turn.
    if (!m_unsaved.empty()) {
        tell(pending, true);
        m_unsaved.push_back(std::move(pending));
        emit unsavedChanged(unsavedCount());
        emit historyChanged();
        return nullptr;
    }
    QUndoCommand* stored = nullptr;
    if (tryPush(make, &stored, kEditBusyWait))
        return stored;
    if (!refusalIsTemporary()) {
        tell(pending, false);
        emit message(tr("The edit was not stored: %1")
                         .arg(QString::fromStdString(m_document->lastWriteError().message)));
        return nullptr;
    }
    tell(pending, true);
    m_unsaved.push_back(std::move(pending));
    keepUnsaved();
    return nullptr;
}

bool AnnotationSession::tryPush(const MakeCommand& make, QUndoCommand** stored,
                                std::chrono::milliseconds busyWait) {
    *stored = nullptr;
    const int failures = m_document->writeFailures();
    QUndoCommand* command = make();
    if (!command) // the edit no longer applies (e.g. the class name is taken by now)
        return true;
    const auto wait = m_document->project().busyWait();
    m_document->project().setBusyWait(busyWait);
    m_undoStack->push(command);
    m_document->project().setBusyWait(wait);
    const int top = m_undoStack->index() - 1;
    const bool onTop = top >= 0 && m_undoStack->command(top) == command;
    if (m_document->writeFailures() == failures) {
        *stored = onTop ? command : nullptr;
        return true;
    }
    // Nothing of the refused edit was written: it leaves the undo stack (an obsolete command is dropped
    // by undo() without running its undo), and the caller keeps what makes it again.
    if (onTop) {
        command->setObsolete(true);
        m_undoStack->undo();
    }
    return false;
}

bool AnnotationSession::onStack(const QUndoCommand* command) const {
    for (int i = 0; i < m_undoStack->count(); ++i)
        if (m_undoStack->command(i) == command)
            return true;
    return false;
}

void AnnotationSession::clearHistory() {
    m_undoStack->clear();
    m_takenBack.clear();
    // A kept undo/redo of a step goes with the history; kept new edits stay.
    const auto before = m_unsaved.size();
    std::erase_if(m_unsaved, [](const Pending& pending) { return pending.kind != Pending::Kind::Edit; });
    if (m_unsaved.size() != before) {
        stopWaitingIfNothingKept();
        emit unsavedChanged(unsavedCount());
    }
    emit historyChanged();
}

bool AnnotationSession::tryStep(const Pending& pending, std::chrono::milliseconds busyWait) {
    if (!onStack(pending.step)) // the history was cleared meanwhile: nothing left to undo or redo
        return true;
    const int failures = m_document->writeFailures();
    const auto wait = m_document->project().busyWait();
    m_document->project().setBusyWait(busyWait);
    if (pending.kind == Pending::Kind::Undo)
        pending.step->undo();
    else
        pending.step->redo();
    m_document->project().setBusyWait(wait);
    return m_document->writeFailures() == failures;
}

bool AnnotationSession::refusalIsTemporary() const {
    const std::string& code = m_document->lastWriteError().code;
    return code == "busy" || code == "full" || code == "io";
}

void AnnotationSession::runStackStep(Pending::Kind kind) {
    m_takenBack.clear();
    const int failures = m_document->writeFailures();
    const auto wait = m_document->project().busyWait();
    m_document->project().setBusyWait(kEditBusyWait);
    if (kind == Pending::Kind::Undo)
        m_undoStack->undo();
    else
        m_undoStack->redo();
    m_document->project().setBusyWait(wait);
    if (m_document->writeFailures() == failures)
        return;
    // The stack has moved, the database not: the step's undo (redo) is kept and runs again in its turn.
    // A failed write changed nothing, and running it again rebinds what the failed attempt bound.
    const int index = m_undoStack->index();
    // The stack owns the command and hands it out const; the retry runs its undo()/redo() as the stack
    // would have (it stays on the stack: new edits queue behind it, so nothing clears it meanwhile).
    auto* step =
        const_cast<QUndoCommand*>(m_undoStack->command(kind == Pending::Kind::Undo ? index : index - 1));
    if (!step || !refusalIsTemporary()) {
        forgetHistory();
        return;
    }
    m_unsaved.push_back({kind, {}, {}, step});
    keepUnsaved();
}

void AnnotationSession::forgetHistory() {
    emit message(tr("The step could not be undone or redone: %1. The undo history no longer fits the "
                    "project and was cleared.")
                     .arg(QString::fromStdString(m_document->lastWriteError().message)));
    m_undoStack->clear();
    reload();
}

void AnnotationSession::keepUnsaved() {
    const Error& error = m_document->lastWriteError();
    m_unsavedReason = QString::fromStdString(error.message);
    m_unsavedCode = QString::fromStdString(error.code);
    // The canvas may still show a drag that was not stored: redraw what the database holds.
    reload();
    // Another writer usually finishes soon; a full disk needs the user, but is checked again now and then.
    m_retryTimer->start(m_unsavedCode == QLatin1String("busy") ? 1000 : 5000);
    emit unsavedChanged(unsavedCount());
    emit historyChanged();
}

void AnnotationSession::tell(const Pending& pending, bool waiting) {
    if (pending.waiting)
        pending.waiting(waiting);
}

void AnnotationSession::stopWaitingIfNothingKept() {
    if (!m_unsaved.empty())
        return;
    m_retryTimer->stop();
    m_unsavedReason.clear();
    m_unsavedCode.clear();
}

void AnnotationSession::clearUnsaved() {
    m_retryTimer->stop();
    const bool hadUnsaved = !m_unsaved.empty();
    for (auto& pending : m_unsaved)
        tell(pending, false);
    m_unsaved.clear();
    m_takenBack.clear();
    m_unsavedReason.clear();
    m_unsavedCode.clear();
    if (hadUnsaved)
        emit unsavedChanged(0);
    emit historyChanged();
}

void AnnotationSession::retryUnsaved() {
    m_retryTimer->stop();
    if (!m_document || m_unsaved.empty())
        return;
    bool refused = false;
    while (!m_unsaved.empty()) {
        Pending& front = m_unsaved.front();
        QUndoCommand* stored = nullptr;
        const bool ok = front.kind == Pending::Kind::Edit ? tryPush(front.make, &stored, kRetryBusyWait)
                                                          : tryStep(front, kRetryBusyWait);
        if (!ok && !refusalIsTemporary()) {
            // It can never be stored (the image was deleted meanwhile, ...): said, and the rest goes on.
            if (front.kind == Pending::Kind::Edit) {
                emit message(tr("A kept edit was dropped: %1")
                                 .arg(QString::fromStdString(m_document->lastWriteError().message)));
                tell(front, false);
            } else {
                forgetHistory();
            }
        } else if (!ok) {
            refused = true;
            break;
        }
        m_unsaved.pop_front();
    }
    if (refused) {
        keepUnsaved();
        return;
    }
    m_unsavedReason.clear();
    m_unsavedCode.clear();
    reload();
    emit unsavedChanged(0);
    emit historyChanged();
    emit message(tr("The kept edits are saved now"));
}

// ---- undo and redo -------------------------------------------------------------------------------

bool AnnotationSession::canUndo() const {
    if (!m_unsaved.empty())
        return true; // takes back a waiting edit, or says why it waits
    return m_undoStack->canUndo();
}

bool AnnotationSession::canRedo() const {
    if (!m_takenBack.empty())
        return true;
    return m_unsaved.empty() && m_undoStack->canRedo();
}

QString AnnotationSession::undoText() const {
    if (!m_unsaved.empty())
        return m_unsaved.back().kind == Pending::Kind::Edit ? tr("&Undo Unsaved Edit")
                                                            : tr("&Undo (waits for the kept edits)");
    return m_undoStack->canUndo() ? tr("&Undo %1").arg(m_undoStack->undoText()) : tr("&Undo");
}

QString AnnotationSession::redoText() const {
    if (!m_takenBack.empty())
        return tr("&Redo Unsaved Edit");
    return m_unsaved.empty() && m_undoStack->canRedo() ? tr("&Redo %1").arg(m_undoStack->redoText())
                                                       : tr("&Redo");
}

void AnnotationSession::undo() {
    if (!m_document)
        return;
    if (!m_unsaved.empty()) {
        if (m_unsaved.back().kind != Pending::Kind::Edit) {
            emit message(tr("Undo waits until the kept edits are saved: the database does not hold them "
                            "yet"));
            return;
        }
        // Never written, so nothing to undo in the database: the edit is only forgotten, and Redo can
        // queue it again.
        tell(m_unsaved.back(), false);
        m_takenBack.push_back(std::move(m_unsaved.back()));
        m_unsaved.pop_back();
        stopWaitingIfNothingKept();
        emit unsavedChanged(unsavedCount());
        emit historyChanged();
        emit message(tr("Took back an edit that was not saved yet"));
        return;
    }
    if (m_undoStack->canUndo())
        runStackStep(Pending::Kind::Undo);
}

void AnnotationSession::redo() {
    if (!m_document)
        return;
    if (!m_takenBack.empty()) {
        Pending pending = std::move(m_takenBack.back());
        m_takenBack.pop_back();
        auto rest = std::move(m_takenBack); // pushEdit() ends the redo list; this is a redo
        pushEdit(pending.make, std::move(pending.waiting));
        m_takenBack = std::move(rest);
        emit historyChanged();
        return;
    }
    if (!m_unsaved.empty()) {
        emit message(tr("Redo waits until the kept edits are saved: the database does not hold them yet"));
        return;
    }
    if (m_undoStack->canRedo())
        runStackStep(Pending::Kind::Redo);
}

} // namespace osprey::ui
