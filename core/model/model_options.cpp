#include "model/model_options.h"

#include "run/detection_options.h"

namespace osprey::model {

using run::OptionSpec;
using run::OptionType;

const std::vector<OptionSpec>& thresholdOptions() {
    return run::detectionThresholdOptions();
}

float defaultConfidence() {
    static const float value = static_cast<float>(run::defaultNumber(thresholdOptions(), "conf"));
    return value;
}

float defaultIou() {
    static const float value = static_cast<float>(run::defaultNumber(thresholdOptions(), "iou"));
    return value;
}

int defaultMaxDetections() {
    static const int value = static_cast<int>(run::defaultNumber(thresholdOptions(), "max_det"));
    return value;
}

const std::vector<OptionSpec>& modelInfoOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "model",
         .type = OptionType::Text,
         .defaultValue = "yolov8n",
         .help = "yolov8n|s|m|l|x, yolo11n|s|m|l|x or a weights file"},
        {.key = "nc",
         .type = OptionType::Integer,
         .defaultValue = "80",
         .help = "number of classes (ignored for a weights file)"},
        {.key = "imgsz",
         .type = OptionType::Integer,
         .defaultValue = "640",
         .help = "square input size for the GFLOPs count"},
        {.key = "json",
         .type = OptionType::Flag,
         .defaultValue = "false",
         .help = "print JSON instead of a table"},
    };
    return options;
}

const std::vector<OptionSpec>& modelStripOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "weights",
         .type = OptionType::Path,
         .help = "the checkpoint to strip (best.pt, last.pt)",
         .required = true},
        {.key = "out",
         .type = OptionType::Path,
         .help = "where to write it (default: replace `weights` atomically)"},
        {.key = "half",
         .type = OptionType::Flag,
         .defaultValue = "true",
         .help = "store floating tensors as float16 (half the size)"},
    };
    return options;
}

const std::vector<OptionSpec>& modelImportOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "weights",
         .type = OptionType::Path,
         .help = "the Ultralytics .pt to convert (YOLOv8 or YOLO11 detection)",
         .required = true},
        {.key = "out",
         .type = OptionType::Path,
         .help = "where to write it (default: <name>-osprey.pt beside it)"},
    };
    return options;
}

} // namespace osprey::model
