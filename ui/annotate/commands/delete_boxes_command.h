#pragma once
// DeleteBoxesCommand: deletes boxes of one image. Undo re-creates them with every field they had.

#include "ui/annotate/commands/box_edit_command.h"

namespace osprey::ui {

class DeleteBoxesCommand : public BoxEditCommand {
    Q_DECLARE_TR_FUNCTIONS(DeleteBoxesCommand)
public:
    /// `boxes` are the stored records (database ids) of the boxes to delete, all on `imageId`.
    DeleteBoxesCommand(ProjectDocument* document, EditIds* ids, std::int64_t imageId,
                       const std::vector<project::BoxRecord>& boxes);
    void redo() override;
    void undo() override;

private:
    std::vector<project::BoxRecord> m_boxes;
};

} // namespace osprey::ui
