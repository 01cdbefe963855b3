#include "ui/annotate/delete_boxes_command.h"

namespace osprey::ui {

DeleteBoxesCommand::DeleteBoxesCommand(ProjectDocument* document, EditIds* ids, std::int64_t imageId,
                                       const std::vector<project::BoxRecord>& boxes)
    : BoxEditCommand(document, ids, imageId, tr("Delete %n Box(es)", nullptr, int(boxes.size()))),
      m_boxes(toLogical(boxes)) {}

void DeleteBoxesCommand::redo() {
    applyRedo([this](project::Project& project) { return deleteBoxes(project, m_boxes); });
}

void DeleteBoxesCommand::undo() {
    applyUndo([this](project::Project& project) { return insertBoxes(project, m_boxes); });
}

} // namespace osprey::ui
