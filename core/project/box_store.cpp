#include "project/project_impl.h"

#include "project/insert_batched_impl.h"

#include <algorithm>
#include <cmath>

namespace osprey::project {

namespace {

constexpr const char* kBoxColumns =
    "id, image_id, class_id, x1, y1, x2, y2, source, score, crowd, difficult, "
    "truncated, created_at, updated_at";

BoxRecord readBox(const sql::Statement& row) {
    BoxRecord box;
    box.id = row.integer(0);
    box.imageId = row.integer(1);
    box.classId = row.integer(2);
    box.x1 = row.real(3);
    box.y1 = row.real(4);
    box.x2 = row.real(5);
    box.y2 = row.real(6);
    box.source = boxSourceFromString(row.text(7)).value_or(BoxSource::Manual);
    box.score = row.optionalReal(8);
    box.flags.crowd = row.integer(9) != 0;
    box.flags.difficult = row.integer(10) != 0;
    box.flags.truncated = row.integer(11) != 0;
    box.createdAt = row.integer(12);
    box.updatedAt = row.integer(13);
    return box;
}

bool validBox(double x1, double y1, double x2, double y2) {
    return std::isfinite(x1) && std::isfinite(y1) && std::isfinite(x2) && std::isfinite(y2);
}

} // namespace

Expected<std::int64_t> BoxStore::add(const NewBox& box) {
    auto ids = addAll(std::span<const NewBox>(&box, 1));
    if (!ids)
        return fail(ids.error());
    return ids->front();
}

Expected<std::vector<std::int64_t>> BoxStore::addAll(std::span<const NewBox> boxes) {
    std::vector<std::int64_t> ids;
    ids.reserve(boxes.size());
    auto status = m_impl.inTransaction([&]() -> Status {
        std::vector<std::int64_t> touched;
        std::int64_t lastImage = -1;
        for (const auto& box : boxes) {
            if (!validBox(box.x1, box.y1, box.x2, box.y2))
                return fail("box on image id " + std::to_string(box.imageId) +
                            ": coordinates must be finite");
            if (box.imageId != lastImage) {
                touched.push_back(box.imageId);
                lastImage = box.imageId;
            }
        }
        const std::int64_t now = nowSeconds();
        const auto bindBox = [now](sql::Statement& insert, int first, const NewBox& box) {
            insert.bind(first, box.imageId)
                .bind(first + 1, box.classId)
                .bind(first + 2, std::min(box.x1, box.x2))
                .bind(first + 3, std::min(box.y1, box.y2))
                .bind(first + 4, std::max(box.x1, box.x2))
                .bind(first + 5, std::max(box.y1, box.y2))
                .bindStatic(first + 6, toString(box.source))
                .bind(first + 7, box.score)
                .bind(first + 8, box.flags.crowd ? 1 : 0)
                .bind(first + 9, box.flags.difficult ? 1 : 0)
                .bind(first + 10, box.flags.truncated ? 1 : 0)
                .bind(first + 11, now)
                .bind(first + 12, now);
        };
        const auto describe = [](const NewBox& box, const std::string& message) {
            return "box on image id " + std::to_string(box.imageId) + ": " +
                   (message.find("FOREIGN KEY") != std::string::npos ? "unknown image or class id" : message);
        };
        if (auto inserted = insertBatched<NewBox>(m_impl.db, "boxes",
                                                  "image_id, class_id, x1, y1, x2, y2, source, score, crowd, "
                                                  "difficult, truncated, created_at, updated_at",
                                                  13, boxes, bindBox, describe, ids);
            !inserted)
            return inserted;
        // Adding boxes can only turn new or verified-empty images into labeled ones. Large batches (imports)
        // use one statement over the id range: status follows boxes everywhere, so that is still exact.
        if (touched.size() > 256) {
            const auto [low, high] = std::minmax_element(touched.begin(), touched.end());
            sql::Statement label(m_impl.db,
                                 "UPDATE images SET status = 'labeled' WHERE id BETWEEN ? AND ? AND "
                                 "status IN ('new', 'verified_empty') AND EXISTS (SELECT 1 FROM boxes b "
                                 "WHERE b.image_id = images.id)");
            label.bind(1, *low).bind(2, *high);
            if (auto ran = label.run(); !ran)
                return ran;
        } else {
            sql::Statement label(m_impl.db, "UPDATE images SET status = 'labeled' WHERE id = ? AND status IN "
                                            "('new', 'verified_empty')");
            for (const auto imageId : touched) {
                label.reset();
                label.bind(1, imageId);
                if (auto ran = label.run(); !ran)
                    return ran;
            }
        }
        return {};
    });
    if (!status)
        return fail(status.error());
    return ids;
}

Status BoxStore::update(const BoxRecord& box) {
    if (!validBox(box.x1, box.y1, box.x2, box.y2))
        return fail("box id " + std::to_string(box.id) + ": coordinates must be finite");
    return m_impl.inTransaction([&]() -> Status {
        sql::Statement update(m_impl.db,
                              "UPDATE boxes SET class_id = ?, x1 = ?, y1 = ?, x2 = ?, y2 = ?, source = ?, "
                              "score = ?, crowd = ?, difficult = ?, truncated = ?, updated_at = ? "
                              "WHERE id = ?");
        update.bind(1, box.classId)
            .bind(2, std::min(box.x1, box.x2))
            .bind(3, std::min(box.y1, box.y2))
            .bind(4, std::max(box.x1, box.x2))
            .bind(5, std::max(box.y1, box.y2))
            .bind(6, toString(box.source))
            .bind(7, box.score)
            .bind(8, box.flags.crowd ? 1 : 0)
            .bind(9, box.flags.difficult ? 1 : 0)
            .bind(10, box.flags.truncated ? 1 : 0)
            .bind(11, nowSeconds())
            .bind(12, box.id);
        if (auto ran = update.run(); !ran)
            return fail("box id " + std::to_string(box.id) + ": " + ran.message());
        if (sqlite3_changes(m_impl.db.handle()) == 0)
            return fail("box id " + std::to_string(box.id) + ": no such box");
        return {};
    });
}

Status BoxStore::remove(std::int64_t boxId) {
    return m_impl.inTransaction([&]() -> Status {
        sql::Statement find(m_impl.db, "SELECT image_id FROM boxes WHERE id = ?");
        find.bind(1, boxId);
        if (!find.step())
            return fail("box id " + std::to_string(boxId) + ": no such box");
        const std::int64_t imageId = find.integer(0);
        sql::Statement remove(m_impl.db, "DELETE FROM boxes WHERE id = ?");
        remove.bind(1, boxId);
        if (auto ran = remove.run(); !ran)
            return ran;
        return m_impl.refreshStatus(imageId);
    });
}

Expected<BoxRecord> BoxStore::get(std::int64_t boxId) const {
    sql::Statement query(m_impl.db, std::string("SELECT ") + kBoxColumns + " FROM boxes WHERE id = ?");
    query.bind(1, boxId);
    if (!query.step())
        return fail("box id " + std::to_string(boxId) + ": no such box", "missing");
    return readBox(query);
}

Expected<std::vector<BoxRecord>> BoxStore::ofImage(std::int64_t imageId) const {
    sql::Statement query(m_impl.db,
                         std::string("SELECT ") + kBoxColumns + " FROM boxes WHERE image_id = ? ORDER BY id");
    query.bind(1, imageId);
    std::vector<BoxRecord> result;
    while (query.step())
        result.push_back(readBox(query));
    if (!query.error().empty())
        return dbError(m_impl, "cannot read boxes", query.error());
    return result;
}

Status BoxStore::forEach(const std::function<Status(const BoxRecord&)>& visit) const {
    sql::Statement query(m_impl.db,
                         std::string("SELECT ") + kBoxColumns + " FROM boxes ORDER BY image_id, id");
    while (query.step())
        if (auto visited = visit(readBox(query)); !visited)
            return visited;
    if (!query.error().empty())
        return dbError(m_impl, "cannot read boxes", query.error());
    return {};
}

Expected<std::vector<ClassSplitCount>> BoxStore::classSplitCounts() const {
    sql::Statement query(m_impl.db,
                         "SELECT b.class_id, i.split, COUNT(DISTINCT b.image_id), COUNT(*) FROM boxes b "
                         "JOIN images i ON i.id = b.image_id GROUP BY b.class_id, i.split");
    std::vector<ClassSplitCount> result;
    while (query.step())
        result.push_back({query.integer(0), splitFromString(query.text(1)).value_or(Split::None),
                          query.integer(2), query.integer(3)});
    if (!query.error().empty())
        return dbError(m_impl, "cannot count boxes", query.error());
    return result;
}

} // namespace osprey::project
