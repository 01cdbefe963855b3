#pragma once
// The thresholds of running a detector, declared once as data: `conf`, `iou`, `max_det` (Ultralytics
// predict's defaults) and `nms` (which head a YOLO26 model is read with). `predict`, `val`, `autolabel`,
// `select`, the GUI's suggestions and core/model's NmsOptions read them (model::thresholdOptions()); the
// training run's validation takes its `iou`, `max_det` and `nms` rows from here too (its `conf` is the
// validation's own 0.001). No torch; thread-safe to read.

#include "run/option_spec.h"

#include <string_view>
#include <vector>

namespace osprey::run {

const std::vector<OptionSpec>& detectionThresholdOptions();

/// A copy of one of those rows, for a table that shows it in other places (the key must be declared).
OptionSpec detectionThresholdOption(std::string_view key);

} // namespace osprey::run
