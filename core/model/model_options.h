#pragma once
// The options of the detector's own jobs, declared once as data (run::OptionSpec): the thresholds of
// running a detector (`conf`, `iou`, `max_det`: Ultralytics predict's defaults), which `predict`,
// `autolabel`, the GUI's suggestions and NmsOptions' defaults all read, and the keys of `model info`,
// `model strip` and `model import`. No torch; thread-safe to read.

#include "run/option_spec.h"

#include <vector>

namespace osprey::model {

/// `conf`, `iou`, `max_det` and `nms` (YOLO26's head branch, model::HeadBranch) of running a detector on
/// images: run::detectionThresholdOptions(), declared in core/run so that the training run's validation
/// shares its rows.
const std::vector<run::OptionSpec>& thresholdOptions();

/// The declared defaults of thresholdOptions(), as numbers.
float defaultConfidence();
float defaultIou();
int defaultMaxDetections();

/// `osprey-cli model info`: a network's layers, parameters and GFLOPs.
const std::vector<run::OptionSpec>& modelInfoOptions();

/// `osprey-cli model strip`: a checkpoint shrunk to inference weights.
const std::vector<run::OptionSpec>& modelStripOptions();

/// `osprey-cli model import`: an Ultralytics checkpoint converted to Osprey weights.
const std::vector<run::OptionSpec>& modelImportOptions();

} // namespace osprey::model
