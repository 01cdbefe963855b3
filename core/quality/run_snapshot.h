#pragma once
// The dataset snapshot of a training run. At the start of every run the trainer calls recordRunSnapshot:
// it writes <run>/snapshot.bin and the caller stores the hash in the run's `config` JSON in the runs table
// under run::kSnapshotConfigKey (no schema change: the column already holds the run's JSON). A run is
// listed and found by core/project (project/run_info.h); loadRunSnapshot reads its snapshot back.
//
// Thread affinity: free functions; each uses the Project on the calling thread.

#include "common/expected.h"
#include "project/project.h"
#include "project/run_info.h"
#include "quality/dataset_snapshot.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace osprey::quality {

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

/// For a run started from the weights of another run of the same project (`weights` is
/// `<project>/runs/<run>/weights/<file>.pt` and that run has a snapshot.bin, as when retraining): one line on
/// what changed in the data from that run's snapshot to `snapshotFile` (the new run's,
/// `<project>/runs/<new>/snapshot.bin`), "the data since run X (dataset snapshot a -> b): 12 images added,
/// ...", or that it is the same; nullopt when the weights are not a run's of this project or that run has
/// no snapshot.
/// A snapshot that cannot be read gives a line saying so, naming the file.
std::optional<std::string> dataSinceWeightsRun(const std::filesystem::path& weights,
                                               const std::filesystem::path& snapshotFile);

/// The run's snapshot.bin, checked against the hash in the runs table.
Expected<DatasetSnapshot> loadRunSnapshot(const project::RunInfo& run);

} // namespace osprey::quality
