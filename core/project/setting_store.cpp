#include "project/project_impl.h"

namespace osprey::project {

Expected<std::string> SettingStore::get(const std::string& key, const std::string& fallback) const {
    sql::Statement query(m_impl.db, "SELECT value FROM settings WHERE key = ?");
    query.bind(1, key);
    if (query.step())
        return query.text(0);
    if (!query.error().empty())
        return dbError(m_impl, "cannot read setting '" + key + "'", query.error());
    return fallback;
}

Status SettingStore::set(const std::string& key, const std::string& value) {
    return m_impl.inTransaction([&]() -> Status {
        sql::Statement insert(m_impl.db, "INSERT OR REPLACE INTO settings(key, value) VALUES(?, ?)");
        insert.bind(1, key).bind(2, value);
        return insert.run();
    });
}

} // namespace osprey::project
