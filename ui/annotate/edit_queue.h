#pragma once
// EditQueue: the annotation session's undo stack (unlimited) and its keep-and-retry queue. Every edit is a
// QUndoCommand pushed here, which writes one transaction. An edit the database refuses for now (another
// program writing for longer than the editor waits, a full disk, a write error) is kept in order, nothing
// of it written, and so is a stored step whose undo or redo the database refused; new edits queue behind
// them. Kept edits are retried every second while another program holds the project (every 5 s
// otherwise) and on retry(). The session (AnnotationSession) owns one and forwards its API to it.
// GUI thread only.

#include <QObject>
#include <QString>
#include <chrono>
#include <deque>
#include <functional>
#include <vector>

class QTimer;
class QUndoCommand;
class QUndoStack;

namespace osprey::ui {

class ProjectDocument;

class EditQueue : public QObject {
    Q_OBJECT
public:
    /// Builds an edit's command when its turn comes; may return null when the edit no longer applies.
    using MakeCommand = std::function<QUndoCommand*()>;
    /// Told true when an edit starts waiting (kept, or queued again by Redo) and false when it stops
    /// waiting without being stored (taken back by Undo, discarded, dropped).
    using Waiting = std::function<void(bool waiting)>;

    /// `reload` makes the session show what the database holds (after a refusal, or when the history no
    /// longer fits the project).
    explicit EditQueue(std::function<void()> reload, QObject* parent = nullptr);
    ~EditQueue() override;

    /// Switches to another project (or none): clears the undo stack and drops the kept edits.
    void setDocument(ProjectDocument* document);
    QUndoStack* undoStack() const { return m_undoStack; }

    /// Pushes the command `make` builds (built when its turn comes: behind waiting edits, that is later).
    /// Returns the command when it was stored and stays on the stack (null when merged into the previous
    /// step, kept for a retry, or refused). A refused edit leaves the stack and is kept for a retry when
    /// the database could not take it for now; for any other refusal it is dropped with a message. A
    /// read-only project stores nothing: the edit is refused with a message. Once stored, the command
    /// speaks; `waiting` is told only while it is not stored.
    QUndoCommand* push(const MakeCommand& make, Waiting waiting = {});

    // ---- edits the database refused ------------------------------------------------------------
    int unsavedCount() const { return static_cast<int>(m_unsaved.size()); }
    /// Why the first unsaved edit was refused (the database's message).
    const QString& unsavedReason() const { return m_unsavedReason; }
    /// The refusal's code: "busy", "full", "io", ...
    const QString& unsavedCode() const { return m_unsavedCode; }
    /// Tries the unsaved edits again, in order, until one is refused again.
    void retry();

    // ---- undo and redo -------------------------------------------------------------------------
    // A step whose undo or redo the database refuses is kept in the same queue as the refused edits (the
    // stack shows where the history is, the canvas what is stored) and retried in order. While edits
    // wait, Undo takes back the newest waiting edit (it was never written) and Redo puts it back in the
    // queue; stored steps wait until the queue is empty, since they would run against a database that
    // does not hold the waiting edits yet (a message says so).
    void undo();
    void redo();
    bool canUndo() const;
    bool canRedo() const;
    /// Clears the undo history with a kept undo/redo of one of its steps; kept new edits stay.
    void clearHistory();
    /// The Undo/Redo menu texts ("&Undo Add Box", "&Undo Unsaved Edit", ...).
    QString undoText() const;
    QString redoText() const;

signals:
    /// A short message for the status bar.
    void message(const QString& text);
    /// The unsaved edits changed (count 0: all are stored now).
    void unsavedChanged(int count);
    /// canUndo/canRedo or their texts may have changed.
    void historyChanged();

private:
    /// A write the database refused, kept in order: a new edit (`make`), or the undo/redo of a step that
    /// is on the stack already (`step`; the stack's index has moved, the database not yet).
    struct Pending {
        enum class Kind { Edit, Undo, Redo };
        Kind kind = Kind::Edit;
        MakeCommand make;
        Waiting waiting;
        QUndoCommand* step = nullptr;
    };
    /// One attempt, waiting up to `busyWait` for another writer: push, and take the command off the stack
    /// again when its write failed.
    bool tryPush(const MakeCommand& make, QUndoCommand** stored, std::chrono::milliseconds busyWait);
    bool onStack(const QUndoCommand* command) const;
    /// One attempt at a kept undo/redo: runs the step's undo() or redo() directly.
    bool tryStep(const Pending& pending, std::chrono::milliseconds busyWait);
    /// Runs the stack's undo or redo; a refused one is kept.
    void runStackStep(Pending::Kind kind);
    /// True when the last refusal is worth keeping (another writer, a full disk, a write error).
    bool refusalIsTemporary() const;
    void keepUnsaved();
    /// Tells a kept edit's `waiting` (see push).
    static void tell(const Pending& pending, bool waiting);
    /// A stored step could not be undone or redone for good: the history no longer fits the database.
    void forgetHistory();
    void clearUnsaved();
    /// With no kept edit left: no retries, no reason to show.
    void stopWaitingIfNothingKept();

    std::function<void()> m_reload;
    ProjectDocument* m_document = nullptr;
    QUndoStack* m_undoStack;
    std::deque<Pending> m_unsaved;
    /// Waiting edits taken back by Undo, newest last; Redo queues them again.
    std::vector<Pending> m_takenBack;
    QString m_unsavedReason, m_unsavedCode;
    QTimer* m_retryTimer;
};

} // namespace osprey::ui
