#pragma once
// The run folder a `runs` verb names: a run of the project's runs table, else a folder under
// <project>/runs (an older run, or one copied in). The error lists the runs there are.

#include "common/expected.h"

#include <filesystem>
#include <string>

namespace osprey::cli {

Expected<std::filesystem::path> findRunFolder(const std::filesystem::path& projectFolder,
                                              const std::string& name);

} // namespace osprey::cli
