// osprey-cli model export weights=FILE.pt format=onnx [imgsz=640] [opset=12] [half=false] [dynamic=false]
//                         [simplify=true] [out=FILE.onnx]
// osprey-cli model export weights=FILE.pt format=ultralytics [out=FILE-ultralytics.pt]
#include "cli/verb.h"
#include "common/strings.h"
#include "export/onnx_export.h"

#include <cstdio>
#include <iostream>

namespace osprey::cli {
namespace {

/// format=ultralytics: a .pt that Ultralytics 8.4 loads as its own (weights.h, format 2).
int exportForUltralytics(const Args& args) {
    for (const auto& option : exporter::exportOptions())
        if (option.key != "format" && args.given(option.key)) {
            std::cerr << "error: " << option.key << "= applies to format=onnx; format=ultralytics writes the "
                      << "network as it is\n";
            return 2;
        }
    const std::filesystem::path source = args.str("weights");
    const auto report =
        exporter::exportUltralytics(source, args.given("out") ? std::filesystem::path(args.str("out")) : "");
    if (!report) {
        std::cerr << "error: " << report.message() << "\n";
        return 1;
    }
    const std::filesystem::path& destination = report->file;
    char size[32];
    std::snprintf(size, sizeof size, "%.1f MB", static_cast<double>(report->bytes) / 1e6);
    std::cout << "Wrote " << destination.string() << " (" << size << "): " << report->tensors << " tensors, "
              << (report->usedEma ? "the EMA weights" : "the model weights")
              << " in float16. Ultralytics 8.4 loads it: YOLO(\"" << destination.filename().string()
              << "\"), yolo val|predict|export model=" << destination.filename().string() << "\n";
    return 0;
}

int runModelExport(const Args& args) {
    if (args.given("format") && toLower(args.str("format")) == "ultralytics")
        return exportForUltralytics(args);
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
    "Export weights to ONNX in Ultralytics' layout (runs in OpenCV DNN and onnxruntime), or to a .pt that "
    "Ultralytics loads",
    [] {
        return joined({exporter::exportFileOptions(), exporter::exportOptions()});
    },
    runModelExport});

} // namespace
} // namespace osprey::cli
