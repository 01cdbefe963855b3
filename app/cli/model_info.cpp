// osprey-cli model info model=yolov8n|FILE.pt [nc=80] [imgsz=640] [json=false]
#include "cli/verb.h"
#include "model/detector.h"
#include "model/model_options.h"
#include "model/weights.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>

namespace osprey::cli {
namespace {

int runModelInfo(const Args& args) {
    const std::string name = args.str("model");
    const int imgsz = static_cast<int>(args.integer("imgsz"));
    Expected<model::Detector> detector = fail("unset");
    const bool isFile = std::filesystem::exists(name);
    if (isFile) {
        detector = model::loadDetector(name);
    } else {
        const auto spec = model::parseModelName(name, static_cast<int>(args.integer("nc")));
        if (!spec) {
            std::cerr << "error: " << spec.message() << "\n";
            return 2;
        }
        detector = model::Detector::create(*spec);
    }
    if (!detector) {
        std::cerr << "error: " << detector.message() << "\n";
        return 1;
    }
    const auto gflops = detector->gflops(imgsz);
    if (!gflops) {
        std::cerr << "error: " << gflops.message() << "\n";
        return 2;
    }
    if (!args.flag("json")) {
        std::cout << model::formatLayerTable(*detector, imgsz);
        return 0;
    }
    nlohmann::json json;
    json["model"] = detector->spec().name();
    json["nc"] = detector->spec().numClasses;
    json["imgsz"] = imgsz;
    json["params"] = detector->parameterCount();
    json["gradients"] = detector->gradientCount();
    json["gflops"] = *gflops;
    json["fused"] = detector->fused();
    json["layers"] = nlohmann::json::array();
    for (const auto& layer : detector->layers())
        json["layers"].push_back({{"index", layer.index},
                                  {"from", layer.from},
                                  {"n", layer.repeats},
                                  {"params", layer.params},
                                  {"module", layer.type},
                                  {"arguments", layer.arguments}});
    std::cout << json.dump(2) << "\n";
    return 0;
}

OSPREY_REGISTER_VERB(Verb{"model info", "Print a detector's layers, parameter count and GFLOPs",
                          [] { return model::modelInfoOptions(); }, runModelInfo});

} // namespace
} // namespace osprey::cli
