#include "ui/annotate/commands/box_geometry_command.h"

namespace osprey::ui {

namespace {
bool sameGeometry(const project::BoxRecord& a, const project::BoxRecord& b) {
    return a.x1 == b.x1 && a.y1 == b.y1 && a.x2 == b.x2 && a.y2 == b.y2;
}
} // namespace

BoxGeometryCommand::BoxGeometryCommand(ProjectDocument* document, EditIds* ids, std::int64_t imageId,
                                       const std::vector<project::BoxRecord>& before,
                                       const std::vector<project::BoxRecord>& after, int dragSerial,
                                       const QString& text)
    : BoxEditCommand(document, ids, imageId, text), m_before(toLogical(before)), m_after(toLogical(after)),
      m_dragSerial(dragSerial) {}

void BoxGeometryCommand::redo() {
    applyRedo([this](project::Project& project) { return writeBoxes(project, m_after); });
}

void BoxGeometryCommand::undo() {
    applyUndo([this](project::Project& project) { return writeBoxes(project, m_before); });
}

bool BoxGeometryCommand::mergeWith(const QUndoCommand* other) {
    const auto* next = dynamic_cast<const BoxGeometryCommand*>(other);
    // A step the database refused is not folded into one it stored (the editor keeps it for a retry).
    if (!next || !next->succeeded() || next->id() != id() || m_dragSerial == 0 ||
        next->m_dragSerial != m_dragSerial || next->m_imageId != m_imageId ||
        next->m_after.size() != m_after.size())
        return false;
    for (size_t i = 0; i < m_after.size(); ++i)
        if (next->m_after[i].id != m_after[i].id)
            return false;
    m_after = next->m_after;
    bool unchanged = true;
    for (size_t i = 0; i < m_after.size(); ++i)
        unchanged = unchanged && sameGeometry(m_before[i], m_after[i]);
    // A drag that ends where it began leaves no step behind.
    setObsolete(unchanged);
    return true;
}

} // namespace osprey::ui
