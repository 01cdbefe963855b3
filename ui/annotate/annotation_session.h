#pragma once
// AnnotationSession: the editing state of one open project. It owns the undo stack (unlimited, it lives
// as long as the project is open and survives image switches), the id maps of the commands, the current
// image and its boxes, the default class for the next box and the box clipboard. Every edit goes through
// a QUndoCommand pushed here; views listen to boxesChanged / imageChanged. GUI thread only.

#include "project/types.h"
#include "ui/annotate/id_map.h"

#include <QObject>
#include <QRectF>
#include <chrono>
#include <deque>
#include <functional>
#include <optional>
#include <vector>

class QTimer;
class QUndoCommand;
class QUndoStack;

namespace osprey::ui {

class ProjectDocument;

class AnnotationSession : public QObject {
    Q_OBJECT
public:
    enum class GeometryEdit { Move, Resize };

    explicit AnnotationSession(QObject* parent = nullptr);
    ~AnnotationSession() override;

    /// Switches to another project (or none); clears the undo stack.
    void setDocument(ProjectDocument* document);
    ProjectDocument* document() const { return m_document; }
    QUndoStack* undoStack() const { return m_undoStack; }
    EditIds* ids() { return &m_ids; }

    // ---- current image -------------------------------------------------------------------------
    /// Loads an image's record and boxes (0 clears). Emits imageChanged.
    void setImage(std::int64_t imageId);
    std::int64_t imageId() const { return m_image.id; }
    const project::ImageRecord& image() const { return m_image; }
    const std::vector<project::BoxRecord>& boxes() const { return m_boxes; }
    const project::BoxRecord* findBox(std::int64_t boxId) const;
    /// The image shown before this one in the session (0 when none).
    std::int64_t previousImageId() const { return m_previousImageId; }

    // ---- class for new boxes -------------------------------------------------------------------
    /// The class the next drawn box gets: the last class used, else the first class.
    std::int64_t currentClassId() const;
    void setCurrentClassId(std::int64_t classId);

    // ---- edits (each pushes one undo command) --------------------------------------------------
    /// Adds a box of the current class; returns its id, or 0 when nothing was added.
    std::int64_t addBox(const QRectF& rectPx);
    void deleteBoxes(const std::vector<std::int64_t>& boxIds);
    /// Writes new coordinates for boxes of the current image. Calls with the same `dragSerial` merge.
    void setBoxGeometry(const std::vector<project::BoxRecord>& after, GeometryEdit kind, int dragSerial);
    /// Sets the class of boxes (and makes it the default for the next box).
    void setBoxClass(const std::vector<std::int64_t>& boxIds, std::int64_t classId);
    /// Copies boxes of the current image to the session clipboard.
    void copyBoxes(const std::vector<std::int64_t>& boxIds);
    bool hasClipboard() const { return !m_clipboard.empty(); }
    /// Pastes the clipboard onto the current image; returns the new box ids.
    std::vector<std::int64_t> paste();
    /// Copies every box of `sourceImageId` onto the current image; returns the new box ids.
    std::vector<std::int64_t> pasteFromImage(std::int64_t sourceImageId);
    /// Sets the current image's status. Refuses verified-empty while boxes exist (returns false).
    bool setStatus(project::ImageStatus status);
    /// A fresh serial for one drag (see setBoxGeometry).
    int newDragSerial() { return ++m_dragSerial; }
    /// A mouse drag in progress: `boxes` (clamped to the image) stand in for their stored geometry in
    /// boxes() until the release, which stores the end state with one setBoxGeometry (one edit, one
    /// write), or endPreview(), which puts the stored geometry back. Nothing is written; emits boxesChanged.
    void previewBoxGeometry(const std::vector<project::BoxRecord>& boxes);
    void endPreview();
    bool previewing() const { return !m_previewStored.empty(); }

