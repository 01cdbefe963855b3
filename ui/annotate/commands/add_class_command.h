#pragma once
// AddClassCommand: adds a class at the end of the class list. Undo removes it again.

#include "ui/annotate/id_map.h"

#include <QCoreApplication>
#include <QUndoCommand>

namespace osprey::ui {

class ProjectDocument;

class AddClassCommand : public QUndoCommand {
    Q_DECLARE_TR_FUNCTIONS(AddClassCommand)
public:
    AddClassCommand(ProjectDocument* document, EditIds* ids, const QString& name, const QString& color);
    void redo() override;
    void undo() override;
    /// The class's database id now (0 when the add failed, e.g. a duplicate name).
    std::int64_t classId() const;

private:
    ProjectDocument* m_document;
    EditIds* m_ids;
    QString m_name;
    QString m_color;
    std::int64_t m_logicalId = 0;
};

} // namespace osprey::ui
