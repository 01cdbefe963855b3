#include "cli/run_lookup.h"

#include "project/project.h"
#include "quality/run_snapshot.h"

namespace osprey::cli {

Expected<std::filesystem::path> findRunFolder(const std::filesystem::path& projectFolder,
                                              const std::string& name) {
    auto project = project::Project::open(projectFolder);
    if (!project)
        return fail(project.error());
    auto run = quality::findRun(**project, name);
    if (run)
        return run->dir;
    std::error_code ec;
    if (std::filesystem::is_directory(projectFolder / "runs" / name, ec))
        return projectFolder / "runs" / name;
    return fail(run.error());
}

} // namespace osprey::cli
