#include "project/project_impl.h"

namespace osprey::project {

Expected<std::int64_t> RunStore::add(const std::string& name, const std::string& configJson) {
    std::int64_t id = 0;
    auto status = m_impl.inTransaction([&]() -> Status {
        sql::Statement insert(m_impl.db,
                              "INSERT INTO runs(name, config, status, started_at) VALUES(?, ?, ?, ?)");
        insert.bind(1, name)
            .bind(2, configJson.empty() ? "{}" : configJson)
            .bind(3, toString(RunStatus::Running));
        insert.bind(4, nowSeconds());
        if (auto ran = insert.run(); !ran)
            return fail("run '" + name + "': " + ran.message());
        id = sqlite3_last_insert_rowid(m_impl.db.handle());
        return {};
    });
    if (!status)
        return fail(status.error());
    return id;
}

Status RunStore::update(const RunRecord& run) {
    return m_impl.inTransaction([&]() -> Status {
        sql::Statement update(m_impl.db, "UPDATE runs SET name = ?, config = ?, status = ?, finished_at = ?, "
                                         "best_epoch = ?, best_fitness = ?, weights_path = ? WHERE id = ?");
        update.bind(1, run.name)
            .bind(2, run.config.empty() ? "{}" : run.config)
            .bind(3, toString(run.status));
        if (run.finishedAt)
            update.bind(4, *run.finishedAt);
        else
            update.bindNull(4);
        if (run.bestEpoch)
            update.bind(5, *run.bestEpoch);
        else
            update.bindNull(5);
        update.bind(6, run.bestFitness).bind(7, run.weightsPath).bind(8, run.id);
        if (auto ran = update.run(); !ran)
            return fail("run id " + std::to_string(run.id) + ": " + ran.message());
        if (sqlite3_changes(m_impl.db.handle()) == 0)
            return fail("run id " + std::to_string(run.id) + ": no such run");
        return {};
    });
}

Expected<std::vector<RunRecord>> RunStore::list() const {
    sql::Statement query(m_impl.db, "SELECT id, name, config, status, started_at, finished_at, best_epoch, "
                                    "best_fitness, weights_path FROM runs ORDER BY id");
    std::vector<RunRecord> result;
    while (query.step()) {
        RunRecord run;
        run.id = query.integer(0);
        run.name = query.text(1);
        run.config = query.text(2);
        run.status = runStatusFromString(query.text(3)).value_or(RunStatus::Failed);
        run.startedAt = query.integer(4);
        run.finishedAt = query.optionalInteger(5);
        if (auto epoch = query.optionalInteger(6))
            run.bestEpoch = static_cast<int>(*epoch);
        run.bestFitness = query.optionalReal(7);
        run.weightsPath = query.text(8);
        result.push_back(std::move(run));
    }
    if (!query.error().empty())
        return dbError(m_impl, "cannot read runs", query.error());
    return result;
}

} // namespace osprey::project
