#pragma once
// The one list of QUndoCommand ids. Commands with the same id may merge (QUndoCommand::mergeWith).

namespace osprey::ui {

enum class UndoCommandId : int {
    MoveBoxes = 1,
    ResizeBox,
};

} // namespace osprey::ui
