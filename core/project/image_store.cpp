#include "project/project_impl.h"

#include "project/insert_batched_impl.h"

#include <optional>
#include <string>
#include <vector>

namespace osprey::project {

namespace {

constexpr const char* kImageColumns =
    "i.id, i.path, i.width, i.height, i.hash, i.status, i.split, i.split_locked, i.added_at";

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

} // namespace

Expected<std::int64_t> ImageStore::add(const NewImage& image) {
    auto ids = addAll(std::span<const NewImage>(&image, 1));
    if (!ids)
        return fail(ids.error());
    return ids->front();
}

Expected<std::vector<std::int64_t>> ImageStore::addAll(std::span<const NewImage> images) {
    std::vector<std::int64_t> ids;
    ids.reserve(images.size());
    auto status = m_impl.inTransaction([&]() -> Status {
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
        return insertBatched<NewImage>(m_impl.db, "images",
                                       "path, width, height, hash, status, split, split_locked, added_at", 8,
                                       images, bindImage, describe, ids);
    });
    if (!status)
        return fail(status.error());
    return ids;
}

Expected<ImageRecord> ImageStore::get(std::int64_t imageId) const {
    sql::Statement query(m_impl.db,
                         std::string("SELECT ") + kImageColumns +
                             ", (SELECT COUNT(*) FROM boxes b WHERE b.image_id = i.id) FROM images i "
                             "WHERE i.id = ?");
    query.bind(1, imageId);
    if (!query.step())
        return fail("image id " + std::to_string(imageId) + ": no such image", "missing");
    ImageRecord record = readImage(query);
    record.boxCount = static_cast<int>(query.integer(9));
    auto frame = m_impl.frames.source(imageId);
    if (!frame)
        return fail(frame.error());
    record.frame = std::move(*frame);
    return record;
}

Expected<std::vector<ImageRecord>> ImageStore::list(const ImageQuery& query) const {
    const Filter filter = buildFilter(query);
    sql::Statement statement(m_impl.db,
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
        return dbError(m_impl, "cannot list images", statement.error());
    return result;
}

Expected<std::int64_t> ImageStore::count(const ImageQuery& query) const {
    const Filter filter = buildFilter(query);
    sql::Statement statement(m_impl.db, "SELECT COUNT(*) FROM images i" + filter.where);
    bindFilter(statement, filter);
    if (!statement.step())
        return dbError(m_impl, "cannot count images", statement.error());
    return statement.integer(0);
}

Expected<std::int64_t> ImageStore::row(std::int64_t imageId, const ImageQuery& query) const {
    const Filter filter = buildFilter(query);
    const std::string match = (filter.where.empty() ? " WHERE " : filter.where + " AND ");
    sql::Statement exists(m_impl.db, "SELECT COUNT(*) FROM images i" + match + "i.id = ?");
    exists.bind(bindFilter(exists, filter), imageId);
    if (!exists.step() || exists.integer(0) == 0)
        return fail("image id " + std::to_string(imageId) + ": not in the current list (check the filters)",
                    "missing");
    sql::Statement before(m_impl.db, "SELECT COUNT(*) FROM images i" + match + "i.id < ?");
    before.bind(bindFilter(before, filter), imageId);
    if (!before.step())
        return dbError(m_impl, "cannot locate image", before.error());
    return before.integer(0);
}

Status ImageStore::setStatus(std::int64_t imageId, ImageStatus status) {
    return m_impl.inTransaction([&]() -> Status {
        sql::Statement update(m_impl.db, "UPDATE images SET status = ? WHERE id = ?");
        update.bind(1, toString(status)).bind(2, imageId);
        if (auto ran = update.run(); !ran)
            return ran;
        if (sqlite3_changes(m_impl.db.handle()) == 0)
            return fail("image id " + std::to_string(imageId) + ": no such image");
        return {};
    });
}

Status ImageStore::setSplit(std::int64_t imageId, Split split, bool locked) {
    return m_impl.inTransaction([&]() -> Status {
        sql::Statement update(m_impl.db, "UPDATE images SET split = ?, split_locked = ? WHERE id = ?");
        update.bind(1, toString(split)).bind(2, locked ? 1 : 0).bind(3, imageId);
        if (auto ran = update.run(); !ran)
            return ran;
        if (sqlite3_changes(m_impl.db.handle()) == 0)
            return fail("image id " + std::to_string(imageId) + ": no such image");
        return {};
    });
}

Status ImageStore::setSize(std::int64_t imageId, int width, int height) {
    return m_impl.inTransaction([&]() -> Status {
        sql::Statement update(m_impl.db, "UPDATE images SET width = ?, height = ? WHERE id = ?");
        update.bind(1, width).bind(2, height).bind(3, imageId);
        return update.run();
    });
}

Status ImageStore::remove(std::int64_t imageId) {
    return m_impl.inTransaction([&]() -> Status {
        sql::Statement remove(m_impl.db, "DELETE FROM images WHERE id = ?");
        remove.bind(1, imageId);
        if (auto ran = remove.run(); !ran)
            return ran;
        if (sqlite3_changes(m_impl.db.handle()) == 0)
            return fail("image id " + std::to_string(imageId) + ": no such image");
        return {};
    });
}

Expected<std::vector<std::pair<Split, std::int64_t>>> ImageStore::splitCounts() const {
    sql::Statement query(m_impl.db, "SELECT split, COUNT(*) FROM images GROUP BY split");
    std::vector<std::pair<Split, std::int64_t>> result;
    while (query.step())
        result.emplace_back(splitFromString(query.text(0)).value_or(Split::None), query.integer(1));
    if (!query.error().empty())
        return dbError(m_impl, "cannot count images", query.error());
    return result;
}

} // namespace osprey::project
