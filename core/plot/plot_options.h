#pragma once
// The options of drawing a run's pictures, declared once as data (run::OptionSpec). Thread-safe to read.

#include "run/option_spec.h"

#include <vector>

namespace osprey::plot {

/// `osprey-cli runs plots`: results, curves, confusion matrices and labels pictures.
const std::vector<run::OptionSpec>& runsPlotsOptions();

} // namespace osprey::plot
