#pragma once
// EditClassCommand: renames, recolours or moves (reorders) one class. One class per kind of class edit
// would be three near-identical files; the kind is a constructor argument and part of the undo text.

#include "ui/annotate/id_map.h"

#include <QCoreApplication>
#include <QUndoCommand>
#include <QVariant>

namespace osprey::ui {

class ProjectDocument;

class EditClassCommand : public QUndoCommand {
    Q_DECLARE_TR_FUNCTIONS(EditClassCommand)
public:
    enum class Kind { Rename, Recolor, Move };
    /// `before` and `after` are the name (Rename), "#rrggbb" colour (Recolor) or 0-based position (Move).
    EditClassCommand(ProjectDocument* document, EditIds* ids, std::int64_t classId, Kind kind,
                     const QVariant& before, const QVariant& after);
    void redo() override;
    void undo() override;

private:
    void write(const QVariant& value);

    ProjectDocument* m_document;
    EditIds* m_ids;
    std::int64_t m_logicalId;
    Kind m_kind;
    QVariant m_before;
    QVariant m_after;
};

} // namespace osprey::ui
