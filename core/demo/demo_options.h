#pragma once
// The options of the built-in demo project, declared once as data (run::OptionSpec). Thread-safe to read.

#include "run/option_spec.h"

#include <vector>

namespace osprey::demo {

/// `osprey-cli demo`: the synthetic shapes dataset.
const std::vector<run::OptionSpec>& demoOptions();

} // namespace osprey::demo
