#pragma once
// AddBoxCommand: draws one new box on an image. Undo deletes it; redo re-creates it.

#include "ui/annotate/commands/box_edit_command.h"

namespace osprey::ui {

class AddBoxCommand : public BoxEditCommand {
    Q_DECLARE_TR_FUNCTIONS(AddBoxCommand)
public:
    /// `box` holds the image, class (database id) and coordinates; its id is ignored.
    AddBoxCommand(ProjectDocument* document, EditIds* ids, const project::BoxRecord& box);
    void redo() override;
    void undo() override;
    /// The database id the box has now (0 before the first redo).
    std::int64_t boxId() const;

private:
    std::vector<project::BoxRecord> m_box;
};

} // namespace osprey::ui
