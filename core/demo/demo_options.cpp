#include "demo/demo_options.h"

namespace osprey::demo {

using run::OptionSpec;
using run::OptionType;

const std::vector<OptionSpec>& demoOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "path", .type = OptionType::Path, .help = "project folder to create", .required = true},
        {.key = "images", .type = OptionType::Integer, .defaultValue = "500", .help = "number of images"},
        {.key = "imgsz", .type = OptionType::Integer, .defaultValue = "320", .help = "image side in pixels"},
        {.key = "seed",
         .type = OptionType::Integer,
         .defaultValue = "0",
         .help = "random seed; the same seed gives identical files"},
    };
    return options;
}

} // namespace osprey::demo
