#pragma once
// SetImageStatusCommand: marks an image reviewed or verified-empty (or back). Undo restores the status.

#include "project/types.h"

#include <QCoreApplication>
#include <QUndoCommand>

namespace osprey::ui {

class ProjectDocument;

class SetImageStatusCommand : public QUndoCommand {
    Q_DECLARE_TR_FUNCTIONS(SetImageStatusCommand)
public:
    SetImageStatusCommand(ProjectDocument* document, std::int64_t imageId, project::ImageStatus before,
                          project::ImageStatus after);
    void redo() override;
    void undo() override;

private:
    void write(project::ImageStatus status);

    ProjectDocument* m_document;
    std::int64_t m_imageId;
    project::ImageStatus m_before;
    project::ImageStatus m_after;
};

} // namespace osprey::ui
