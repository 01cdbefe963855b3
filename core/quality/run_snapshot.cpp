#include "quality/run_snapshot.h"

#include "run/run_files.h"
#include "run/run_folder.h"

#include <nlohmann/json.hpp>

#include <chrono>

namespace osprey::quality {

namespace fs = std::filesystem;

namespace {

/// The config JSON's values as text (the trainer writes strings; older rows may hold numbers).
std::map<std::string, std::string> configArgs(const std::string& config) {
    std::map<std::string, std::string> args;
    const auto json = nlohmann::json::parse(config, nullptr, false);
    if (!json.is_object())
        return args;
    for (const auto& [key, value] : json.items())
        args[key] = value.is_string() ? value.get<std::string>() : value.dump();
    return args;
}

RunInfo infoOf(const project::Project& project, const project::RunRecord& record) {
    RunInfo info;
    info.record = record;
    info.dir = project.folder() / "runs" / record.name;
    auto config = configArgs(record.config);
    if (const auto found = config.find(kSnapshotConfigKey); found != config.end()) {
        info.snapshotHash = found->second;
        config.erase(found);
    }
    std::error_code error;
    if (info.snapshotHash.empty() && fs::exists(run::RunFolder(info.dir).snapshot(), error)) {
        // A run started before snapshots, resumed since: the file is there, its row has no hash.
        if (auto hash = readSnapshotHash(run::RunFolder(info.dir).snapshot()))
            info.snapshotHash = *hash;
    }
    auto yaml = run::readArgsYaml(run::RunFolder(info.dir).args());
    info.args = yaml ? std::move(*yaml) : std::move(config);
    info.args.erase(kSnapshotConfigKey);
    return info;
}

} // namespace

std::string RunInfo::model() const {
    const auto found = args.find("model");
    return found == args.end() ? std::string() : found->second;
}

std::string RunInfo::epochs() const {
    const auto found = args.find("epochs");
    return found == args.end() ? std::string() : found->second;
}

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

Expected<std::vector<RunInfo>> listRuns(const project::Project& project) {
    auto runs = project.runs();
    if (!runs)
        return fail(runs.error());
    std::vector<RunInfo> result;
    result.reserve(runs->size());
    for (const auto& record : runs.value())
        result.push_back(infoOf(project, record));
    return result;
}

Expected<RunInfo> findRun(const project::Project& project, const std::string& name) {
    auto runs = project.runs();
    if (!runs)
        return fail(runs.error());
    std::string names;
    for (auto it = runs->rbegin(); it != runs->rend(); ++it)
        if (it->name == name)
            return infoOf(project, *it);
    for (const auto& record : runs.value())
        names += (names.empty() ? "" : ", ") + record.name;
    return fail("run '" + name + "': not in the runs table of " + project.folder().string() +
                    (names.empty() ? " (it has no runs yet)" : " (runs: " + names + ")"),
                "missing");
}

Expected<DatasetSnapshot> loadRunSnapshot(const RunInfo& run) {
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

} // namespace osprey::quality
