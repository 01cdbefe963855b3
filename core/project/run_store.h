#pragma once
// RunStore: the project's training runs (the `runs` table), one row per run with its config JSON, status
// and best result; a run's files are core/run's RunFolder, and RunInfo joins the two. Reached through
// Project::runs(); every write is one transaction (or joins Project::transaction). Thread affinity: the
// Project's.

#include "common/expected.h"
#include "project/types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace osprey::project {

struct ProjectImpl;

class RunStore {
public:
    RunStore(const RunStore&) = delete;
    RunStore& operator=(const RunStore&) = delete;

    /// Adds a running run; an empty `configJson` is stored as {}.
    Expected<std::int64_t> add(const std::string& name, const std::string& configJson);
    /// Updates the name, config, status, finish time and best result of an existing run.
    Status update(const RunRecord& run);
    /// Every run, in the order they were added.
    Expected<std::vector<RunRecord>> list() const;

private:
    friend struct ProjectImpl;
    explicit RunStore(ProjectImpl& impl) : m_impl(impl) {}
    ProjectImpl& m_impl;
};

} // namespace osprey::project
