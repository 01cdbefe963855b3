#pragma once
// The options of the dataset checks and of the run comparisons, declared once as data (run::OptionSpec):
// a project's health check, splits and statistics, and the runs' list, diff and worst images (which read
// the runs' dataset snapshots). Thread-safe to read.

#include "run/option_spec.h"

#include <vector>

namespace osprey::quality {

/// `osprey-cli validate`: the health check of a project or a dataset folder.
const std::vector<run::OptionSpec>& validateOptions();

/// `osprey-cli split`: seeded, stratified train/val/test splits.
const std::vector<run::OptionSpec>& splitOptions();

/// `osprey-cli stats`: counts per class and split and box-size histograms.
const std::vector<run::OptionSpec>& statsOptions();

/// `osprey-cli runs list`: the project's training runs.
const std::vector<run::OptionSpec>& runsListOptions();

/// `osprey-cli runs diff`: what changed between two runs.
const std::vector<run::OptionSpec>& runsDiffOptions();

/// `osprey-cli runs errors`: the val images a run's model gets most wrong.
const std::vector<run::OptionSpec>& runsErrorsOptions();

} // namespace osprey::quality
