#include "quality/quality_options.h"

namespace osprey::quality {

using run::OptionSpec;
using run::OptionType;

const std::vector<OptionSpec>& validateOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "project", .type = OptionType::Path, .help = "project folder"},
        {.key = "source",
         .type = OptionType::Path,
         .help = "dataset folder or file to check instead of a project"},
        {.key = "format", .type = OptionType::Text, .defaultValue = "auto", .help = "format of source"},
        {.key = "images", .type = OptionType::Path, .help = "images folder for source"},
        {.key = "imgsz",
         .type = OptionType::Integer,
         .defaultValue = "640",
         .help = "training image size for the small-box check"},
        {.key = "decode",
         .type = OptionType::Flag,
         .defaultValue = "true",
         .help = "decode every image to find corrupt ones"},
        {.key = "json",
         .type = OptionType::Flag,
         .defaultValue = "false",
         .help = "print JSON instead of a table"},
    };
    return options;
}

const std::vector<OptionSpec>& splitOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "project", .type = OptionType::Path, .help = "project folder", .required = true},
        {.key = "train",
         .type = OptionType::Number,
         .defaultValue = "0.8",
         .help = "fraction of images for training"},
        {.key = "val", .type = OptionType::Number, .defaultValue = "0.2", .help = "fraction for validation"},
        {.key = "test", .type = OptionType::Number, .defaultValue = "0", .help = "fraction for testing"},
        {.key = "seed",
         .type = OptionType::Integer,
         .defaultValue = "0",
         .help = "random seed; the same seed gives the same split"},
        {.key = "dry",
         .type = OptionType::Flag,
         .defaultValue = "false",
         .help = "only print what would change"},
    };
    return options;
}

const std::vector<OptionSpec>& statsOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "project", .type = OptionType::Path, .help = "project folder", .required = true},
        {.key = "bins",
         .type = OptionType::Integer,
         .defaultValue = "10",
         .help = "histogram bins for relative box width and height"},
        {.key = "json",
         .type = OptionType::Flag,
         .defaultValue = "false",
         .help = "print JSON instead of tables"},
    };
    return options;
}

const std::vector<OptionSpec>& runsListOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "project", .type = OptionType::Path, .help = "project folder", .required = true},
        {.key = "json",
         .type = OptionType::Flag,
         .defaultValue = "false",
         .help = "print JSON instead of a table"},
    };
    return options;
}

const std::vector<OptionSpec>& runsDiffOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "project", .type = OptionType::Path, .help = "project folder", .required = true},
        {.key = "a",
         .type = OptionType::Text,
         .help = "the first run (name in the runs table)",
         .required = true},
        {.key = "b",
         .type = OptionType::Text,
         .defaultValue = "current",
         .help = "the second run, or `current` for the project now"},
        {.key = "iou",
         .type = OptionType::Number,
         .defaultValue = "0.95",
         .help = "a box whose old and new place overlap less than this has moved"},
        {.key = "limit",
         .type = OptionType::Integer,
         .defaultValue = "20",
         .help = "list at most this many items per kind (0: all; JSON lists all)"},
        {.key = "json",
         .type = OptionType::Flag,
         .defaultValue = "false",
         .help = "print JSON (every item) instead of text"},
    };
    return options;
}

const std::vector<OptionSpec>& runsErrorsOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "project", .type = OptionType::Path, .help = "project folder", .required = true},
        {.key = "run",
         .type = OptionType::Text,
         .help = "the run (name in the runs table)",
         .required = true},
        {.key = "epoch",
         .type = OptionType::Text,
         .defaultValue = "best",
         .help = "best, last or an epoch number"},
        {.key = "limit",
         .type = OptionType::Integer,
         .defaultValue = "20",
         .help = "list at most this many images (0: all those kept, the worst 200)"},
        {.key = "matrix",
         .type = OptionType::Flag,
         .defaultValue = "false",
         .help = "also print the confusion matrix"},
        {.key = "json",
         .type = OptionType::Flag,
         .defaultValue = "false",
         .help = "print JSON (the images with their boxes, and the confusion matrix)"},
    };
    return options;
}

} // namespace osprey::quality
