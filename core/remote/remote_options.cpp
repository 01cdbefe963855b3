#include "remote/remote_options.h"

namespace osprey::remote {

using run::OptionSpec;
using run::OptionType;

const std::vector<OptionSpec>& remoteLoginOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "key", .type = OptionType::Text, .help = "the platform API key (ul_...)", .required = true},
        {.key = "url",
         .type = OptionType::Text,
         .help = "platform base URL to store (default: the current one)"},
    };
    return options;
}

const std::vector<OptionSpec>& remoteStatusOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "project", .type = OptionType::Path, .help = "local project folder"},
        {.key = "check",
         .type = OptionType::Flag,
         .defaultValue = "true",
         .help = "ask the platform which account the key belongs to"},
    };
    return options;
}

const std::vector<OptionSpec>& remoteSyncOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "project", .type = OptionType::Path, .help = "local project folder", .required = true},
        {.key = "timeout",
         .type = OptionType::Number,
         .defaultValue = "600",
         .help = "give up after this many seconds"},
    };
    return options;
}

const std::vector<OptionSpec>& runsPushOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "project", .type = OptionType::Path, .help = "project folder", .required = true},
        {.key = "mlflow",
         .type = OptionType::Text,
         .help = "the MLflow tracking server, http://host:port (default MLFLOW_TRACKING_URI)"},
        {.key = "mlflow_experiment",
         .type = OptionType::Text,
         .help = "the experiment (default MLFLOW_EXPERIMENT_NAME, else the project folder's name)"},
        {.key = "again",
         .type = OptionType::Flag,
         .defaultValue = "false",
         .help = "log it as a new MLflow run even when it was logged before"},
        {.key = "timeout",
         .type = OptionType::Number,
         .defaultValue = "600",
         .help = "give up after this many seconds; what is left stays queued"},
    };
    return options;
}

const std::vector<OptionSpec>& trainSinkOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "remote",
         .type = OptionType::Text,
         .help = "stream the run to this platform project (user/proj) and upload the weights; none: do not "
                 "stream"},
        {.key = "mlflow",
         .type = OptionType::Text,
         .help = "log the run to this MLflow tracking server (http://host:port; default MLFLOW_TRACKING_URI; "
                 "none: off)"},
        {.key = "mlflow_experiment",
         .type = OptionType::Text,
         .help = "the MLflow experiment (default MLFLOW_EXPERIMENT_NAME, else the project folder's name)"},
    };
    return options;
}

} // namespace osprey::remote
