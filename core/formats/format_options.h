#pragma once
// The options of the dataset jobs, declared once as data (run::OptionSpec): importing a dataset into a
// project, exporting a project as a dataset, and scoring detection files against ground truth (`eval`,
// whose files this module reads). Thread-safe to read.

#include "run/option_spec.h"

#include <vector>

namespace osprey::formats {

/// `osprey-cli import`: a YOLO, COCO or Pascal VOC dataset or a folder of images into a project. The
/// `format` help lists the registered formats.
const std::vector<run::OptionSpec>& datasetImportOptions();

/// `osprey-cli export`: a project as a YOLO, COCO or Pascal VOC dataset.
const std::vector<run::OptionSpec>& datasetExportOptions();

/// `osprey-cli eval`: detections scored against ground truth (COCO, VOC or Ultralytics style).
const std::vector<run::OptionSpec>& evalOptions();

} // namespace osprey::formats
