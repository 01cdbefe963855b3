#include "quality/run_snapshot.h"

#include "quality/snapshot_diff.h"
#include "run/run_folder.h"

#include <chrono>

namespace osprey::quality {

namespace fs = std::filesystem;

Expected<RecordedSnapshot> recordRunSnapshot(const project::Project& project, const fs::path& runDir) {
    const auto start = std::chrono::steady_clock::now();
    RecordedSnapshot recorded;
    recorded.file = run::RunFolder(runDir).snapshot();
    std::error_code error;
    if (fs::exists(recorded.file, error)) {
        auto kept = readSnapshotHash(recorded.file);
        if (!kept)
            return fail(kept.error());
        auto now = projectSnapshotHash(project);
        if (!now)
            return fail(now.error());
        recorded.kept = true;
        recorded.summary.hash = *kept;
        recorded.summary.fileBytes = fs::file_size(recorded.file, error);
        if (*now != *kept)
            recorded.warning = "the project's data changed since this run started (dataset snapshot " +
                               shortHash(*kept) + ", now " + shortHash(*now) + "); " +
                               recorded.file.string() + " keeps the data of the start";
    } else {
        auto written = writeSnapshot(project, recorded.file);
        if (!written)
            return fail(written.error());
        recorded.summary = std::move(*written);
    }
    recorded.elapsedS = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return recorded;
}

Expected<DatasetSnapshot> loadRunSnapshot(const project::RunInfo& run) {
    const fs::path file = run::RunFolder(run.dir).snapshot();
    std::error_code error;
    if (!fs::exists(file, error))
        return fail("run '" + run.record.name + "' has no dataset snapshot (" + file.string() +
                        " is missing; runs recorded before snapshots existed have none)",
                    "missing");
    auto snapshot = readSnapshot(file);
    if (!snapshot)
        return fail(snapshot.error());
    if (!run.snapshotHash.empty() && run.snapshotHash != snapshot->hash)
        return fail(file.string() + ": holds dataset snapshot " + shortHash(snapshot->hash) +
                        " but the runs table records " + shortHash(run.snapshotHash) + " for run '" +
                        run.record.name + "'",
                    "corrupt");
    return snapshot;
}

std::optional<std::string> dataSinceWeightsRun(const fs::path& weights, const fs::path& snapshotFile) {
    const auto parent = run::RunFolder::ofWeights(weights);
    std::error_code error;
    // Only a run of the same project: another project's data is not an earlier state of this one's.
    if (!parent || !fs::exists(parent->snapshot(), error) ||
        !fs::equivalent(parent->dir().parent_path(), snapshotFile.parent_path().parent_path(), error))
        return std::nullopt;
    auto before = readSnapshot(parent->snapshot());
    auto now = before ? readSnapshot(snapshotFile) : before;
    if (!before || !now)
        return "cannot compare the data with run " + parent->name() +
               "'s: " + (!before ? before.message() : now.message());
    const SnapshotDiff diff = diffSnapshots(*before, *now);
    const std::string head =
        "the data since run " + parent->name() + " (dataset snapshot " + shortHash(diff.hashA);
    if (diff.sameData())
        return head + "): the same; this run trains on nothing new";
    const std::string changes = changeSummary(diff);
    return head + " -> " + shortHash(diff.hashB) +
           "): " + (changes.empty() ? "the hashes differ in what is not compared" : changes) +
           " (`osprey-cli runs diff a=" + parent->name() +
           " b=" + snapshotFile.parent_path().filename().string() + "` lists them)";
}

} // namespace osprey::quality
