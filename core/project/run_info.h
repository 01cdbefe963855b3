#pragma once
// RunInfo: a training run of a project as the listings show it (`osprey-cli runs list`, `diff`, `errors`,
// `push`, the GUI's run comparison): its row in the runs table, its folder (run::RunFolder) and its
// arguments. The one place that joins the runs table with the run folders; the files themselves are
// core/run's.
//
// Thread affinity: free functions on the calling thread (the Project's).

#include "common/expected.h"
#include "project/types.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace osprey::project {

class Project;

struct RunInfo {
    RunRecord record;
    std::filesystem::path dir;               ///< <project>/runs/<name>
    std::map<std::string, std::string> args; ///< args.yaml, or the config JSON when there is none
    /// The dataset snapshot's hash (core/quality), from the config JSON; empty for runs before snapshots.
    std::string snapshotHash;
    std::string model() const;
    std::string epochs() const;
};

/// Every run in the runs table, in the order they were added.
Expected<std::vector<RunInfo>> listRuns(const Project& project);
/// The run called `name` (the last one, should several rows share a name); the error (code "missing")
/// lists the names there are.
Expected<RunInfo> findRun(const Project& project, const std::string& name);
/// The folder of the run `name`: a run of the runs table, else a folder under <project>/runs (an older run,
/// or one copied in). The error lists the runs of the table.
Expected<std::filesystem::path> findRunFolder(const std::filesystem::path& projectFolder,
                                              const std::string& name);

} // namespace osprey::project
