#pragma once
// OptionSpec: one run option declared as data (key, type, default, range or choices, unit, label, help,
// and which front ends show it). The CLI's keys and help, the GUI's generic form and the parsing into a
// typed config all read the same rows, so an option is declared once (the OBS idea: settings declared
// in the core, drawn by one view). Plain values; no Qt, no torch. Thread-safe to read.

#include "common/expected.h"

#include <limits>
#include <string>
#include <string_view>
#include <vector>

/// Marks an option's label or help for the translation catalogue without translating it here (core has
/// no Qt). lupdate reads it as QT_TRANSLATE_NOOP (see app/CMakeLists.txt); the GUI translates the text
/// at display time in the context kOptionTextContext.
#define OSPREY_TRANSLATE_NOOP(context, text) text

namespace osprey::run {

/// The translation context of every option label and help text.
inline constexpr const char* kOptionTextContext = "osprey::run::Options";

/// How an option's value is written and checked.
enum class OptionType {
    Text,    ///< free text
    Path,    ///< a file or folder
    Integer, ///< a whole number within [minimum, maximum]
    Number,  ///< a real number within [minimum, maximum]
    Flag,    ///< true or false (also yes/no, on/off, 1/0)
    Choice,  ///< one of `choices` (case-insensitive); any text when `openChoices`
};

/// Where an option is offered. An option shown nowhere is still parsed and recorded (args.yaml).
enum class FrontEnd : unsigned { None = 0, Cli = 1, Gui = 2, Both = 3 };

constexpr bool shows(FrontEnd set, FrontEnd one) {
    return (static_cast<unsigned>(set) & static_cast<unsigned>(one)) != 0;
}

/// One option. `label` and `help` are English and marked with OSPREY_TRANSLATE_NOOP.
struct OptionSpec {
    std::string key; ///< Ultralytics key name (`epochs`, `lr0`, ...)
    OptionType type = OptionType::Text;
    std::string defaultValue; ///< as written on the command line; "" = none
    std::string label;        ///< GUI form label
    std::string help;         ///< one line: CLI help and GUI tooltip
    FrontEnd shownIn = FrontEnd::Cli;
    double minimum = -std::numeric_limits<double>::infinity(); ///< Integer/Number: inclusive range
    double maximum = std::numeric_limits<double>::infinity();
    std::vector<std::string> choices; ///< Choice: the values, canonical spelling
    bool openChoices = false;         ///< Choice: other values pass (device=0 besides cpu)
    std::string unit;                 ///< "px", "epochs", ... ("" = none); marked for translation
    std::string placeholder;          ///< Text/Path: GUI hint while empty ("" = the form's default)
    /// Whether Ultralytics has this key. Osprey's own keys are kept out of the `train_args` a checkpoint
    /// gives Ultralytics, whose resume refuses keys it does not know.
    bool ultralyticsKey = true;
    bool required = false; ///< must be given (the CLI refuses a run without it); only with no default
};

/// The option with this key in `table`, or null.
const OptionSpec* findOption(const std::vector<OptionSpec>& table, std::string_view key);

/// The default of a declared Integer or Number option as a number (0 when it has none). Lets core
/// structs take their defaults from the one declaration.
double defaultNumber(const std::vector<OptionSpec>& table, std::string_view key);

/// Checks `value` against the spec and returns it in canonical form (a choice in its declared
/// spelling). The error names the key, the value and what is expected.
Expected<std::string> normalizeOptionValue(const OptionSpec& spec, const std::string& value);

/// "text", "integer", "number", "true|false", "path" or the choices joined by '|'.
std::string typeLabel(const OptionSpec& spec);

} // namespace osprey::run
