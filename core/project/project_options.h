#pragma once
// The options of creating a project, declared once as data (run::OptionSpec). Thread-safe to read.

#include "run/option_spec.h"

#include <vector>

namespace osprey::project {

/// `osprey-cli new`: an empty project folder.
const std::vector<run::OptionSpec>& newProjectOptions();

} // namespace osprey::project
