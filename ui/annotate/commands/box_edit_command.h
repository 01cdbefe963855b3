#pragma once
// BoxEditCommand: the base of the commands that edit the boxes of one image. Each redo and undo is one
// transaction through ProjectDocument::editImage. It remembers the image's status before the first redo
// so that undo restores it exactly (the database derives new/labeled from the boxes, which would turn an
// undone paste on a verified-empty image into "new"). Boxes and classes are held by logical id (IdMap).
// GUI thread only.

#include "project/project.h"
#include "ui/annotate/id_map.h"

#include <QCoreApplication>
#include <QUndoCommand>
#include <functional>
#include <optional>
#include <vector>

namespace osprey::ui {

class ProjectDocument;

class BoxEditCommand : public QUndoCommand {
public:
    BoxEditCommand(ProjectDocument* document, EditIds* ids, std::int64_t imageId, const QString& text);

    std::int64_t imageId() const { return m_imageId; }
    /// False when the last redo or undo could not be written (the database refused it).
    bool succeeded() const { return m_succeeded; }

protected:
    /// Runs `body` in one transaction on the image; the first redo records the image status.
    void applyRedo(const std::function<Status(project::Project&)>& body);
    /// Runs `body` in one transaction and then restores the recorded image status.
    void applyUndo(const std::function<Status(project::Project&)>& body);
    /// Inserts `boxes` (ids and class ids logical; id 0 means "new") and rebinds the logical ids to the
    /// new database ids. A box with id 0 gets its new database id as its logical id.
    Status insertBoxes(project::Project& project, std::vector<project::BoxRecord>& boxes);
    Status deleteBoxes(project::Project& project, const std::vector<project::BoxRecord>& boxes);
    /// Writes `boxes` (logical ids) over the stored ones.
    Status writeBoxes(project::Project& project, std::vector<project::BoxRecord> boxes);
    /// Converts database ids (box and class) in `boxes` to logical ids.
    std::vector<project::BoxRecord> toLogical(std::vector<project::BoxRecord> boxes) const;

    ProjectDocument* m_document;
    EditIds* m_ids;
    std::int64_t m_imageId;

private:
    std::optional<project::ImageStatus> m_statusBefore;
    bool m_succeeded = true;
};

} // namespace osprey::ui
