#pragma once
// AcceptProposalsCommand: turns model proposals into normal boxes (source=model, with their scores) on
// one image. Accepting one proposal or all of them is one undo step; undo deletes the boxes again.

#include "ui/annotate/box_edit_command.h"

#include <functional>

namespace osprey::ui {

class AcceptProposalsCommand : public BoxEditCommand {
    Q_DECLARE_TR_FUNCTIONS(AcceptProposalsCommand)
public:
    /// Called after each redo (true) and undo (false), so that the proposals can hide or show again.
    using Applied = std::function<void(bool accepted)>;

    /// `boxes` hold class (database id), coordinates and score; ids, image ids and sources are ignored.
    AcceptProposalsCommand(ProjectDocument* document, EditIds* ids, std::int64_t imageId,
                           std::vector<project::BoxRecord> boxes, Applied applied = {});
    void redo() override;
    void undo() override;
    /// The database ids the accepted boxes have now.
    std::vector<std::int64_t> boxIds() const;

private:
    std::vector<project::BoxRecord> m_boxes;
    Applied m_applied;
};

} // namespace osprey::ui
