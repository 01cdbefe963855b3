#pragma once
// AcceptProposalsCommand: turns model proposals into normal boxes (source=model, with their scores) on
// one image. Accepting one proposal or all of them is one undo step; undo deletes the boxes again.

#include "ui/annotate/commands/insert_boxes_command.h"

#include <functional>

namespace osprey::ui {

class AcceptProposalsCommand : public InsertBoxesCommand {
    Q_DECLARE_TR_FUNCTIONS(AcceptProposalsCommand)
public:
    /// Called after each redo (true) and undo (false), so that the proposals can hide or show again.
    using Applied = std::function<void(bool accepted)>;

    /// `boxes` hold class (database id), coordinates and score; ids, image ids and sources are ignored.
    AcceptProposalsCommand(ProjectDocument* document, EditIds* ids, std::int64_t imageId,
                           std::vector<project::BoxRecord> boxes, Applied applied = {});

protected:
    void applied(bool accepted) override;

private:
    Applied m_applied;
};

} // namespace osprey::ui
