#pragma once
// MoveBoxesCommand: moves one or more boxes (mouse drag or arrow-key nudge). Merges within one drag.

#include "ui/annotate/commands/box_geometry_command.h"
#include "ui/annotate/commands/undo_command_id.h"

namespace osprey::ui {

class MoveBoxesCommand : public BoxGeometryCommand {
    Q_DECLARE_TR_FUNCTIONS(MoveBoxesCommand)
public:
    MoveBoxesCommand(ProjectDocument* document, EditIds* ids, std::int64_t imageId,
                     const std::vector<project::BoxRecord>& before,
                     const std::vector<project::BoxRecord>& after, int dragSerial)
        : BoxGeometryCommand(document, ids, imageId, before, after, dragSerial,
                             before.size() == 1 ? tr("Move Box") : tr("Move %1 Boxes").arg(before.size())) {}
    int id() const override { return static_cast<int>(UndoCommandId::MoveBoxes); }
};

} // namespace osprey::ui
