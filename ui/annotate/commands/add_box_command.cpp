#include "ui/annotate/commands/add_box_command.h"

namespace osprey::ui {

AddBoxCommand::AddBoxCommand(ProjectDocument* document, EditIds* ids, const project::BoxRecord& box)
    : BoxEditCommand(document, ids, box.imageId, tr("Add Box")) {
    project::BoxRecord added = box;
    added.id = 0;
    added.classId = ids->classes.logical(box.classId);
    m_box.push_back(added);
}

void AddBoxCommand::redo() {
    applyRedo([this](project::Project& project) { return insertBoxes(project, m_box); });
}

void AddBoxCommand::undo() {
    applyUndo([this](project::Project& project) { return deleteBoxes(project, m_box); });
}

std::int64_t AddBoxCommand::boxId() const {
    return m_box.front().id == 0 ? 0 : m_ids->boxes.current(m_box.front().id);
}

} // namespace osprey::ui
