#include "ui/annotate/paste_boxes_command.h"

namespace osprey::ui {

PasteBoxesCommand::PasteBoxesCommand(ProjectDocument* document, EditIds* ids, std::int64_t imageId,
                                     std::vector<project::BoxRecord> boxes, Origin origin)
    : BoxEditCommand(document, ids, imageId,
                     origin == Origin::Clipboard ? tr("Paste Boxes") : tr("Paste Boxes from Previous Image")),
      m_boxes(std::move(boxes)) {
    for (auto& box : m_boxes) {
        box.id = 0;
        box.imageId = imageId;
        box.classId = ids->classes.logical(box.classId);
    }
}

void PasteBoxesCommand::redo() {
    applyRedo([this](project::Project& project) { return insertBoxes(project, m_boxes); });
}

void PasteBoxesCommand::undo() {
    applyUndo([this](project::Project& project) { return deleteBoxes(project, m_boxes); });
}

std::vector<std::int64_t> PasteBoxesCommand::boxIds() const {
    std::vector<std::int64_t> ids;
    for (const auto& box : m_boxes)
        if (box.id != 0)
            ids.push_back(m_ids->boxes.current(box.id));
    return ids;
}

} // namespace osprey::ui
