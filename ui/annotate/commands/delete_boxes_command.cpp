#include "ui/annotate/commands/delete_boxes_command.h"

namespace osprey::ui {

DeleteBoxesCommand::DeleteBoxesCommand(ProjectDocument* document, EditIds* ids, std::int64_t imageId,
                                       const std::vector<project::BoxRecord>& boxes)
    : BoxEditCommand(document, ids, imageId,
                     boxes.size() == 1 ? tr("Delete Box") : tr("Delete %1 Boxes").arg(boxes.size())),
      m_boxes(toLogical(boxes)) {}

void DeleteBoxesCommand::redo() {
    applyRedo([this](project::Project& project) { return deleteBoxes(project, m_boxes); });
}

void DeleteBoxesCommand::undo() {
    applyUndo([this](project::Project& project) { return insertBoxes(project, m_boxes); });
}

} // namespace osprey::ui
