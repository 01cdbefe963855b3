#include "ui/annotate/id_map.h"

namespace osprey::ui {

void IdMap::rebind(std::int64_t logicalId, std::int64_t currentId) {
    m_toLogical.remove(current(logicalId));
    if (logicalId == currentId) {
        m_toCurrent.remove(logicalId);
        return;
    }
    m_toCurrent.insert(logicalId, currentId);
    m_toLogical.insert(currentId, logicalId);
}

void IdMap::clear() {
    m_toLogical.clear();
    m_toCurrent.clear();
}

} // namespace osprey::ui
