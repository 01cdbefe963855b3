// osprey-cli model export weights=FILE.pt format=onnx [imgsz=640] [opset=12] [half=false] [dynamic=false]
//                         [simplify=true] [out=FILE.onnx]
#include "cli/verb.h"
#include "export/onnx_export.h"

#include <iostream>

namespace osprey::cli {
namespace {

int runModelExport(const Args& args) {
    std::map<std::string, std::string> values;
    for (const auto& option : exporter::exportOptions())
        if (args.has(option.key))
            values[option.key] = args.str(option.key);
    auto options = exporter::parseExportOptions(values);
    if (!options) {
        std::cerr << "error: " << options.message() << "\n";
        return 2;
    }
    if (args.given("out"))
        options->out = args.str("out");
    const auto report = exporter::exportOnnx(args.str("weights"), *options);
    if (!report) {
        std::cerr << "error: " << report.message() << "\n";
        return 1;
    }
    std::cout << exporter::formatExportReport(*report);
    return 0;
}

OSPREY_REGISTER_VERB(Verb{
    "model export",
    "Export weights to ONNX in Ultralytics' layout (runs in OpenCV DNN and onnxruntime)",
    {{"weights", KeyType::Path, "", "the weights to export (.pt)", true},
     {"out", KeyType::Path, "", "where to write it (default: the weights path with .onnx)"}},
    runModelExport,
    0,
    [] {
        std::vector<KeySpec> keys;
        for (const auto& option : exporter::exportOptions())
            keys.push_back(keyFromOption(option));
        return keys;
    }});

} // namespace
} // namespace osprey::cli
