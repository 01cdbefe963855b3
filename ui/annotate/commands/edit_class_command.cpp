#include "ui/annotate/commands/edit_class_command.h"

#include "ui/project/project_document.h"

#include <QDebug>

namespace osprey::ui {

namespace {
QString describe(EditClassCommand::Kind kind, const QString& name) {
    switch (kind) {
    case EditClassCommand::Kind::Rename:
        return EditClassCommand::tr("Rename Class %1").arg(name);
    case EditClassCommand::Kind::Recolor:
        return EditClassCommand::tr("Recolour Class %1").arg(name);
    case EditClassCommand::Kind::Move:
        return EditClassCommand::tr("Reorder Class %1").arg(name);
    }
    return {};
}
} // namespace

EditClassCommand::EditClassCommand(ProjectDocument* document, EditIds* ids, std::int64_t classId, Kind kind,
                                   const QVariant& before, const QVariant& after)
    : QUndoCommand(describe(kind, document->className(classId))), m_document(document), m_ids(ids),
      m_logicalId(ids->classes.logical(classId)), m_kind(kind), m_before(before), m_after(after) {}

void EditClassCommand::redo() {
    write(m_after);
}

void EditClassCommand::undo() {
    write(m_before);
}

void EditClassCommand::write(const QVariant& value) {
    const std::int64_t id = m_ids->classes.current(m_logicalId);
    const Status status = m_document->editClasses([&](project::Project& project) -> Status {
        switch (m_kind) {
        case Kind::Rename:
            return project.classes().rename(id, value.toString().toStdString());
        case Kind::Recolor:
            return project.classes().recolor(id, value.toString().toStdString());
        case Kind::Move:
            return project.classes().move(id, value.toInt());
        }
        return {};
    });
    // The session sees a failed write (ProjectDocument counts it) and keeps or drops the step.
    if (!status)
        qWarning() << "class edit failed:" << QString::fromStdString(status.message());
}

} // namespace osprey::ui
