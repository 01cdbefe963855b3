#pragma once
// InsertBoxesCommand: adds a set of boxes to one image as one undo step; undo deletes them again. The
// base of pasting (PasteBoxesCommand) and of accepting model proposals (AcceptProposalsCommand).

#include "ui/annotate/commands/box_edit_command.h"

namespace osprey::ui {

class InsertBoxesCommand : public BoxEditCommand {
public:
    /// `boxes` go onto `imageId` (their ids and image ids are ignored; class ids are database ids).
    InsertBoxesCommand(ProjectDocument* document, EditIds* ids, std::int64_t imageId,
                       std::vector<project::BoxRecord> boxes, const QString& text);
    void redo() override;
    void undo() override;
    /// The database ids the inserted boxes have now.
    std::vector<std::int64_t> boxIds() const;

protected:
    /// After a redo (true) or an undo (false) that succeeded.
    virtual void applied(bool inserted) { Q_UNUSED(inserted) }

    std::vector<project::BoxRecord> m_boxes;
};

} // namespace osprey::ui
