#include "project/project_options.h"

namespace osprey::project {

using run::OptionSpec;
using run::OptionType;

const std::vector<OptionSpec>& newProjectOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "path", .type = OptionType::Path, .help = "project folder to create", .required = true},
    };
    return options;
}

} // namespace osprey::project
