#pragma once
// BoxGeometryCommand: the shared part of MoveBoxesCommand and ResizeBoxCommand. It swaps the boxes'
// coordinates between "before" and "after"; commands of one drag (same id, same drag serial, same
// boxes) merge into one undo step that keeps the first "before" and the last "after".

#include "ui/annotate/commands/box_edit_command.h"

namespace osprey::ui {

class BoxGeometryCommand : public BoxEditCommand {
public:
    /// `before` and `after` hold the same boxes (database ids) in the same order. `dragSerial`
    /// identifies one mouse drag or one run of key repeats; 0 never merges.
    BoxGeometryCommand(ProjectDocument* document, EditIds* ids, std::int64_t imageId,
                       const std::vector<project::BoxRecord>& before,
                       const std::vector<project::BoxRecord>& after, int dragSerial, const QString& text);
    void redo() override;
    void undo() override;
    bool mergeWith(const QUndoCommand* other) override;

private:
    std::vector<project::BoxRecord> m_before;
    std::vector<project::BoxRecord> m_after;
    int m_dragSerial;
};

} // namespace osprey::ui
