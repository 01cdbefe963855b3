#pragma once
// Private to core/project: insertBatched, the multi-row INSERT that ImageStore and BoxStore add many rows
// with.

#include "common/expected.h"
#include "common/sqlite.h"

#include <sqlite3.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace osprey::project {

inline constexpr std::size_t kBatchRows = 32;

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

} // namespace osprey::project
