#include "project/project_impl.h"

namespace osprey::project {

Status TakenFileStore::record(const TakenFile& file) {
    return m_impl.inTransaction([&]() -> Status {
        sql::Statement insert(m_impl.db,
                              "INSERT OR REPLACE INTO taken_files(path, size, mtime_ns, kind, images, "
                              "taken_at) VALUES (?, ?, ?, ?, ?, ?)");
        insert.bind(1, file.path)
            .bind(2, file.size)
            .bind(3, file.mtimeNs)
            .bind(4, file.kind)
            .bind(5, file.images)
            .bind(6, nowSeconds());
        if (auto ran = insert.run(); !ran)
            return fail(file.path + ": cannot record it as taken: " + ran.message());
        return {};
    });
}

Expected<std::vector<TakenFile>> TakenFileStore::list() const {
    sql::Statement query(m_impl.db,
                         "SELECT path, size, mtime_ns, kind, images FROM taken_files ORDER BY rowid");
    std::vector<TakenFile> files;
    while (query.step())
        files.push_back({query.text(0), query.integer(1), query.integer(2), query.text(3), query.integer(4)});
    if (!query.error().empty())
        return dbError(m_impl, "cannot read the taken files", query.error());
    return files;
}

} // namespace osprey::project
