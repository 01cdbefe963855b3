#include "ui/annotate/accept_proposals_command.h"

namespace osprey::ui {

AcceptProposalsCommand::AcceptProposalsCommand(ProjectDocument* document, EditIds* ids, std::int64_t imageId,
                                               std::vector<project::BoxRecord> boxes, Applied applied)
    : BoxEditCommand(document, ids, imageId,
                     boxes.size() == 1 ? tr("Accept Proposal") : tr("Accept %1 Proposals").arg(boxes.size())),
      m_boxes(std::move(boxes)), m_applied(std::move(applied)) {
    for (auto& box : m_boxes) {
        box.id = 0;
        box.imageId = imageId;
        box.classId = ids->classes.logical(box.classId);
        box.source = project::BoxSource::Model;
    }
}

void AcceptProposalsCommand::redo() {
    applyRedo([this](project::Project& project) { return insertBoxes(project, m_boxes); });
    if (m_applied && succeeded())
        m_applied(true);
}

void AcceptProposalsCommand::undo() {
    applyUndo([this](project::Project& project) { return deleteBoxes(project, m_boxes); });
    if (m_applied && succeeded())
        m_applied(false);
}

std::vector<std::int64_t> AcceptProposalsCommand::boxIds() const {
    std::vector<std::int64_t> ids;
    for (const auto& box : m_boxes)
        if (box.id != 0)
            ids.push_back(m_ids->boxes.current(box.id));
    return ids;
}

} // namespace osprey::ui
