// osprey-cli model import weights=yolov8n.pt [out=yolov8n-osprey.pt]
#include "cli/verb.h"
#include "model/model_options.h"
#include "model/weights.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace osprey::cli {
namespace {

int runModelImport(const Args& args) {
    const std::filesystem::path source = args.str("weights");
    std::filesystem::path destination = args.str("out");
    if (destination.empty())
        destination = source.parent_path() / (source.stem().string() + "-osprey.pt");
    const auto report = model::importWeights(source, destination);
    if (!report) {
        std::cerr << "error: " << report.message() << "\n";
        return 1;
    }
    const auto& meta = report->meta;
    std::string classes;
    for (size_t i = 0; i < meta.names.size() && i < 8; ++i)
        classes += (i > 0 ? ", " : "") + meta.names[i];
    if (meta.names.size() > 8)
        classes += ", ... (" + std::to_string(meta.names.size()) + " in all)";
    char sizes[64];
    std::snprintf(sizes, sizeof sizes, "%.1f MB -> %.1f MB", static_cast<double>(report->bytesBefore) / 1e6,
                  static_cast<double>(report->bytesAfter) / 1e6);
    std::cout << "Imported " << source.string() << " -> " << destination.string() << " (" << sizes << ")\n"
              << "  source:  " << meta.origin << "\n"
              << "  network: " << meta.spec.name() << " (" << model::familyName(meta.spec.family)
              << ", scale " << model::scaleLetter(meta.spec.scale) << "), imgsz " << meta.imgsz
              << ", SPPF.cv1 " << (meta.spec.sppfActivation ? "SiLU" : "no activation (Ultralytics >= 8.4)")
              << "\n"
              << "  classes: " << meta.spec.numClasses << ": " << classes << "\n"
              << "  tensors: " << report->tensors << (report->usedEma ? " (the EMA weights)" : "") << "\n";
    return 0;
}

OSPREY_REGISTER_VERB(Verb{
    "model import",
    "Convert an Ultralytics checkpoint (yolov8n.pt, yolo11s.pt, an Ultralytics best.pt) to Osprey weights",
    [] { return model::modelImportOptions(); }, runModelImport});

} // namespace
} // namespace osprey::cli
