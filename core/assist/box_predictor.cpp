#include "assist/box_predictor.h"
#include "assist/predictors_impl.h"
#include "common/strings.h"

#include <fstream>

namespace osprey::assist {

Expected<std::unique_ptr<BoxPredictor>> BoxPredictor::open(const ModelSource& source) {
    std::error_code error;
    if (!std::filesystem::exists(source.model, error))
        return fail(source.model.string() + ": model file not found", "missing");
    const std::string ext = toLower(source.model.extension().string());
    if (ext == ".pt")
        return openCheckpointPredictor(source);
    if (ext == ".onnx")
        return openOnnxPredictor(source);
    if (ext == ".cfg")
        return openDarknetPredictor(source);
    return fail(
        source.model.string() +
            ": unknown model kind; give an Osprey checkpoint (.pt), an ONNX file (.onnx) or a Darknet "
            ".cfg with weights=X.weights",
        "invalid");
}

Expected<std::vector<std::string>> readNamesFile(const std::filesystem::path& path) {
    std::ifstream file(path);
    if (!file)
        return fail(path.string() + ": cannot open the names file", "missing");
    std::vector<std::string> names;
    std::string line;
    while (std::getline(file, line))
        if (const auto name = trim(line); !name.empty())
            names.emplace_back(name);
    if (names.empty())
        return fail(path.string() + ": the names file lists no classes (one name per line)", "names");
    return names;
}

std::vector<std::string> parseNamesMetadata(const std::string& text) {
    // "{0: 'person', 1: 'bicycle'}": integer keys in order, quoted values (either quote style).
    std::vector<std::string> names;
    size_t pos = 0;
    while (true) {
        const size_t colon = text.find(':', pos);
        if (colon == std::string::npos)
            break;
        const auto key = trim(std::string_view(text).substr(pos, colon - pos));
        const std::string keyText(key.substr(key.find_first_not_of("{, ") == std::string_view::npos
                                                 ? key.size()
                                                 : key.find_first_not_of("{, ")));
        if (keyText != std::to_string(names.size()))
            return {};
        const size_t open = text.find_first_of("'\"", colon);
        if (open == std::string::npos)
            return {};
        const size_t close = text.find(text[open], open + 1);
        if (close == std::string::npos)
            return {};
        names.push_back(text.substr(open + 1, close - open - 1));
        pos = close + 1;
    }
    return names;
}

} // namespace osprey::assist
