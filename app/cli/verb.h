#pragma once
// The command-line verb registry. Each verb lives in app/cli/<verb>.cpp and registers itself with
// OSPREY_REGISTER_VERB; cli_main.cpp only dispatches. Arguments are Ultralytics-style `key=value`
// (also `--key value` and `--key=value`), checked against the verb's declared keys.

#include "run/option_spec.h"

#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace osprey::cli {

enum class KeyType { String, Int, Double, Bool, Path };

/// One accepted key: name, type, default ("" means no default), and a one-line help text.
struct KeySpec {
    std::string name;
    KeyType type = KeyType::String;
    std::string defaultValue;
    std::string help;
    bool required = false;
};

/// Parsed and type-checked arguments of one verb invocation.
class Args {
public:
    Args(std::map<std::string, std::string> values, std::vector<std::string> positional)
        : m_values(std::move(values)), m_positional(std::move(positional)) {}

    bool has(const std::string& key) const; ///< given on the command line, or has a default
    bool given(const std::string& key) const { return m_given.count(key) != 0; }
    std::string str(const std::string& key) const;
    long long integer(const std::string& key) const;
    double number(const std::string& key) const;
    bool flag(const std::string& key) const;
    const std::vector<std::string>& positional() const { return m_positional; }
    const std::map<std::string, std::string>& all() const { return m_values; }

    void markGiven(const std::string& key) { m_given[key] = true; }

private:
    std::map<std::string, std::string> m_values;
    std::map<std::string, bool> m_given;
    std::vector<std::string> m_positional;
};

/// The options of a verb, as the core module that owns its job declares them.
using OptionTable = std::function<std::vector<run::OptionSpec>()>;

struct Verb {
    std::string name;    ///< e.g. "train", or "model info" for a sub-verb
    std::string summary; ///< one line for `osprey-cli help`
    /// The verb's keys: its options from the core module's table, read each time the verb parses or
    /// prints help so that the table is the only declaration; null for a verb without keys. The CLI
    /// declares no key of its own.
    OptionTable options;
    std::function<int(const Args&)> run; ///< returns the process exit code
    int positionalCount = 0;             ///< bare words accepted after the verb (e.g. `help VERB`)
};

/// The command-line keys of `verb.options()`, in table order.
std::vector<KeySpec> keysOf(const Verb& verb);

/// The command-line key of one declared option (type, default, help and required-ness from the
/// declaration).
KeySpec keyFromOption(const run::OptionSpec& option);

/// The options of `tables`, concatenated in order (a verb that takes a few options of several modules).
std::vector<run::OptionSpec> joined(std::initializer_list<std::vector<run::OptionSpec>> tables);

/// Registers a verb; used by OSPREY_REGISTER_VERB at static-initialisation time.
bool registerVerb(Verb verb);
const std::map<std::string, Verb>& verbs();

/// Parses `argv` (after the verb) against the verb's keys. On error returns nullopt and fills `error`
/// with a message such as "unknown key 'epoch' (did you mean 'epochs'?)".
std::optional<Args> parseArgs(const Verb& verb, const std::vector<std::string>& tokens, std::string& error);

/// Prints the verb's keys with types and defaults.
std::string helpText(const Verb& verb);

/// Entry point used by cli_main.cpp.
int runCli(int argc, char** argv);

} // namespace osprey::cli

#define OSPREY_CLI_CONCAT2(a, b) a##b
#define OSPREY_CLI_CONCAT(a, b) OSPREY_CLI_CONCAT2(a, b)
#define OSPREY_REGISTER_VERB(...)                                                                            \
    static const bool OSPREY_CLI_CONCAT(kVerbRegistered, __LINE__) = ::osprey::cli::registerVerb(__VA_ARGS__)
