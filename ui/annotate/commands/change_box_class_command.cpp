#include "ui/annotate/commands/change_box_class_command.h"

namespace osprey::ui {

ChangeBoxClassCommand::ChangeBoxClassCommand(ProjectDocument* document, EditIds* ids, std::int64_t imageId,
                                             const std::vector<project::BoxRecord>& boxes,
                                             std::int64_t classId, const QString& className)
    : BoxEditCommand(document, ids, imageId, tr("Set Class to %1").arg(className)),
      m_before(toLogical(boxes)), m_after(m_before) {
    const std::int64_t logicalClass = ids->classes.logical(classId);
    for (auto& box : m_after)
        box.classId = logicalClass;
}

void ChangeBoxClassCommand::redo() {
    applyRedo([this](project::Project& project) { return writeBoxes(project, m_after); });
}

void ChangeBoxClassCommand::undo() {
    applyUndo([this](project::Project& project) { return writeBoxes(project, m_before); });
}

} // namespace osprey::ui
