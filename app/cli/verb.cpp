#include "cli/verb.h"

#include "common/strings.h"
#include "common/version.h"

#include <cstdio>
#include <iostream>
#include <sstream>

namespace osprey::cli {

namespace {

std::map<std::string, Verb>& registry() {
    static std::map<std::string, Verb> instance;
    return instance;
}

const char* typeName(KeyType type) {
    switch (type) {
    case KeyType::String:
        return "text";
    case KeyType::Int:
        return "integer";
    case KeyType::Double:
        return "number";
    case KeyType::Bool:
        return "true|false";
    case KeyType::Path:
        return "path";
    }
    return "text";
}

bool valueMatchesType(KeyType type, const std::string& value) {
    switch (type) {
    case KeyType::Int:
        return parseInt(value).has_value();
    case KeyType::Double:
        return parseDouble(value).has_value();
    case KeyType::Bool:
        return parseBool(value).has_value();
    default:
        return true;
    }
}

std::string suggestion(const std::string& word, const std::vector<std::string>& candidates) {
    std::string best;
    int bestDistance = 1 << 30;
    for (const auto& candidate : candidates) {
        const int distance = editDistance(word, candidate);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = candidate;
        }
    }
    // Only suggest when the typo is small relative to the word.
    if (!best.empty() && bestDistance <= std::max<int>(2, static_cast<int>(word.size()) / 3))
        return best;
    return {};
}

std::string normaliseKey(std::string key) {
    for (auto& c : key)
        if (c == '-')
            c = '_';
    return key;
}

} // namespace

bool Args::has(const std::string& key) const {
    const auto it = m_values.find(key);
    return it != m_values.end() && !it->second.empty();
}
std::string Args::str(const std::string& key) const {
    const auto it = m_values.find(key);
    return it == m_values.end() ? std::string() : it->second;
}
long long Args::integer(const std::string& key) const {
    return parseInt(str(key)).value_or(0);
}
double Args::number(const std::string& key) const {
    return parseDouble(str(key)).value_or(0.0);
}
bool Args::flag(const std::string& key) const {
    return parseBool(str(key)).value_or(false);
}

std::vector<KeySpec> keysOf(const Verb& verb) {
    std::vector<KeySpec> keys;
    if (verb.options)
        for (const auto& option : verb.options())
            keys.push_back(keyFromOption(option));
    return keys;
}

std::vector<run::OptionSpec> joined(std::initializer_list<std::vector<run::OptionSpec>> tables) {
    std::vector<run::OptionSpec> options;
    for (const auto& table : tables)
        options.insert(options.end(), table.begin(), table.end());
    return options;
}

KeySpec keyFromOption(const run::OptionSpec& option) {
    KeyType type = KeyType::String;
    switch (option.type) {
    case run::OptionType::Integer:
        type = KeyType::Int;
        break;
    case run::OptionType::Number:
        type = KeyType::Double;
        break;
    case run::OptionType::Flag:
        type = KeyType::Bool;
        break;
    case run::OptionType::Path:
        type = KeyType::Path;
        break;
    case run::OptionType::Text:
    case run::OptionType::Choice:
        break;
    }
    std::string help = option.help;
    // One line in the CLI help: a sentence's final full stop reads oddly before the bracket.
    if (!help.empty() && help.back() == '.')
        help.pop_back();
    return {option.key, type, option.defaultValue, help, option.required};
}

bool registerVerb(Verb verb) {
    const std::string name = verb.name;
    registry()[name] = std::move(verb);
    return true;
}

const std::map<std::string, Verb>& verbs() {
    return registry();
}

std::optional<Args> parseArgs(const Verb& verb, const std::vector<std::string>& tokens, std::string& error) {
    std::map<std::string, std::string> values;
    std::vector<std::string> positional;
    std::map<std::string, bool> given;
    std::vector<std::string> names;
    const std::vector<KeySpec> keys = keysOf(verb);
    for (const auto& key : keys) {
        names.push_back(key.name);
        values[key.name] = key.defaultValue;
    }
    const auto findKey = [&](const std::string& name) -> const KeySpec* {
        for (const auto& key : keys)
            if (key.name == name)
                return &key;
        return nullptr;
    };
    for (size_t i = 0; i < tokens.size(); ++i) {
        std::string token = tokens[i];
        std::string key, value;
        bool haveValue = false;
        if (startsWith(token, "--")) {
            token = token.substr(2);
            const auto eq = token.find('=');
            if (eq != std::string::npos) {
                key = token.substr(0, eq);
                value = token.substr(eq + 1);
                haveValue = true;
            } else {
                key = token;
                const KeySpec* spec = findKey(normaliseKey(key));
                if (i + 1 < tokens.size() && !startsWith(tokens[i + 1], "--")) {
                    value = tokens[++i];
                    haveValue = true;
                } else if (spec && spec->type == KeyType::Bool) {
                    value = "true"; // a bare --flag switches a boolean on
                    haveValue = true;
                } else {
                    error = "key '" + key + "' needs a value: --" + key + " VALUE or " + key + "=VALUE";
                    return std::nullopt;
                }
            }
        } else {
            const auto eq = token.find('=');
            if (eq == std::string::npos) {
                if (static_cast<int>(positional.size()) < verb.positionalCount) {
                    positional.push_back(token);
                    continue;
                }
                const std::string hint = suggestion(token, names);
                error = "unexpected argument '" + token + "': arguments are key=value";
                if (!hint.empty())
                    error += " (did you mean " + hint + "=...?)";
                return std::nullopt;
            }
            key = token.substr(0, eq);
            value = token.substr(eq + 1);
            haveValue = true;
        }
        (void)haveValue;
        key = normaliseKey(key);
        const KeySpec* spec = findKey(key);
        if (!spec) {
            const std::string hint = suggestion(key, names);
            error = "unknown key '" + key + "' for '" + verb.name + "'";
            if (!hint.empty())
                error += " (did you mean " + hint + "?)";
            error += "; see: osprey-cli help " + verb.name;
            return std::nullopt;
        }
        if (!valueMatchesType(spec->type, value)) {
            error = "key '" + key + "' expects " + typeName(spec->type) + ", got '" + value + "'";
            return std::nullopt;
        }
        values[key] = value;
        given[key] = true;
    }
    for (const auto& key : keys) {
        if (key.required && values[key.name].empty()) {
            error = "missing required key '" + key.name + "' (" + key.help + "); see: osprey-cli help " +
                    verb.name;
            return std::nullopt;
        }
    }
    Args args(std::move(values), std::move(positional));
    for (const auto& [key, flag] : given)
        args.markGiven(key);
    return args;
}

