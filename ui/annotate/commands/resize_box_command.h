#pragma once
// ResizeBoxCommand: resizes one box by one of its 8 handles. Merges within one drag.

#include "ui/annotate/commands/box_geometry_command.h"
#include "ui/annotate/commands/undo_command_id.h"

namespace osprey::ui {

class ResizeBoxCommand : public BoxGeometryCommand {
    Q_DECLARE_TR_FUNCTIONS(ResizeBoxCommand)
public:
    ResizeBoxCommand(ProjectDocument* document, EditIds* ids, const project::BoxRecord& before,
                     const project::BoxRecord& after, int dragSerial)
        : BoxGeometryCommand(document, ids, before.imageId, {before}, {after}, dragSerial, tr("Resize Box")) {
    }
    int id() const override { return static_cast<int>(UndoCommandId::ResizeBox); }
};

} // namespace osprey::ui
