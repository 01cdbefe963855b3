#include "run/detection_options.h"

#include <stdexcept>
#include <string>

namespace osprey::run {

const std::vector<OptionSpec>& detectionThresholdOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "conf",
         .type = OptionType::Number,
         .defaultValue = "0.25",
         .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Confidence"),
         .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                       "confidence threshold; a run's best.pt without conf= takes the run's "
                                       "best-F1 confidence (curves.json)"),
         .shownIn = FrontEnd::Both,
         .minimum = 0,
         .maximum = 1},
        {.key = "iou",
         .type = OptionType::Number,
         .defaultValue = "0.7",
         .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "IoU threshold"),
         .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "NMS IoU threshold"),
         .shownIn = FrontEnd::Both,
         .minimum = 0,
         .maximum = 1},
        {.key = "max_det",
         .type = OptionType::Integer,
         .defaultValue = "300",
         .help = "maximum detections per image",
         .minimum = 1},
        {.key = "nms",
         .type = OptionType::Flag,
         .defaultValue = "true",
         .help = "false: a YOLO26 model reads its NMS-free one-to-one head (the top max_det scores, no "
                 "suppression), as Ultralytics' nms=False; other models have the NMS head only"},
    };
    return options;
}

OptionSpec detectionThresholdOption(std::string_view key) {
    const OptionSpec* spec = findOption(detectionThresholdOptions(), key);
    if (!spec)
        throw std::logic_error("detectionThresholdOption: no option " + std::string(key));
    return *spec;
}

} // namespace osprey::run
