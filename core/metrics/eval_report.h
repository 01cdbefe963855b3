#pragma once
// Text and JSON renderings of the evaluators' results, shared by `osprey-cli eval` and anything else
// that prints them.

#include "metrics/coco_evaluator.h"
#include "metrics/ultralytics_evaluator.h"
#include "metrics/voc_evaluator.h"

#include <string>
#include <vector>

namespace osprey::metrics {

/// {"AP": .., "AP50": .., ..., "ARl": ..} with pycocotools' 12 numbers (-1 where undefined).
std::string cocoReportJson(const CocoResult& result);

/// "mAP" and one "<class> AP" line per class with ground truth.
std::string vocReportText(const VocResult& result, const std::vector<std::string>& classNames);
/// {"mAP": .., "per_class": {"name": ap, ...}}; classes without ground truth are left out.
std::string vocReportJson(const VocResult& result, const std::vector<std::string>& classNames);

/// The table `yolo val` prints: Class, Images, Instances, P, R, mAP50, mAP50-95; "all" first.
std::string ultralyticsReportText(const DetectionMetrics& metrics,
                                  const std::vector<std::string>& classNames);
/// {"mAP50", "mAP50-95", "precision", "recall", "per_class": {"name": {...}}}.
std::string ultralyticsReportJson(const DetectionMetrics& metrics,
                                  const std::vector<std::string>& classNames);

} // namespace osprey::metrics
