#pragma once
// PasteBoxesCommand: adds copies of boxes (from the clipboard or from the previous image) to an image.

#include "ui/annotate/box_edit_command.h"

namespace osprey::ui {

class PasteBoxesCommand : public BoxEditCommand {
    Q_DECLARE_TR_FUNCTIONS(PasteBoxesCommand)
public:
    enum class Origin { Clipboard, PreviousImage };
    /// `boxes` are copied onto `imageId` (their ids and image ids are ignored; class ids are database ids).
    PasteBoxesCommand(ProjectDocument* document, EditIds* ids, std::int64_t imageId,
                      std::vector<project::BoxRecord> boxes, Origin origin);
    void redo() override;
    void undo() override;
    /// The database ids the pasted boxes have now.
    std::vector<std::int64_t> boxIds() const;

private:
    std::vector<project::BoxRecord> m_boxes;
};

} // namespace osprey::ui
