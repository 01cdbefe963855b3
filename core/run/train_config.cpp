#include "run/train_config.h"

#include "run/train_options.h"

#include "common/strings.h"

namespace osprey::run {

std::string toString(OptimizerKind kind) {
    switch (kind) {
    case OptimizerKind::Auto:
        return "auto";
    case OptimizerKind::Sgd:
        return "SGD";
    case OptimizerKind::AdamW:
        return "AdamW";
    case OptimizerKind::MuSgd:
        return "MuSGD";
    }
    return "auto";
}

Expected<OptimizerKind> parseOptimizer(const std::string& text) {
    // The accepted spellings (and the error listing them) are the option's declared choices.
    auto canonical = normalizeOptionValue(*findTrainOption("optimizer"), text);
    if (!canonical)
        return fail(canonical.error());
    for (const OptimizerKind kind :
         {OptimizerKind::Auto, OptimizerKind::Sgd, OptimizerKind::AdamW, OptimizerKind::MuSgd})
        if (toString(kind) == *canonical)
            return kind;
    return fail("optimizer: '" + text + "' has no optimiser behind it");
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
    if (batch == 0 || batch < -1 || (batch == -1 && !(batchFraction > 0 && batchFraction < 1)))
        return fail("batch: " + optionValue(*this, "batch") +
                    " is out of range; it must be between 1 and 1024 (whole images), -1 (AutoBatch) or a "
                    "fraction between 0 and 1 (AutoBatch for that share of free GPU memory)");
    if (imgsz % 32 != 0)
        return fail("imgsz: must be a positive multiple of 32 (got " + std::to_string(imgsz) + ")");
    // auto may pick SGD or MuSGD, whose warmup ramps the momentum to this value.
    if (momentum <= 0 && optimizer != OptimizerKind::AdamW)
        return fail("momentum: 0 does not work with optimizer=" + toString(optimizer) +
                    (optimizer == OptimizerKind::Auto ? " (it picks SGD or MuSGD for long runs)" : "") +
                    ": Nesterov SGD needs a momentum above 0 (the recipe's is 0.937); use optimizer=AdamW "
                    "for a step without momentum");
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
