#pragma once
// ChangeBoxClassCommand: gives one or more boxes of an image another class.

#include "ui/annotate/commands/box_edit_command.h"

namespace osprey::ui {

class ChangeBoxClassCommand : public BoxEditCommand {
    Q_DECLARE_TR_FUNCTIONS(ChangeBoxClassCommand)
public:
    /// `boxes` are the stored records (database ids); `classId` is a database id.
    ChangeBoxClassCommand(ProjectDocument* document, EditIds* ids, std::int64_t imageId,
                          const std::vector<project::BoxRecord>& boxes, std::int64_t classId,
                          const QString& className);
    void redo() override;
    void undo() override;

private:
    std::vector<project::BoxRecord> m_before;
    std::vector<project::BoxRecord> m_after;
};

} // namespace osprey::ui
