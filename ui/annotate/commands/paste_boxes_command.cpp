#include "ui/annotate/commands/paste_boxes_command.h"

namespace osprey::ui {

PasteBoxesCommand::PasteBoxesCommand(ProjectDocument* document, EditIds* ids, std::int64_t imageId,
                                     std::vector<project::BoxRecord> boxes, Origin origin)
    : InsertBoxesCommand(document, ids, imageId, std::move(boxes),
                         origin == Origin::Clipboard ? tr("Paste Boxes")
                                                     : tr("Paste Boxes from Previous Image")) {}

} // namespace osprey::ui
