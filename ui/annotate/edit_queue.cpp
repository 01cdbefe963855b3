#include "ui/annotate/edit_queue.h"

#include "ui/project/project_document.h"

#include <QTimer>
#include <QUndoStack>

namespace osprey::ui {

namespace {
// An edit waits this long for another program's write, then is kept and retried (the window stays live).
constexpr std::chrono::milliseconds kEditBusyWait{500};
// A retry barely waits: the other writer may still hold the project.
constexpr std::chrono::milliseconds kRetryBusyWait{20};
} // namespace

EditQueue::EditQueue(std::function<void()> reload, QObject* parent)
    : QObject(parent), m_reload(std::move(reload)), m_undoStack(new QUndoStack(this)),
      m_retryTimer(new QTimer(this)) {
    m_undoStack->setUndoLimit(0); // unlimited
    m_retryTimer->setSingleShot(true);
    connect(m_retryTimer, &QTimer::timeout, this, &EditQueue::retry);
    for (auto signal : {&QUndoStack::canUndoChanged, &QUndoStack::canRedoChanged})
        connect(m_undoStack, signal, this, &EditQueue::historyChanged);
    for (auto signal : {&QUndoStack::undoTextChanged, &QUndoStack::redoTextChanged})
        connect(m_undoStack, signal, this, &EditQueue::historyChanged);
    connect(m_undoStack, &QUndoStack::indexChanged, this, &EditQueue::historyChanged);
}

EditQueue::~EditQueue() = default;

void EditQueue::setDocument(ProjectDocument* document) {
    m_undoStack->clear();
    clearUnsaved();
    m_document = document;
}

QUndoCommand* EditQueue::push(const MakeCommand& make, Waiting waiting) {
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

bool EditQueue::tryPush(const MakeCommand& make, QUndoCommand** stored, std::chrono::milliseconds busyWait) {
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

bool EditQueue::onStack(const QUndoCommand* command) const {
    for (int i = 0; i < m_undoStack->count(); ++i)
        if (m_undoStack->command(i) == command)
            return true;
    return false;
}

void EditQueue::clearHistory() {
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

bool EditQueue::tryStep(const Pending& pending, std::chrono::milliseconds busyWait) {
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

bool EditQueue::refusalIsTemporary() const {
    const std::string& code = m_document->lastWriteError().code;
    return code == "busy" || code == "full" || code == "io";
}

void EditQueue::runStackStep(Pending::Kind kind) {
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

void EditQueue::forgetHistory() {
    emit message(tr("The step could not be undone or redone: %1. The undo history no longer fits the "
                    "project and was cleared.")
                     .arg(QString::fromStdString(m_document->lastWriteError().message)));
    m_undoStack->clear();
    m_reload();
}

void EditQueue::keepUnsaved() {
    const Error& error = m_document->lastWriteError();
    m_unsavedReason = QString::fromStdString(error.message);
    m_unsavedCode = QString::fromStdString(error.code);
    // The canvas may still show a drag that was not stored: redraw what the database holds.
    m_reload();
    // Another writer usually finishes soon; a full disk needs the user, but is checked again now and then.
    m_retryTimer->start(m_unsavedCode == QLatin1String("busy") ? 1000 : 5000);
    emit unsavedChanged(unsavedCount());
    emit historyChanged();
}

void EditQueue::tell(const Pending& pending, bool waiting) {
    if (pending.waiting)
        pending.waiting(waiting);
}

void EditQueue::stopWaitingIfNothingKept() {
    if (!m_unsaved.empty())
        return;
    m_retryTimer->stop();
    m_unsavedReason.clear();
    m_unsavedCode.clear();
}

void EditQueue::clearUnsaved() {
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

void EditQueue::retry() {
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
    m_reload();
    emit unsavedChanged(0);
    emit historyChanged();
    emit message(tr("The kept edits are saved now"));
}

// ---- undo and redo -------------------------------------------------------------------------------

bool EditQueue::canUndo() const {
    if (!m_unsaved.empty())
        return true; // takes back a waiting edit, or says why it waits
    return m_undoStack->canUndo();
}

bool EditQueue::canRedo() const {
    if (!m_takenBack.empty())
        return true;
    return m_unsaved.empty() && m_undoStack->canRedo();
}

QString EditQueue::undoText() const {
    if (!m_unsaved.empty())
        return m_unsaved.back().kind == Pending::Kind::Edit ? tr("&Undo Unsaved Edit")
                                                            : tr("&Undo (waits for the kept edits)");
    return m_undoStack->canUndo() ? tr("&Undo %1").arg(m_undoStack->undoText()) : tr("&Undo");
}

QString EditQueue::redoText() const {
    if (!m_takenBack.empty())
        return tr("&Redo Unsaved Edit");
    return m_unsaved.empty() && m_undoStack->canRedo() ? tr("&Redo %1").arg(m_undoStack->redoText())
                                                       : tr("&Redo");
}

void EditQueue::undo() {
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

void EditQueue::redo() {
    if (!m_document)
        return;
    if (!m_takenBack.empty()) {
        Pending pending = std::move(m_takenBack.back());
        m_takenBack.pop_back();
        auto rest = std::move(m_takenBack); // push() ends the redo list; this is a redo
        push(pending.make, std::move(pending.waiting));
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
