#pragma once
// TakenFileStore: the ledger of the files watched folders took (the `taken_files` table; osprey-cli
// import ... watch=true). Reached through Project::takenFiles(). Thread affinity: the Project's.

#include "common/expected.h"
#include "project/types.h"

#include <vector>

namespace osprey::project {

struct ProjectImpl;

class TakenFileStore {
public:
    TakenFileStore(const TakenFileStore&) = delete;
    TakenFileStore& operator=(const TakenFileStore&) = delete;

    /// Records that a watched folder took `file`. Call it inside the transaction that adds the file's
    /// images, so that a kill at any moment leaves both or neither.
    Status record(const TakenFile& file);
    /// Every file recorded.
    Expected<std::vector<TakenFile>> list() const;

private:
    friend struct ProjectImpl;
    explicit TakenFileStore(ProjectImpl& impl) : m_impl(impl) {}
    ProjectImpl& m_impl;
};

} // namespace osprey::project
