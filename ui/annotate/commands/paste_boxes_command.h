#pragma once
// PasteBoxesCommand: adds copies of boxes (from the clipboard or from the previous image) to an image.

#include "ui/annotate/commands/insert_boxes_command.h"

namespace osprey::ui {

class PasteBoxesCommand : public InsertBoxesCommand {
    Q_DECLARE_TR_FUNCTIONS(PasteBoxesCommand)
public:
    enum class Origin { Clipboard, PreviousImage };
    /// `boxes` are copied onto `imageId` (their ids and image ids are ignored; class ids are database ids).
    PasteBoxesCommand(ProjectDocument* document, EditIds* ids, std::int64_t imageId,
                      std::vector<project::BoxRecord> boxes, Origin origin);
};

} // namespace osprey::ui
