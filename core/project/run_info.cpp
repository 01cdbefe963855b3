#include "project/run_info.h"

#include "project/project.h"
#include "run/run_files.h"
#include "run/run_folder.h"

namespace osprey::project {

namespace {

RunInfo infoOf(const Project& project, const RunRecord& record) {
    RunInfo info;
    info.record = record;
    const auto folder = run::RunFolder::inProject(project.folder(), record.name);
    info.dir = folder.dir();
    auto config = run::readRunConfigJson(record.config);
    if (const auto found = config.find(run::kSnapshotConfigKey); found != config.end()) {
        info.snapshotHash = found->second;
        config.erase(found);
    }
    auto yaml = run::readArgsYaml(folder.args());
    info.args = yaml ? std::move(*yaml) : std::move(config);
    info.args.erase(run::kSnapshotConfigKey);
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

Expected<std::vector<RunInfo>> listRuns(const Project& project) {
    auto runs = project.runs().list();
    if (!runs)
        return fail(runs.error());
    std::vector<RunInfo> result;
    result.reserve(runs->size());
    for (const auto& record : runs.value())
        result.push_back(infoOf(project, record));
    return result;
}

Expected<RunInfo> findRun(const Project& project, const std::string& name) {
    auto runs = project.runs().list();
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

Expected<std::filesystem::path> findRunFolder(const std::filesystem::path& projectFolder,
                                              const std::string& name) {
    auto project = Project::open(projectFolder);
    if (!project)
        return fail(project.error());
    auto run = findRun(**project, name);
    if (run)
        return run->dir;
    const auto folder = run::RunFolder::inProject(projectFolder, name);
    std::error_code error;
    if (!name.empty() && std::filesystem::is_directory(folder.dir(), error))
        return folder.dir();
    return fail(run.error());
}

} // namespace osprey::project
