#include "export/onnx_export.h"

#include "common/strings.h"

#include <algorithm>

namespace osprey::exporter {

namespace {

using run::FrontEnd;
using run::OptionSpec;
using run::OptionType;

std::vector<OptionSpec> declare() {
    std::vector<OptionSpec> options;
    OptionSpec format{
        "format",
        OptionType::Choice,
        "onnx",
        OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Format"),
        OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                              "export format: onnx (a graph for ONNX runtimes), or ultralytics (a .pt "
                              "that Ultralytics 8.4 loads, to deploy with its exporters)"),
        FrontEnd::Both};
    format.choices = {"onnx", "ultralytics"};
    options.push_back(format);
    OptionSpec imgsz{"imgsz",
                     OptionType::Integer,
                     "640",
                     OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Image size"),
                     OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                           "square input side of the exported graph, a multiple of 32"),
                     FrontEnd::Both,
                     32,
                     4096};
    imgsz.unit = "px";
    options.push_back(imgsz);
    options.push_back({"opset", OptionType::Integer, "12",
                       OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Opset"),
                       OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                             "ONNX opset version (11-17; 12 imports in OpenCV 4.6)"),
                       FrontEnd::Both, 11, 17});
    options.push_back(
        {"half", OptionType::Flag, "false",
         OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Half-precision weights"),
         OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                               "store the weights as float16 (half the file); the graph still computes "
                               "in float32"),
         FrontEnd::Both});
    options.push_back(
        {"dynamic", OptionType::Flag, "false", OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Dynamic batch"),
         OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                               "symbolic batch dimension; the input size stays fixed (onnxruntime, "
                               "TensorRT; OpenCV DNN runs batch 1)"),
         FrontEnd::Both});
    options.push_back(
        {"simplify", OptionType::Flag, "true",
         OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Annotate shapes"),
         OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                               "store every intermediate shape (value_info); the graph is written "
                               "already folded, so nothing is left for onnxsim"),
         FrontEnd::Both});
    options.push_back(
        {"nms", OptionType::Flag, "true", OSPREY_TRANSLATE_NOOP("osprey::run::Options", "NMS layout"),
         OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                               "true: output [1, 4+nc, anchors] for NMS outside the graph (runs in OpenCV "
                               "DNN); false: a YOLO26 model's end-to-end [1, 300, 6] from its one-to-one "
                               "head (x1 y1 x2 y2 score class, no NMS; onnxruntime), as Ultralytics' "
                               "nms=False; other models have the first layout only"),
         FrontEnd::Both});
    options.push_back(
        {"manifest", OptionType::Flag, "true", OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Edge manifest"),
         OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                               "onnx: also write <name>.json beside it for the edge device: classes, input "
                               "size, output layout, the run's mAP and best-F1 confidence"),
         FrontEnd::Both});
    return options;
}

} // namespace

const std::vector<run::OptionSpec>& exportOptions() {
    static const std::vector<run::OptionSpec> options = declare();
    return options;
}

const std::vector<run::OptionSpec>& exportFileOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "weights", .type = OptionType::Path, .help = "the weights to export (.pt)", .required = true},
        {.key = "out",
         .type = OptionType::Path,
         .help = "where to write it (default: the weights path with .onnx; format=ultralytics: "
                 "<name>-ultralytics.pt)"},
    };
    return options;
}

Expected<OnnxExportOptions> parseExportOptions(const std::map<std::string, std::string>& values) {
    std::map<std::string, std::string> canonical;
    for (const auto& option : exportOptions())
        canonical[option.key] = option.defaultValue;
    for (const auto& [key, value] : values) {
        const auto& options = exportOptions();
        const auto it = std::find_if(options.begin(), options.end(),
                                     [&](const run::OptionSpec& option) { return option.key == key; });
        if (it == options.end())
            return fail("export: unknown option '" + key + "'", "invalid");
        auto normalized = run::normalizeOptionValue(*it, value);
        if (!normalized)
            return fail("export: " + normalized.message(), "invalid");
        canonical[key] = *normalized;
    }
    const auto flag = [&](const std::string& key) {
        const std::string text = toLower(canonical[key]);
        return text == "true" || text == "yes" || text == "on" || text == "1";
    };
    OnnxExportOptions options;
    options.imgsz = static_cast<int>(*parseInt(canonical["imgsz"]));
    options.opset = static_cast<int>(*parseInt(canonical["opset"]));
    options.half = flag("half");
    options.dynamic = flag("dynamic");
    options.simplify = flag("simplify");
    options.nms = flag("nms");
    options.manifest = flag("manifest");
    if (options.imgsz % 32 != 0)
        return fail("export: imgsz=" + std::to_string(options.imgsz) +
                        " is not a multiple of 32 (the largest stride); try " +
                        std::to_string((options.imgsz + 31) / 32 * 32),
                    "invalid");
    return options;
}

std::filesystem::path defaultOnnxPath(const std::filesystem::path& weights) {
    auto path = weights;
    path.replace_extension(".onnx");
    return path;
}

} // namespace osprey::exporter
