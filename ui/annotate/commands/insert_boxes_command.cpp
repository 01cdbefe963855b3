#include "ui/annotate/commands/insert_boxes_command.h"

namespace osprey::ui {

InsertBoxesCommand::InsertBoxesCommand(ProjectDocument* document, EditIds* ids, std::int64_t imageId,
                                       std::vector<project::BoxRecord> boxes, const QString& text)
    : BoxEditCommand(document, ids, imageId, text), m_boxes(std::move(boxes)) {
    for (auto& box : m_boxes) {
        box.id = 0;
        box.imageId = imageId;
        box.classId = ids->classes.logical(box.classId);
    }
}

void InsertBoxesCommand::redo() {
    applyRedo([this](project::Project& project) { return insertBoxes(project, m_boxes); });
    if (succeeded())
        applied(true);
}

void InsertBoxesCommand::undo() {
    applyUndo([this](project::Project& project) { return deleteBoxes(project, m_boxes); });
    if (succeeded())
        applied(false);
}

std::vector<std::int64_t> InsertBoxesCommand::boxIds() const {
    std::vector<std::int64_t> ids;
    for (const auto& box : m_boxes)
        if (box.id != 0)
            ids.push_back(m_ids->boxes.current(box.id));
    return ids;
}

} // namespace osprey::ui
