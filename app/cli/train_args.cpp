#include "cli/train_args.h"

#include "run/train_options.h"

namespace osprey::cli {

std::vector<KeySpec> trainOptionKeys() {
    std::vector<KeySpec> keys;
    for (const auto& option : run::trainOptions())
        if (run::shows(option.shownIn, run::FrontEnd::Cli))
            keys.push_back(keyFromOption(option));
    return keys;
}

std::vector<KeySpec> trainOptionKeys(const std::vector<std::string>& names) {
    std::vector<KeySpec> keys;
    for (const auto& name : names)
        if (const run::OptionSpec* option = run::findTrainOption(name))
            keys.push_back(keyFromOption(*option));
    return keys;
}

Status applyTrainArgs(run::TrainConfig& config, const Args& args) {
    std::map<std::string, std::string> values;
    for (const auto& [key, value] : args.all())
        if (!value.empty())
            values[key] = value;
    return run::applyArgs(config, values);
}

} // namespace osprey::cli
