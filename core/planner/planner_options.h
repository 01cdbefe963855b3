#pragma once
// The planner's options, declared once as data (run::OptionSpec): the plan of a run, the GPU catalogue
// entries, the break-even of buying a GPU, and the calibration of this machine. The GUI's planner and the
// core's input structs take their defaults from here. Thread-safe to read.

#include "run/option_spec.h"

#include <vector>

namespace osprey::planner {

/// `osprey-cli plan`: time and cost of a run on this machine and each catalogue GPU.
const std::vector<run::OptionSpec>& planOptions();

/// `osprey-cli plan gpus`: the fields of a catalogue entry the user sets.
const std::vector<run::OptionSpec>& planGpusOptions();

/// `osprey-cli plan breakeven` and the GUI's break-even box.
const std::vector<run::OptionSpec>& planBreakEvenOptions();

/// `osprey-cli plan calibrate`: this machine's measured training throughput.
const std::vector<run::OptionSpec>& planCalibrateOptions();

} // namespace osprey::planner
