#pragma once
// IdMap: stable identities across undo and redo. The database gives a row a fresh id each time undo or
// redo re-creates it, so commands remember a box or a class by its *logical* id (the first id it had)
// and translate through this map. GUI thread only.

#include <QHash>
#include <cstdint>

namespace osprey::ui {

class IdMap {
public:
    /// The logical id of a row that currently has database id `currentId`.
    std::int64_t logical(std::int64_t currentId) const { return m_toLogical.value(currentId, currentId); }
    /// The database id that logical id `logicalId` has now.
    std::int64_t current(std::int64_t logicalId) const { return m_toCurrent.value(logicalId, logicalId); }
    /// Records that the row known as `logicalId` was re-created with database id `currentId`.
    void rebind(std::int64_t logicalId, std::int64_t currentId);
    void clear();

private:
    QHash<std::int64_t, std::int64_t> m_toLogical;
    QHash<std::int64_t, std::int64_t> m_toCurrent;
};

/// The id maps of one editing session: one for boxes, one for classes.
struct EditIds {
    IdMap boxes;
    IdMap classes;
};

} // namespace osprey::ui
