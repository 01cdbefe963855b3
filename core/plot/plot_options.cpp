#include "plot/plot_options.h"

namespace osprey::plot {

using run::OptionSpec;
using run::OptionType;

const std::vector<OptionSpec>& runsPlotsOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "project", .type = OptionType::Path, .help = "project folder", .required = true},
        {.key = "labels",
         .type = OptionType::Flag,
         .defaultValue = "true",
         .help = "also draw labels.jpg from the project's train split as it is now"},
    };
    return options;
}

} // namespace osprey::plot