    // ---- edits the database refused ------------------------------------------------------------
    /// Edits not stored yet, kept in order: the database refused them (disk full, another program writing
    /// for longer than the editor waits) and nothing of them was written. New edits queue behind them.
    /// While another program holds the project, they are retried every second; otherwise retryUnsaved().
    int unsavedCount() const { return static_cast<int>(m_unsaved.size()); }
    /// Why the first unsaved edit was refused (the database's message).
    const QString& unsavedReason() const { return m_unsavedReason; }
    /// The refusal's code: "busy", "full", "io", ...
    const QString& unsavedCode() const { return m_unsavedCode; }
    /// Tries the unsaved edits again, in order, until one is refused again.
    void retryUnsaved();

    // ---- undo and redo -------------------------------------------------------------------------
    // A step whose undo or redo the database refuses is kept in the same queue as the refused edits (the
    // stack shows where the history is, the canvas what is stored) and retried in order. While edits
    // wait, Undo takes back the newest waiting edit (it was never written) and Redo puts it back in the
    // queue; stored steps wait until the queue is empty, since they would run against a database that
    // does not hold the waiting edits yet (the status bar says so).
    void undo();
    void redo();
    bool canUndo() const;
    bool canRedo() const;
    /// Clears the undo history (e.g. after auto-label's Replace deleted boxes it refers to), with a kept
    /// undo/redo of one of its steps; kept new edits stay. Use this, not undoStack()->clear().
    void clearHistory();
    /// The Undo/Redo menu texts ("&Undo Add Box", "&Undo Unsaved Edit", ...).
    QString undoText() const;
    QString redoText() const;

    using MakeCommand = std::function<QUndoCommand*()>;
    /// Pushes the command `make` builds (built when its turn comes: behind waiting edits, that is later;
    /// it may return null when the edit no longer applies). Returns the command when it was stored and
    /// stays on the stack (null when merged into the previous step, kept for a retry, or refused). A
    /// refused edit leaves the stack and is kept for a retry when the database could not take it for
    /// now (another writer, a full disk, a write error); for any other refusal it is dropped with a
    /// message. A read-only project stores nothing: the edit is refused with a message. `waiting` is told
    /// when the edit starts waiting (true: kept, or queued again by Redo) and when it stops waiting without
    /// being stored (false: taken back by Undo, discarded, dropped); once stored, the command speaks.
    using Waiting = std::function<void(bool waiting)>;
    QUndoCommand* pushEdit(const MakeCommand& make, Waiting waiting = {});

signals:
    void imageChanged(qint64 imageId);
    /// The boxes or the record of the current image changed (after an edit, undo or redo).
    void boxesChanged();
    void currentClassChanged(qint64 classId);
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
    /// Tells a kept edit's `waiting` (see pushEdit).
    static void tell(const Pending& pending, bool waiting);
    /// A stored step could not be undone or redone for good: the history no longer fits the database.
    void forgetHistory();
    void clearUnsaved();
    /// With no kept edit left: no retries, no reason to show.
    void stopWaitingIfNothingKept();
    void reload();
    QRectF clampToImage(const QRectF& rectPx) const;
    /// `stored` with the geometry of `box` clamped to the image; nullopt when nothing of it is left.
    std::optional<project::BoxRecord> clampedGeometry(const project::BoxRecord& stored,
                                                      const project::BoxRecord& box) const;
    /// Puts back the stored geometry of previewed boxes without a signal.
    void restorePreviewed();

    ProjectDocument* m_document = nullptr;
    QUndoStack* m_undoStack;
    EditIds m_ids;
    project::ImageRecord m_image;
    std::vector<project::BoxRecord> m_boxes;
    /// The stored geometry of the boxes a drag previews (previewBoxGeometry), in the order first previewed.
    std::vector<project::BoxRecord> m_previewStored;
    std::int64_t m_previousImageId = 0;
    std::int64_t m_classId = 0;
    std::vector<project::BoxRecord> m_clipboard;
    std::int64_t m_clipboardImageId = 0;
    int m_pasteCount = 0;
    int m_dragSerial = 0;
    std::deque<Pending> m_unsaved;
    /// Waiting edits taken back by Undo, newest last; Redo queues them again.
    std::vector<Pending> m_takenBack;
    QString m_unsavedReason, m_unsavedCode;
    QTimer* m_retryTimer;
};

} // namespace osprey::ui
