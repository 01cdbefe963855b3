#include "ui/annotate/commands/set_image_status_command.h"

#include "ui/project/image_list_model.h"
#include "ui/project/project_document.h"

#include <QDebug>

namespace osprey::ui {

SetImageStatusCommand::SetImageStatusCommand(ProjectDocument* document, std::int64_t imageId,
                                             project::ImageStatus before, project::ImageStatus after)
    : QUndoCommand(tr("Mark Image %1").arg(ImageListModel::statusText(after))), m_document(document),
      m_imageId(imageId), m_before(before), m_after(after) {}

void SetImageStatusCommand::redo() {
    write(m_after);
}

void SetImageStatusCommand::undo() {
    write(m_before);
}

void SetImageStatusCommand::write(project::ImageStatus status) {
    const Status written = m_document->editImage(
        m_imageId, [&](project::Project& project) { return project.images().setStatus(m_imageId, status); });
    if (!written)
        qWarning() << "status change failed:" << QString::fromStdString(written.message());
}

} // namespace osprey::ui
