#include "assist/darknet_cfg_impl.h"

#include "common/strings.h"

#include <array>
#include <charconv>
#include <fstream>
#include <string_view>
#include <vector>

namespace osprey::assist {

namespace {

constexpr long kLimit = 1L << 20;
// 2^28 weights are 1 GiB of float32, four times YOLOv4's; 2^28 input pixels is imaging's limit too.
constexpr double kMaxWeights = 268435456.0;
constexpr long kMaxInputPixels = 1L << 28;

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

/// What the weight count needs of one layer.
struct Layer {
    std::string type;
    int line = 0;
    long filters = 0, size = 1, groups = 1;
    std::vector<long> inputs;  ///< route: the absolute indices of its layers
    bool hasReference = false; ///< route: layers=, shortcut: from= (OpenCV reads past its list without)
};

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
    long netChannels = 3;
    std::vector<Layer> layers;
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
                layers.push_back({section, lineNumber});
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
            if (layer == -1 && key == "channels")
                netChannels = number;
            if (layer >= 0 && key == "filters")
                layers.back().filters = number;
            if (layer >= 0 && key == "size")
                layers.back().size = number;
            if (layer >= 0 && key == "groups")
                layers.back().groups = number;
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
                    if (section == "route")
                        layers.back().inputs.push_back(target);
                    layers.back().hasReference = true;
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
    if (static_cast<long>(result.width) * result.height > kMaxInputPixels)
        return fail(
            join({cfg.string(), ": [net] width x height above ", std::to_string(kMaxInputPixels), " pixels"}),
            "corrupt");
    // The weights OpenCV allocates follow the channels through the layers (convolutions set them, a route
    // adds those of its inputs, the rest keep them); a hostile size or filters count asked for tens of GB.
    std::vector<long> channels(layers.size());
    double weights = 0;
    for (size_t i = 0; i < layers.size(); ++i) {
        const Layer& l = layers[i];
        if ((l.type == "route" || l.type == "shortcut") && !l.hasReference)
            return fail(join({cfg.string(), ": line ", std::to_string(l.line), ": [", l.type, "] without ",
                              l.type == "route" ? "layers=" : "from="}),
                        "corrupt");
        const long in = i == 0 ? netChannels : channels[i - 1];
        channels[i] = in;
        if (l.type == "convolutional") {
            if (in % l.groups != 0)
                return fail(join({cfg.string(), ": line ", std::to_string(l.line),
                                  ": [convolutional] groups=", std::to_string(l.groups),
                                  " does not divide its ", std::to_string(in), " input channels"}),
                            "corrupt");
            weights += static_cast<double>(l.filters) * static_cast<double>(in / l.groups) *
                           static_cast<double>(l.size * l.size) +
                       4.0 * static_cast<double>(l.filters);
            channels[i] = l.filters;
        } else if (l.type == "route" && !l.inputs.empty()) {
            long sum = 0;
            for (const long input : l.inputs)
                sum += channels[static_cast<size_t>(input)];
            channels[i] = sum;
        }
        if (channels[i] > kLimit || weights > kMaxWeights)
            return fail(
                join({cfg.string(), ": line ", std::to_string(l.line), ": [", l.type,
                      "] takes the network past ",
                      channels[i] > kLimit ? std::to_string(kLimit) + " channels"
                                           : std::to_string(static_cast<long>(kMaxWeights)) + " weights",
                      "; this is not a detector OpenCV DNN can load"}),
                "corrupt");
    }
    return result;
}

} // namespace osprey::assist
