#include "assist/darknet_cfg_impl.h"

#include "common/strings.h"

#include <array>
#include <charconv>
#include <fstream>
#include <string_view>

namespace osprey::assist {

namespace {

constexpr long kLimit = 1L << 20;

// The fields OpenCV's importer sizes tensors with or divides by: zero or negative is never valid.
constexpr std::array<std::string_view, 15> kPositive = {
    "width",  "height",  "channels", "filters", "size",         "stride",   "stride_x",   "stride_y",
    "groups", "classes", "num",      "batch",   "subdivisions", "dilation", "max_batches"};
// Integer fields that may be zero or negative.
constexpr std::array<std::string_view, 6> kInteger = {"pad",      "padding", "batch_normalize",
                                                      "group_id", "reverse", "flipped"};

template <size_t N> bool among(const std::array<std::string_view, N>& keys, std::string_view key) {
    for (const auto k : keys)
        if (k == key)
            return true;
    return false;
}

/// Concatenation by appending: GCC 12 at -O3 warns (-Wrestrict, a false positive) on literal + string.
std::string join(std::initializer_list<std::string_view> parts) {
    std::string text;
    for (const auto part : parts)
        text.append(part);
    return text;
}

bool parseInt(std::string_view text, long& value) {
    text = trim(text);
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size() && !text.empty();
}

} // namespace

Expected<DarknetCfg> readDarknetCfg(const std::filesystem::path& cfg) {
    std::ifstream file(cfg, std::ios::binary);
    if (!file)
        return fail(cfg.string() + ": cannot open the Darknet model file", "missing");
    DarknetCfg result;
    std::string line;
    std::string section;
    int lineNumber = 0;
    int layer = -1; // index of the current layer; -1 while in [net]
    bool sawNet = false;
    auto where = [&](const std::string& what) {
        return fail(join({cfg.string(), ": line ", std::to_string(lineNumber), ": ", what}), "corrupt");
    };
    while (std::getline(file, line)) {
        ++lineNumber;
        const std::string_view text = trim(line);
        if (text.empty() || text[0] == '#' || text[0] == ';')
            continue;
        if (text[0] == '[') {
            if (text.back() != ']')
                return where(join({"section header '", text, "' lacks its ']'"}));
            section = std::string(trim(text.substr(1, text.size() - 2)));
            if (section == "net" || section == "network") {
                if (sawNet)
                    return where(join({"a second [", section, "] section"}));
                sawNet = true;
            } else {
                if (!sawNet)
                    return where(join({"the first section must be [net], not [", section, "]"}));
                ++layer;
                ++result.layers;
            }
            continue;
        }
        if (section.empty())
            return where(join({"'", text, "' before the first section ([net])"}));
        const size_t equals = text.find('=');
        if (equals == std::string_view::npos)
            return where(join({"expected key=value in [", section, "], got '", text, "'"}));
        const std::string key(trim(text.substr(0, equals)));
        const std::string_view value = trim(text.substr(equals + 1));
        long number = 0;
        // "[convolutional] groups=b": the field as written, for the messages.
        const std::string field = join({"[", section, "] ", key, "=", value});
        if (among(kPositive, key)) {
            if (!parseInt(value, number) || number < 1 || number > kLimit)
                return where(join({field, " is not a whole number from 1 to ", std::to_string(kLimit)}));
            if (layer == -1 && key == "width")
                result.width = static_cast<int>(number);
            if (layer == -1 && key == "height")
                result.height = static_cast<int>(number);
        } else if (among(kInteger, key)) {
            if (!parseInt(value, number) || number < -kLimit || number > kLimit)
                return where(join({field, " is not a whole number"}));
        } else if ((section == "route" && key == "layers") || (section == "shortcut" && key == "from") ||
                   key == "mask") {
            std::string_view rest = value;
            while (true) {
                const size_t comma = rest.find(',');
                const std::string_view item = rest.substr(0, comma);
                if (!parseInt(item, number) || number < -kLimit || number > kLimit)
                    return where(join({field, ": '", trim(item), "' is not a whole number"}));
                if (key != "mask") {
                    // A layer may only use layers before it: relative (negative) or absolute indices.
                    const long target = number < 0 ? layer + number : number;
                    if (target < 0 || target >= layer)
                        return where(join({field, ": layer ", std::to_string(number),
                                           " does not come before layer ", std::to_string(layer)}));
                } else if (number < 0) {
                    return where(join({field, ": a negative anchor index"}));
                }
                if (comma == std::string_view::npos)
                    break;
                rest = rest.substr(comma + 1);
            }
        }
    }
    if (result.layers == 0)
        return fail(cfg.string() + ": no layers (a Darknet .cfg starts with [net] and lists its layers)",
                    "corrupt");
    return result;
}

} // namespace osprey::assist
