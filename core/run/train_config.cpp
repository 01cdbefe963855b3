#include "run/train_config.h"

#include "common/strings.h"
#include "run/train_options.h"

namespace osprey::run {

std::string toString(OptimizerKind kind) {
    switch (kind) {
    case OptimizerKind::Auto:
        return "auto";
    case OptimizerKind::Sgd:
        return "SGD";
    case OptimizerKind::AdamW:
        return "AdamW";
    }
    return "auto";
}

Expected<OptimizerKind> parseOptimizer(const std::string& text) {
    const auto lower = toLower(text);
    if (lower == "auto")
        return OptimizerKind::Auto;
    if (lower == "sgd")
        return OptimizerKind::Sgd;
    if (lower == "adamw")
        return OptimizerKind::AdamW;
    return fail("optimizer: unknown value '" + text + "'; use auto, SGD or AdamW");
}

TrainConfig::TrainConfig() {
    // The table's defaults were checked when it was declared (tst_train_options), so they always apply.
    for (const OptionSpec& spec : trainOptions())
        (void)setOptionValue(*this, spec.key, spec.defaultValue);
}

Status TrainConfig::check() const {
    for (const OptionSpec& spec : trainOptions())
        if (auto value = normalizeOptionValue(spec, optionValue(*this, spec.key)); !value)
            return fail(value.error());
    if (imgsz % 32 != 0)
        return fail("imgsz: must be a positive multiple of 32 (got " + std::to_string(imgsz) + ")");
    return {};
}

std::map<std::string, std::string> TrainConfig::toMap() const {
    std::map<std::string, std::string> values;
    for (const OptionSpec& spec : trainOptions())
        values[spec.key] = optionValue(*this, spec.key);
    return values;
}

Status applyArgs(TrainConfig& config, const std::map<std::string, std::string>& args) {
    for (const auto& [key, value] : args)
        if (findTrainOption(key))
            if (auto status = setOptionValue(config, key, value); !status)
                return status;
    return {};
}

} // namespace osprey::run