std::string helpText(const Verb& verb) {
    std::ostringstream out;
    out << "osprey-cli " << verb.name << " - " << verb.summary << "\n\n";
    const std::vector<KeySpec> keys = keysOf(verb);
    if (keys.empty()) {
        out << "This verb takes no keys.\n";
        return out.str();
    }
    size_t width = 0;
    for (const auto& key : keys)
        width = std::max(width, key.name.size());
    out << "Keys (key=value or --key value):\n";
    for (const auto& key : keys) {
        out << "  " << key.name << std::string(width - key.name.size() + 2, ' ') << key.help << " ["
            << typeName(key.type);
        if (key.required)
            out << ", required";
        else if (!key.defaultValue.empty())
            out << ", default " << key.defaultValue;
        out << "]\n";
    }
    return out.str();
}

namespace {

void printUsage() {
    std::cout << "osprey-cli " << kVersion << " - build object detectors\n\n"
              << "Usage: osprey-cli VERB key=value ...\n\nVerbs:\n";
    size_t width = 0;
    for (const auto& [name, verb] : verbs())
        width = std::max(width, name.size());
    for (const auto& [name, verb] : verbs())
        std::cout << "  " << name << std::string(width - name.size() + 2, ' ') << verb.summary << "\n";
    std::cout << "\nRun 'osprey-cli help VERB' for the keys of one verb.\n";
}

} // namespace

int runCli(int argc, char** argv) {
    std::vector<std::string> tokens(argv + 1, argv + argc);
    if (tokens.empty()) {
        printUsage();
        return 2;
    }
    if (tokens[0] == "--version" || tokens[0] == "version") {
        std::cout << "osprey-cli " << kVersion << "\n";
        return 0;
    }
    if (tokens[0] == "--help" || tokens[0] == "-h") {
        printUsage();
        return 0;
    }
    if (tokens[0] == "help") {
        if (tokens.size() == 1) {
            printUsage();
            return 0;
        }
        std::string name = tokens[1];
        if (tokens.size() > 2 && verbs().count(name + " " + tokens[2]))
            name += " " + tokens[2];
        const auto it = verbs().find(name);
        if (it == verbs().end()) {
            std::vector<std::string> names;
            for (const auto& entry : verbs())
                names.push_back(entry.first);
            const std::string hint = suggestion(name, names);
            std::cerr << "error: unknown verb '" << name << "'"
                      << (hint.empty() ? "" : " (did you mean " + hint + "?)") << "\n";
            return 2;
        }
        std::cout << helpText(it->second);
        return 0;
    }
    // Sub-verbs ("model info", "remote login") take the first two words.
    std::string name = tokens[0];
    size_t consumed = 1;
    if (tokens.size() > 1 && verbs().count(name + " " + tokens[1])) {
        name += " " + tokens[1];
        consumed = 2;
    }
    const auto it = verbs().find(name);
    if (it == verbs().end()) {
        std::vector<std::string> names;
        for (const auto& entry : verbs())
            names.push_back(entry.first);
        const std::string hint = suggestion(name, names);
        std::cerr << "error: unknown verb '" << name << "'"
                  << (hint.empty() ? "" : " (did you mean " + hint + "?)")
                  << "\nRun 'osprey-cli help' for the list of verbs.\n";
        return 2;
    }
    std::vector<std::string> rest(tokens.begin() + static_cast<long>(consumed), tokens.end());
    std::string error;
    const auto args = parseArgs(it->second, rest, error);
    if (!args) {
        std::cerr << "error: " << error << "\n";
        return 2;
    }
    return it->second.run(*args);
}

} // namespace osprey::cli
