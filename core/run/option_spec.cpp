#include "run/option_spec.h"

#include "common/strings.h"

#include <cmath>
#include <sstream>

namespace osprey::run {

namespace {

std::string rangeText(const OptionSpec& spec) {
    std::ostringstream out;
    const bool low = std::isfinite(spec.minimum), high = std::isfinite(spec.maximum);
    if (low && high)
        out << "between " << spec.minimum << " and " << spec.maximum;
    else if (low)
        out << "at least " << spec.minimum;
    else
        out << "at most " << spec.maximum;
    return out.str();
}

Status checkRange(const OptionSpec& spec, const std::string& value, double parsed) {
    if (parsed < spec.minimum || parsed > spec.maximum)
        return fail(spec.key + ": " + value + " is out of range; it must be " + rangeText(spec));
    return {};
}

} // namespace

const OptionSpec* findOption(const std::vector<OptionSpec>& table, std::string_view key) {
    for (const auto& option : table)
        if (option.key == key)
            return &option;
    return nullptr;
}

double defaultNumber(const std::vector<OptionSpec>& table, std::string_view key) {
    const OptionSpec* option = findOption(table, key);
    return option ? parseDouble(option->defaultValue).value_or(0.0) : 0.0;
}

std::string typeLabel(const OptionSpec& spec) {
    switch (spec.type) {
    case OptionType::Text:
        return "text";
    case OptionType::Path:
        return "path";
    case OptionType::Integer:
        return "integer";
    case OptionType::Number:
        return "number";
    case OptionType::Flag:
        return "true|false";
    case OptionType::Choice:
        if (spec.openChoices)
            return "text";
        std::string joined;
        for (const auto& choice : spec.choices)
            joined += (joined.empty() ? "" : "|") + choice;
        return joined;
    }
    return "text";
}

Expected<std::string> normalizeOptionValue(const OptionSpec& spec, const std::string& value) {
    switch (spec.type) {
    case OptionType::Text:
    case OptionType::Path:
        return value;
    case OptionType::Integer: {
        const auto parsed = parseInt(value);
        if (!parsed)
            return fail(spec.key + ": '" + value + "' is not an integer");
        if (auto status = checkRange(spec, value, static_cast<double>(*parsed)); !status)
            return fail(status.error());
        return std::to_string(*parsed);
    }
    case OptionType::Number: {
        const auto parsed = parseDouble(value);
        if (!parsed || !std::isfinite(*parsed))
            return fail(spec.key + ": '" + value + "' is not a number");
        if (auto status = checkRange(spec, value, *parsed); !status)
            return fail(status.error());
        return value;
    }
    case OptionType::Flag: {
        const auto parsed = parseBool(value);
        if (!parsed)
            return fail(spec.key + ": '" + value + "' is not true or false");
        return std::string(*parsed ? "true" : "false");
    }
    case OptionType::Choice: {
        const std::string lower = toLower(value);
        for (const auto& choice : spec.choices)
            if (toLower(choice) == lower)
                return choice;
        if (spec.openChoices)
            return value;
        std::string list;
        for (size_t i = 0; i < spec.choices.size(); ++i)
            list += (i == 0 ? "" : i + 1 == spec.choices.size() ? " or " : ", ") + spec.choices[i];
        return fail(spec.key + ": unknown value '" + value + "'; use " + list);
    }
    }
    return value;
}

} // namespace osprey::run
