#pragma once
// The training options of core/run as command-line keys: `train` offers every option the table shows on
// the command line; `val` picks the few it uses. Nothing here declares an option.

#include "cli/verb.h"
#include "run/train_config.h"

#include <string>
#include <vector>

namespace osprey::cli {

/// Every training option shown on the command line, in table order.
std::vector<run::OptionSpec> trainCliOptions();

/// The named training options, in the given order (whether or not `train` shows them).
std::vector<run::OptionSpec> trainOptionsNamed(const std::vector<std::string>& names);

/// Sets every training option that `args` holds (given, or at its default); other keys are ignored.
/// The error names the key and the bad value.
Status applyTrainArgs(run::TrainConfig& config, const Args& args);

} // namespace osprey::cli
