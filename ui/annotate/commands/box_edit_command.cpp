#include "ui/annotate/commands/box_edit_command.h"

#include "ui/project/project_document.h"

#include <QDebug>

namespace osprey::ui {

BoxEditCommand::BoxEditCommand(ProjectDocument* document, EditIds* ids, std::int64_t imageId,
                               const QString& text)
    : QUndoCommand(text), m_document(document), m_ids(ids), m_imageId(imageId) {}

void BoxEditCommand::applyRedo(const std::function<Status(project::Project&)>& body) {
    const Status status = m_document->editImage(m_imageId, [&](project::Project& project) -> Status {
        if (!m_statusBefore) {
            auto image = project.images().get(m_imageId);
            if (!image)
                return fail(image.error());
            m_statusBefore = image->status;
        }
        return body(project);
    });
    m_succeeded = status.hasValue();
    if (!m_succeeded)
        qWarning() << "edit failed:" << QString::fromStdString(status.message());
}

void BoxEditCommand::applyUndo(const std::function<Status(project::Project&)>& body) {
    const Status status = m_document->editImage(m_imageId, [&](project::Project& project) -> Status {
        if (Status undone = body(project); !undone)
            return undone;
        auto image = project.images().get(m_imageId);
        if (!image)
            return fail(image.error());
        if (m_statusBefore && image->status != *m_statusBefore)
            return project.images().setStatus(m_imageId, *m_statusBefore);
        return {};
    });
    m_succeeded = status.hasValue();
    if (!m_succeeded)
        qWarning() << "undo failed:" << QString::fromStdString(status.message());
}

Status BoxEditCommand::insertBoxes(project::Project& project, std::vector<project::BoxRecord>& boxes) {
    for (auto& box : boxes) {
        const project::NewBox added{m_imageId,  m_ids->classes.current(box.classId),
                                    box.x1,     box.y1,
                                    box.x2,     box.y2,
                                    box.source, box.score,
                                    box.flags};
        auto id = project.boxes().add(added);
        if (!id)
            return fail(id.error());
        if (box.id == 0)
            box.id = *id;
        else
            m_ids->boxes.rebind(box.id, *id);
    }
    return {};
}

Status BoxEditCommand::deleteBoxes(project::Project& project, const std::vector<project::BoxRecord>& boxes) {
    for (const auto& box : boxes)
        if (Status deleted = project.boxes().remove(m_ids->boxes.current(box.id)); !deleted)
            return deleted;
    return {};
}

Status BoxEditCommand::writeBoxes(project::Project& project, std::vector<project::BoxRecord> boxes) {
    for (auto& box : boxes) {
        box.id = m_ids->boxes.current(box.id);
        box.classId = m_ids->classes.current(box.classId);
        if (Status updated = project.boxes().update(box); !updated)
            return updated;
    }
    return {};
}

std::vector<project::BoxRecord> BoxEditCommand::toLogical(std::vector<project::BoxRecord> boxes) const {
    for (auto& box : boxes) {
        box.id = m_ids->boxes.logical(box.id);
        box.classId = m_ids->classes.logical(box.classId);
    }
    return boxes;
}

} // namespace osprey::ui
