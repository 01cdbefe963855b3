#include "ui/annotate/commands/accept_proposals_command.h"

namespace osprey::ui {

AcceptProposalsCommand::AcceptProposalsCommand(ProjectDocument* document, EditIds* ids, std::int64_t imageId,
                                               std::vector<project::BoxRecord> boxes, Applied applied)
    // `boxes` is copied, not moved: the text below reads its size, and argument order is unspecified.
    : InsertBoxesCommand(document, ids, imageId, boxes,
                         boxes.size() == 1 ? tr("Accept Proposal")
                                           : tr("Accept %1 Proposals").arg(boxes.size())),
      m_applied(std::move(applied)) {
    for (auto& box : m_boxes)
        box.source = project::BoxSource::Model;
}

void AcceptProposalsCommand::applied(bool accepted) {
    if (m_applied)
        m_applied(accepted);
}

} // namespace osprey::ui
