#include "project/project_impl.h"

#include <algorithm>
#include <cmath>

namespace osprey::project {

namespace {

constexpr const char* kImageColumns =
    "i.id, i.path, i.width, i.height, i.hash, i.status, i.split, i.split_locked, i.added_at";
constexpr const char* kBoxColumns =
    "id, image_id, class_id, x1, y1, x2, y2, source, score, crowd, difficult, "
    "truncated, created_at, updated_at";

ImageRecord readImage(const sql::Statement& row) {
    ImageRecord image;
    image.id = row.integer(0);
    image.path = row.text(1);
    image.width = static_cast<int>(row.integer(2));
    image.height = static_cast<int>(row.integer(3));
    image.hash = row.text(4);
    image.status = imageStatusFromString(row.text(5)).value_or(ImageStatus::New);
    image.split = splitFromString(row.text(6)).value_or(Split::None);
    image.splitLocked = row.integer(7) != 0;
    image.addedAt = row.integer(8);
    return image;
}

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

// WHERE clause and its bindings for an ImageQuery.
struct Filter {
    std::string where;
    std::vector<std::string> texts;
    std::optional<std::int64_t> classId;
};

Filter buildFilter(const ImageQuery& query) {
    Filter filter;
    std::vector<std::string> terms;
    if (query.status) {
        terms.push_back("i.status = ?");
        filter.texts.emplace_back(toString(*query.status));
    }
    if (query.split) {
        terms.push_back("i.split = ?");
        filter.texts.emplace_back(toString(*query.split));
    }
    if (query.classId) {
        terms.push_back("EXISTS (SELECT 1 FROM boxes b WHERE b.image_id = i.id AND b.class_id = ?)");
        filter.classId = query.classId;
    }
    for (size_t t = 0; t < terms.size(); ++t)
        filter.where += (t == 0 ? " WHERE " : " AND ") + terms[t];
    return filter;
}

int bindFilter(sql::Statement& statement, const Filter& filter) {
    int index = 1;
    for (const auto& text : filter.texts)
        statement.bind(index++, text);
    if (filter.classId)
        statement.bind(index++, *filter.classId);
    return index;
}

constexpr std::size_t kBatchRows = 32;

/// Inserts `rows` into `table` with multi-row INSERT statements of up to kBatchRows rows, which is about
/// twice as fast as one statement per row on large imports, and appends the new rowids to `ids`. A batch
/// that fails is replayed row by row (SQLite undoes a failed statement), so the error names the row.
/// The rowids of one statement are consecutive (each is max(rowid) + 1) unless max(rowid) reaches
/// 2^63 - 1, when SQLite picks random ones: near that limit every row gets its own statement.
template <typename Row, typename Bind, typename Describe>
Status insertBatched(sql::Connection& db, std::string_view table, std::string_view columns, int columnCount,
                     std::span<const Row> rows, const Bind& bind, const Describe& describe,
                     std::vector<std::int64_t>& ids) {
    std::string tuple = "(";
    for (int c = 0; c < columnCount; ++c)
        tuple += c ? ", ?" : "?";
    tuple += ")";
    const std::string head = "INSERT INTO " + std::string(table) + "(" + std::string(columns) + ") VALUES ";
    std::size_t batchRows = rows.size() >= kBatchRows ? kBatchRows : 1;
    if (batchRows > 1) {
        sql::Statement maxId(db, "SELECT coalesce(max(id), 0) FROM " + std::string(table));
        if (!maxId.step())
            return fail(maxId.error().empty() ? "cannot read the largest id" : maxId.error());
        if (maxId.integer(0) > (std::int64_t{1} << 62))
            batchRows = 1;
    }
    sql::Statement single(db, head + tuple);
    const auto insertOne = [&](const Row& row) -> Status {
        single.reset();
        bind(single, 1, row);
        if (auto ran = single.run(); !ran)
            return fail(describe(row, ran.message()));
        ids.push_back(sqlite3_last_insert_rowid(db.handle()));
        return {};
    };
    std::size_t next = 0;
    if (batchRows > 1) {
        std::string sql = head;
        for (std::size_t r = 0; r < batchRows; ++r)
            sql += (r ? ", " : "") + tuple;
        sql::Statement batch(db, sql);
        for (; next + batchRows <= rows.size(); next += batchRows) {
            batch.reset();
            for (std::size_t r = 0; r < batchRows; ++r)
                bind(batch, static_cast<int>(r) * columnCount + 1, rows[next + r]);
            if (batch.run()) {
                const std::int64_t last = sqlite3_last_insert_rowid(db.handle());
                for (std::size_t r = 0; r < batchRows; ++r)
                    ids.push_back(last - static_cast<std::int64_t>(batchRows - 1 - r));
                continue;
            }
            for (std::size_t r = 0; r < batchRows; ++r)
                if (auto status = insertOne(rows[next + r]); !status)
                    return status;
            return fail("insert into " + std::string(table) + ": " + batch.error());
        }
    }
    for (; next < rows.size(); ++next)
        if (auto status = insertOne(rows[next]); !status)
            return status;
    return {};
}

bool validBox(double x1, double y1, double x2, double y2) {
    return std::isfinite(x1) && std::isfinite(y1) && std::isfinite(x2) && std::isfinite(y2);
}

} // namespace

Status Project::Impl::refreshStatus(std::int64_t imageId) {
    // Boxes make a new or verified-empty image labeled; losing the last box makes a labeled image new.
    sql::Statement update(
        db, "UPDATE images SET status = CASE "
            "WHEN (SELECT COUNT(*) FROM boxes WHERE image_id = images.id) > 0 "
            "  THEN CASE WHEN status IN ('new', 'verified_empty') THEN 'labeled' ELSE status END "
            "ELSE CASE WHEN status = 'labeled' THEN 'new' ELSE status END END "
            "WHERE id = ?");
    update.bind(1, imageId);
    return update.run();
}

Expected<std::int64_t> Project::addImage(const NewImage& image) {
    auto ids = addImages(std::span<const NewImage>(&image, 1));
    if (!ids)
        return fail(ids.error());
    return ids->front();
}

Expected<std::vector<std::int64_t>> Project::addImages(std::span<const NewImage> images) {
    std::vector<std::int64_t> ids;
    ids.reserve(images.size());
    auto status = m_impl->inTransaction([&]() -> Status {
        for (const auto& image : images)
            if (image.path.empty())
                return fail("image path: must not be empty");
        const std::int64_t now = nowSeconds();
        const auto bindImage = [now](sql::Statement& insert, int first, const NewImage& image) {
            insert.bind(first, image.path)
                .bind(first + 1, image.width)
                .bind(first + 2, image.height)
                .bind(first + 3, image.hash)
                .bindStatic(first + 4, toString(image.status))
                .bindStatic(first + 5, toString(image.split))
                .bind(first + 6, image.splitLocked ? 1 : 0)
                .bind(first + 7, now);
        };
        const auto describe = [](const NewImage& image, const std::string& message) {
            return "image '" + image.path +
                   "': " + (message.find("UNIQUE") != std::string::npos ? "already in the project" : message);
        };
        return insertBatched<NewImage>(m_impl->db, "images",
                                       "path, width, height, hash, status, split, split_locked, added_at", 8,
                                       images, bindImage, describe, ids);
    });
    if (!status)
        return fail(status.error());
    return ids;
}

Expected<ImageRecord> Project::image(std::int64_t imageId) const {
    sql::Statement query(m_impl->db,
                         std::string("SELECT ") + kImageColumns +
                             ", (SELECT COUNT(*) FROM boxes b WHERE b.image_id = i.id) FROM images i "
                             "WHERE i.id = ?");
    query.bind(1, imageId);
    if (!query.step())
        return fail("image id " + std::to_string(imageId) + ": no such image", "missing");
    ImageRecord record = readImage(query);
    record.boxCount = static_cast<int>(query.integer(9));
    auto frame = frameSource(imageId);
    if (!frame)
        return fail(frame.error());
    record.frame = std::move(*frame);
    return record;
}

Expected<std::vector<ImageRecord>> Project::listImages(const ImageQuery& query) const {
    const Filter filter = buildFilter(query);
    sql::Statement statement(m_impl->db,
                             std::string("SELECT ") + kImageColumns +
                                 ", (SELECT COUNT(*) FROM boxes b WHERE b.image_id = i.id) FROM images i" +
                                 filter.where + " ORDER BY i.id LIMIT ? OFFSET ?");
    const int next = bindFilter(statement, filter);
    statement.bind(next, static_cast<std::int64_t>(query.limit > 0 ? query.limit : -1));
    statement.bind(next + 1, query.offset);
    std::vector<ImageRecord> result;
    result.reserve(query.limit > 0 ? static_cast<size_t>(query.limit) : 0);
    while (statement.step()) {
        result.push_back(readImage(statement));
        result.back().boxCount = static_cast<int>(statement.integer(9));
    }
    if (!statement.error().empty())
        return dbError(*m_impl, "cannot list images", statement.error());
    return result;
}

Expected<std::int64_t> Project::countImages(const ImageQuery& query) const {
    const Filter filter = buildFilter(query);
    sql::Statement statement(m_impl->db, "SELECT COUNT(*) FROM images i" + filter.where);
    bindFilter(statement, filter);
    if (!statement.step())
        return dbError(*m_impl, "cannot count images", statement.error());
    return statement.integer(0);
}

Expected<std::int64_t> Project::imageRow(std::int64_t imageId, const ImageQuery& query) const {
    const Filter filter = buildFilter(query);
    const std::string match = (filter.where.empty() ? " WHERE " : filter.where + " AND ");
    sql::Statement exists(m_impl->db, "SELECT COUNT(*) FROM images i" + match + "i.id = ?");
    exists.bind(bindFilter(exists, filter), imageId);
    if (!exists.step() || exists.integer(0) == 0)
        return fail("image id " + std::to_string(imageId) + ": not in the current list (check the filters)",
                    "missing");
    sql::Statement before(m_impl->db, "SELECT COUNT(*) FROM images i" + match + "i.id < ?");
    before.bind(bindFilter(before, filter), imageId);
    if (!before.step())
        return dbError(*m_impl, "cannot locate image", before.error());
    return before.integer(0);
}

Status Project::setImageStatus(std::int64_t imageId, ImageStatus status) {
    return m_impl->inTransaction([&]() -> Status {
        sql::Statement update(m_impl->db, "UPDATE images SET status = ? WHERE id = ?");
        update.bind(1, toString(status)).bind(2, imageId);
        if (auto ran = update.run(); !ran)
            return ran;
        if (sqlite3_changes(m_impl->db.handle()) == 0)
            return fail("image id " + std::to_string(imageId) + ": no such image");
        return {};
    });
}

Status Project::setImageSplit(std::int64_t imageId, Split split, bool locked) {
    return m_impl->inTransaction([&]() -> Status {
        sql::Statement update(m_impl->db, "UPDATE images SET split = ?, split_locked = ? WHERE id = ?");
        update.bind(1, toString(split)).bind(2, locked ? 1 : 0).bind(3, imageId);
        if (auto ran = update.run(); !ran)
            return ran;
        if (sqlite3_changes(m_impl->db.handle()) == 0)
            return fail("image id " + std::to_string(imageId) + ": no such image");
        return {};
    });
}

Status Project::setImageSize(std::int64_t imageId, int width, int height) {
    return m_impl->inTransaction([&]() -> Status {
        sql::Statement update(m_impl->db, "UPDATE images SET width = ?, height = ? WHERE id = ?");
        update.bind(1, width).bind(2, height).bind(3, imageId);
        return update.run();
    });
}

Status Project::deleteImage(std::int64_t imageId) {
    return m_impl->inTransaction([&]() -> Status {
        sql::Statement remove(m_impl->db, "DELETE FROM images WHERE id = ?");
        remove.bind(1, imageId);
        if (auto ran = remove.run(); !ran)
            return ran;
        if (sqlite3_changes(m_impl->db.handle()) == 0)
            return fail("image id " + std::to_string(imageId) + ": no such image");
        return {};
    });
}

// ---- boxes --------------------------------------------------------------------------------------

Expected<std::int64_t> Project::addBox(const NewBox& box) {
    auto ids = addBoxes(std::span<const NewBox>(&box, 1));
    if (!ids)
        return fail(ids.error());
    return ids->front();
}

Expected<std::vector<std::int64_t>> Project::addBoxes(std::span<const NewBox> boxes) {
    std::vector<std::int64_t> ids;
    ids.reserve(boxes.size());
    auto status = m_impl->inTransaction([&]() -> Status {
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
        if (auto inserted = insertBatched<NewBox>(m_impl->db, "boxes",
                                                  "image_id, class_id, x1, y1, x2, y2, source, score, crowd, "
                                                  "difficult, truncated, created_at, updated_at",
                                                  13, boxes, bindBox, describe, ids);
            !inserted)
            return inserted;
        // Adding boxes can only turn new or verified-empty images into labeled ones. Large batches (imports)
        // use one statement over the id range: status follows boxes everywhere, so that is still exact.
        if (touched.size() > 256) {
            const auto [low, high] = std::minmax_element(touched.begin(), touched.end());
            sql::Statement label(m_impl->db,
                                 "UPDATE images SET status = 'labeled' WHERE id BETWEEN ? AND ? AND "
                                 "status IN ('new', 'verified_empty') AND EXISTS (SELECT 1 FROM boxes b "
                                 "WHERE b.image_id = images.id)");
            label.bind(1, *low).bind(2, *high);
            if (auto ran = label.run(); !ran)
                return ran;
        } else {
            sql::Statement label(m_impl->db,
                                 "UPDATE images SET status = 'labeled' WHERE id = ? AND status IN "
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

Status Project::updateBox(const BoxRecord& box) {
    if (!validBox(box.x1, box.y1, box.x2, box.y2))
        return fail("box id " + std::to_string(box.id) + ": coordinates must be finite");
    return m_impl->inTransaction([&]() -> Status {
        sql::Statement update(m_impl->db,
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
        if (sqlite3_changes(m_impl->db.handle()) == 0)
            return fail("box id " + std::to_string(box.id) + ": no such box");
        return {};
    });
}

Status Project::deleteBox(std::int64_t boxId) {
    return m_impl->inTransaction([&]() -> Status {
        sql::Statement find(m_impl->db, "SELECT image_id FROM boxes WHERE id = ?");
        find.bind(1, boxId);
        if (!find.step())
            return fail("box id " + std::to_string(boxId) + ": no such box");
        const std::int64_t imageId = find.integer(0);
        sql::Statement remove(m_impl->db, "DELETE FROM boxes WHERE id = ?");
        remove.bind(1, boxId);
        if (auto ran = remove.run(); !ran)
            return ran;
        return m_impl->refreshStatus(imageId);
    });
}

Expected<BoxRecord> Project::box(std::int64_t boxId) const {
    sql::Statement query(m_impl->db, std::string("SELECT ") + kBoxColumns + " FROM boxes WHERE id = ?");
    query.bind(1, boxId);
    if (!query.step())
        return fail("box id " + std::to_string(boxId) + ": no such box", "missing");
    return readBox(query);
}

Expected<std::vector<BoxRecord>> Project::boxes(std::int64_t imageId) const {
    sql::Statement query(m_impl->db,
                         std::string("SELECT ") + kBoxColumns + " FROM boxes WHERE image_id = ? ORDER BY id");
    query.bind(1, imageId);
    std::vector<BoxRecord> result;
    while (query.step())
        result.push_back(readBox(query));
    if (!query.error().empty())
        return dbError(*m_impl, "cannot read boxes", query.error());
    return result;
}

Status Project::forEachBox(const std::function<Status(const BoxRecord&)>& visit) const {
    sql::Statement query(m_impl->db,
                         std::string("SELECT ") + kBoxColumns + " FROM boxes ORDER BY image_id, id");
    while (query.step())
        if (auto visited = visit(readBox(query)); !visited)
            return visited;
    if (!query.error().empty())
        return dbError(*m_impl, "cannot read boxes", query.error());
    return {};
}

// ---- statistics ---------------------------------------------------------------------------------

Expected<std::vector<ClassSplitCount>> Project::classSplitCounts() const {
    sql::Statement query(m_impl->db,
                         "SELECT b.class_id, i.split, COUNT(DISTINCT b.image_id), COUNT(*) FROM boxes b "
                         "JOIN images i ON i.id = b.image_id GROUP BY b.class_id, i.split");
    std::vector<ClassSplitCount> result;
    while (query.step())
        result.push_back({query.integer(0), splitFromString(query.text(1)).value_or(Split::None),
                          query.integer(2), query.integer(3)});
    if (!query.error().empty())
        return dbError(*m_impl, "cannot count boxes", query.error());
    return result;
}

Expected<std::vector<std::pair<Split, std::int64_t>>> Project::splitCounts() const {
    sql::Statement query(m_impl->db, "SELECT split, COUNT(*) FROM images GROUP BY split");
    std::vector<std::pair<Split, std::int64_t>> result;
    while (query.step())
        result.emplace_back(splitFromString(query.text(0)).value_or(Split::None), query.integer(1));
    if (!query.error().empty())
        return dbError(*m_impl, "cannot count images", query.error());
    return result;
}

} // namespace osprey::project
