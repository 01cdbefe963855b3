#pragma once
// The dataset snapshot of a training run. At the start of every run the trainer calls recordRunSnapshot:
// it writes <run>/snapshot.bin and the caller stores the hash in the run's `config` JSON in the runs table
// under "dataset_snapshot" (no schema change: the column already holds the run's JSON). Reading a run back
// (`osprey-cli runs list/diff`, the GUI runs table) goes through the functions below.
//
// Thread affinity: free functions; each uses the Project on the calling thread.

#include "common/expected.h"
#include "project/project.h"
#include "quality/dataset_snapshot.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace osprey::quality {

/// Key of the snapshot hash in the runs table's config JSON and in run_started's config.
inline constexpr const char* kSnapshotConfigKey = "dataset_snapshot";

struct RecordedSnapshot {
    SnapshotSummary summary;
    std::filesystem::path file;
    bool kept = false; ///< a resumed run keeps the snapshot of its start (the file was there)
    /// For a kept snapshot whose data differs from the project now: a warning to log; empty otherwise.
    std::string warning;
    double elapsedS = 0;
};

/// Writes `runDir`/snapshot.bin from the project now, or keeps an existing one (resume) and says in
/// `warning` when the project's data has changed since.
Expected<RecordedSnapshot> recordRunSnapshot(const project::Project& project,
                                             const std::filesystem::path& runDir);

/// A run of the project as `runs list` and `runs diff` show it.
struct RunInfo {
    project::RunRecord record;
    std::filesystem::path dir;               ///< <project>/runs/<name>
    std::map<std::string, std::string> args; ///< args.yaml, or the config JSON when there is none
    std::string snapshotHash; ///< from the config JSON (else snapshot.bin); empty for runs before snapshots
    std::string model() const;
    std::string epochs() const;
};

/// Every run in the runs table, in the order they were added.
Expected<std::vector<RunInfo>> listRuns(const project::Project& project);
/// The run called `name` (the last one, should several rows share a name); the error lists the names.
Expected<RunInfo> findRun(const project::Project& project, const std::string& name);
/// The run's snapshot.bin, checked against the hash in the runs table.
Expected<DatasetSnapshot> loadRunSnapshot(const RunInfo& run);

} // namespace osprey::quality
