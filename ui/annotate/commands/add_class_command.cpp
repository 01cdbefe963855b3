#include "ui/annotate/commands/add_class_command.h"

#include "ui/project/project_document.h"

#include <QDebug>

namespace osprey::ui {

AddClassCommand::AddClassCommand(ProjectDocument* document, EditIds* ids, const QString& name,
                                 const QString& color)
    : QUndoCommand(tr("Add Class %1").arg(name)), m_document(document), m_ids(ids), m_name(name),
      m_color(color) {}

void AddClassCommand::redo() {
    std::int64_t added = 0;
    const Status status = m_document->editClasses([&](project::Project& project) -> Status {
        auto id = project.classes().add(m_name.toStdString(), m_color.toStdString());
        if (!id)
            return fail(id.error());
        added = *id;
        return {};
    });
    if (!status) {
        // The session sees the failed write (ProjectDocument counts it) and keeps or drops the step.
        qWarning() << "add class failed:" << QString::fromStdString(status.message());
        return;
    }
    if (m_logicalId == 0)
        m_logicalId = added;
    else
        m_ids->classes.rebind(m_logicalId, added);
}

void AddClassCommand::undo() {
    if (m_logicalId == 0)
        return;
    const Status status = m_document->editClasses([&](project::Project& project) {
        return project.classes().remove(m_ids->classes.current(m_logicalId),
                                        project::ClassDeletePolicy::Refuse);
    });
    if (!status)
        qWarning() << "undo add class failed:" << QString::fromStdString(status.message());
}

std::int64_t AddClassCommand::classId() const {
    return m_logicalId == 0 ? 0 : m_ids->classes.current(m_logicalId);
}

} // namespace osprey::ui
