#pragma once
// The training options, declared once: the table behind TrainConfig's defaults and parsing, the keys and
// help of `osprey-cli train` and `val`, and the GUI's generic train form. No Qt, no torch.
//
// Thread affinity: read from any thread; addTrainOption() must run before any front end reads the table
// (it is meant for extensions and tests).

#include "common/expected.h"
#include "run/option_spec.h"

#include <string>
#include <string_view>
#include <vector>

namespace osprey::run {

struct TrainConfig;

/// Every training option, in form order.
const std::vector<OptionSpec>& trainOptions();

/// The option with this key, or null.
const OptionSpec* findTrainOption(std::string_view key);

/// Declares one more option (for example a test's throw-away option). It gets no typed field: its value
/// lives in TrainConfig::extra. The error names a duplicate key or a default that fails its own check.
Status addTrainOption(OptionSpec spec);

/// `osprey-cli train`'s own keys besides the training options and the sinks (core/remote): the project
/// and the events on stdout.
const std::vector<OptionSpec>& trainLaunchOptions();

/// `osprey-cli val`'s own keys: the project and the checkpoint (the rest are training options).
const std::vector<OptionSpec>& valFileOptions();

/// The option's value in `config`, in canonical text form ("" for an unknown key).
std::string optionValue(const TrainConfig& config, std::string_view key);

/// Sets one option from text after checking it against its declaration.
Status setOptionValue(TrainConfig& config, std::string_view key, const std::string& value);

} // namespace osprey::run
