#include "cli/train_args.h"

#include "run/train_options.h"

namespace osprey::cli {

std::vector<run::OptionSpec> trainCliOptions() {
    std::vector<run::OptionSpec> options;
    for (const auto& option : run::trainOptions())
        if (run::shows(option.shownIn, run::FrontEnd::Cli))
            options.push_back(option);
    return options;
}

std::vector<run::OptionSpec> trainOptionsNamed(const std::vector<std::string>& names) {
    std::vector<run::OptionSpec> options;
    for (const auto& name : names)
        if (const run::OptionSpec* option = run::findTrainOption(name))
            options.push_back(*option);
    return options;
}

Status applyTrainArgs(run::TrainConfig& config, const Args& args) {
    std::map<std::string, std::string> values;
    for (const auto& [key, value] : args.all())
        if (!value.empty())
            values[key] = value;
    return run::applyArgs(config, values);
}

} // namespace osprey::cli
