#pragma once
// AnnotationSession: the editing state of one open project and its edit verbs. It owns the id maps of the
// commands, the current image and its boxes, the default class for the next box, the box clipboard and the
// EditQueue (the undo stack, unlimited, living as long as the project is open and surviving image
// switches, with the edits the database refused kept for a retry). Every edit goes through a QUndoCommand
// pushed there; views listen to boxesChanged / imageChanged. GUI thread only.

#include "project/types.h"
#include "ui/annotate/edit_queue.h"
#include "ui/annotate/id_map.h"

#include <QObject>
#include <QRectF>
#include <optional>
#include <vector>

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
    QUndoStack* undoStack() const { return m_edits->undoStack(); }
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

    // ---- edits the database refused (EditQueue) ------------------------------------------------
    /// Edits not stored yet, kept in order: the database refused them and nothing of them was written.
    int unsavedCount() const { return m_edits->unsavedCount(); }
    /// Why the first unsaved edit was refused (the database's message).
    const QString& unsavedReason() const { return m_edits->unsavedReason(); }
    /// The refusal's code: "busy", "full", "io", ...
    const QString& unsavedCode() const { return m_edits->unsavedCode(); }
    /// Tries the unsaved edits again, in order, until one is refused again.
    void retryUnsaved() { m_edits->retry(); }

    // ---- undo and redo (EditQueue) -------------------------------------------------------------
    void undo() { m_edits->undo(); }
    void redo() { m_edits->redo(); }
    bool canUndo() const { return m_edits->canUndo(); }
    bool canRedo() const { return m_edits->canRedo(); }
    /// Clears the undo history (e.g. after auto-label's Replace deleted boxes it refers to), with a kept
    /// undo/redo of one of its steps; kept new edits stay. Use this, not undoStack()->clear().
    void clearHistory() { m_edits->clearHistory(); }
    /// The Undo/Redo menu texts ("&Undo Add Box", "&Undo Unsaved Edit", ...).
    QString undoText() const { return m_edits->undoText(); }
    QString redoText() const { return m_edits->redoText(); }

    using MakeCommand = EditQueue::MakeCommand;
    using Waiting = EditQueue::Waiting;
    /// Pushes the command `make` builds, in its turn behind the kept edits (EditQueue::push).
    QUndoCommand* pushEdit(const MakeCommand& make, Waiting waiting = {}) {
        return m_edits->push(make, std::move(waiting));
    }

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
    void reload();
    QRectF clampToImage(const QRectF& rectPx) const;
    /// `stored` with the geometry of `box` clamped to the image; nullopt when nothing of it is left.
    std::optional<project::BoxRecord> clampedGeometry(const project::BoxRecord& stored,
                                                      const project::BoxRecord& box) const;
    /// Puts back the stored geometry of previewed boxes without a signal.
    void restorePreviewed();

    ProjectDocument* m_document = nullptr;
    EditQueue* m_edits;
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
};

} // namespace osprey::ui
