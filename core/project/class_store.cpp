#include "project/project_impl.h"

#include <algorithm>

namespace osprey::project {

std::string paletteColor(int index) {
    // Distinct hues that stay readable on both light and dark photos.
    static const char* kPalette[] = {"#ff3838", "#2c99a8", "#ff9d97", "#ff701f", "#ffb21d",
                                     "#cfd231", "#48f90a", "#92cc17", "#3ddb86", "#1a9334",
                                     "#00d4bb", "#ff6f3d", "#00c2ff", "#344593", "#6473ff",
                                     "#0018ec", "#8438ff", "#520085", "#cb38ff", "#ff95c8"};
    constexpr int kCount = sizeof(kPalette) / sizeof(kPalette[0]);
    return kPalette[((index % kCount) + kCount) % kCount];
}

Expected<std::int64_t> ClassStore::add(const std::string& name, const std::string& color) {
    if (name.empty())
        return fail("class name: must not be empty");
    std::int64_t id = 0;
    auto status = m_impl.inTransaction([&]() -> Status {
        sql::Statement count(m_impl.db, "SELECT COALESCE(MAX(position) + 1, 0), COUNT(*) FROM classes");
        count.step();
        const int position = static_cast<int>(count.integer(0));
        sql::Statement insert(m_impl.db, "INSERT INTO classes(name, color, position) VALUES(?, ?, ?)");
        insert.bind(1, name).bind(2, color.empty() ? paletteColor(position) : color).bind(3, position);
        if (auto ran = insert.run(); !ran)
            return fail("class '" + name + "': " +
                        (ran.message().find("UNIQUE") != std::string::npos
                             ? "a class with this name already exists"
                             : ran.message()));
        id = sqlite3_last_insert_rowid(m_impl.db.handle());
        return {};
    });
    if (!status)
        return fail(status.error());
    return id;
}

Status ClassStore::rename(std::int64_t classId, const std::string& name) {
    if (name.empty())
        return fail("class name: must not be empty");
    return m_impl.inTransaction([&]() -> Status {
        sql::Statement update(m_impl.db, "UPDATE classes SET name = ? WHERE id = ?");
        update.bind(1, name).bind(2, classId);
        if (auto ran = update.run(); !ran)
            return fail("class '" + name + "': " +
                        (ran.message().find("UNIQUE") != std::string::npos
                             ? "a class with this name already exists"
                             : ran.message()));
        if (sqlite3_changes(m_impl.db.handle()) == 0)
            return fail("class id " + std::to_string(classId) + ": no such class");
        return {};
    });
}

Status ClassStore::recolor(std::int64_t classId, const std::string& color) {
    if (color.size() != 7 || color[0] != '#')
        return fail("class colour '" + color + "': expected #rrggbb");
    return m_impl.inTransaction([&]() -> Status {
        sql::Statement update(m_impl.db, "UPDATE classes SET color = ? WHERE id = ?");
        update.bind(1, color).bind(2, classId);
        if (auto ran = update.run(); !ran)
            return fail(ran.error());
        if (sqlite3_changes(m_impl.db.handle()) == 0)
            return fail("class id " + std::to_string(classId) + ": no such class");
        return {};
    });
}

Status ClassStore::move(std::int64_t classId, int position) {
    return m_impl.inTransaction([&]() -> Status {
        auto classes = list();
        if (!classes)
            return fail(classes.error());
        std::vector<std::int64_t> order;
        std::int64_t moving = 0;
        for (const auto& info : *classes) {
            if (info.id == classId)
                moving = info.id;
            else
                order.push_back(info.id);
        }
        if (moving == 0)
            return fail("class id " + std::to_string(classId) + ": no such class");
        position = std::clamp(position, 0, static_cast<int>(order.size()));
        order.insert(order.begin() + position, moving);
        sql::Statement update(m_impl.db, "UPDATE classes SET position = ? WHERE id = ?");
        for (size_t i = 0; i < order.size(); ++i) {
            update.reset();
            update.bind(1, static_cast<std::int64_t>(i)).bind(2, order[i]);
            if (auto ran = update.run(); !ran)
                return fail(ran.error());
        }
        return {};
    });
}

Status ClassStore::remove(std::int64_t classId, ClassDeletePolicy policy, std::int64_t reassignTo) {
    return m_impl.inTransaction([&]() -> Status {
        sql::Statement count(m_impl.db, "SELECT COUNT(*) FROM boxes WHERE class_id = ?");
        count.bind(1, classId);
        count.step();
        const std::int64_t boxCount = count.integer(0);
        std::vector<std::int64_t> touched;
        if (boxCount > 0) {
            switch (policy) {
            case ClassDeletePolicy::Refuse:
                return fail("class id " + std::to_string(classId) + ": still has " +
                            std::to_string(boxCount) + " boxes; delete or reassign them first");
            case ClassDeletePolicy::Reassign: {
                if (reassignTo == classId)
                    return fail("class id " + std::to_string(classId) + ": cannot reassign boxes to itself");
                sql::Statement exists(m_impl.db, "SELECT 1 FROM classes WHERE id = ?");
                exists.bind(1, reassignTo);
                if (!exists.step())
                    return fail("class id " + std::to_string(reassignTo) +
                                ": no such class to reassign boxes to");
                sql::Statement move(m_impl.db,
                                    "UPDATE boxes SET class_id = ?, updated_at = ? WHERE class_id = ?");
                move.bind(1, reassignTo).bind(2, nowSeconds()).bind(3, classId);
                if (auto ran = move.run(); !ran)
                    return fail(ran.error());
                break;
            }
            case ClassDeletePolicy::DeleteBoxes: {
                sql::Statement images(m_impl.db, "SELECT DISTINCT image_id FROM boxes WHERE class_id = ?");
                images.bind(1, classId);
                while (images.step())
                    touched.push_back(images.integer(0));
                sql::Statement remove(m_impl.db, "DELETE FROM boxes WHERE class_id = ?");
                remove.bind(1, classId);
                if (auto ran = remove.run(); !ran)
                    return fail(ran.error());
                break;
            }
            }
        }
        sql::Statement remove(m_impl.db, "DELETE FROM classes WHERE id = ?");
        remove.bind(1, classId);
        if (auto ran = remove.run(); !ran)
            return fail(ran.error());
        if (sqlite3_changes(m_impl.db.handle()) == 0)
            return fail("class id " + std::to_string(classId) + ": no such class");
        for (const auto imageId : touched)
            if (auto refreshed = m_impl.refreshStatus(imageId); !refreshed)
                return refreshed;
        // Close the gap in the positions.
        return m_impl.db.exec(
            "UPDATE classes SET position = (SELECT COUNT(*) FROM classes c2 WHERE c2.position < "
            "classes.position)");
    });
}

Expected<std::vector<ClassInfo>> ClassStore::list() const {
    sql::Statement query(m_impl.db, "SELECT id, name, color, position FROM classes ORDER BY position, id");
    std::vector<ClassInfo> result;
    while (query.step())
        result.push_back(
            {query.integer(0), query.text(1), query.text(2), static_cast<int>(query.integer(3))});
    if (!query.error().empty())
        return dbError(m_impl, "cannot read classes", query.error());
    return result;
}

} // namespace osprey::project
