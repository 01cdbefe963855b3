#pragma once
// Intersection over union in the conventions the evaluators need.

#include "metrics/eval_set.h"

namespace osprey::metrics {

/// How pixel coordinates measure length. Continuous: width = x2 - x1 (COCO, Ultralytics). PlusOne: the
/// old VOC devkit's inclusive pixel indices, width = x2 - x1 + 1.
enum class PixelConvention { Continuous, PlusOne };

/// IoU of two boxes; 0 when they do not overlap.
double boxIou(const BoxXyxy& a, const BoxXyxy& b, PixelConvention convention = PixelConvention::Continuous);

/// pycocotools' box IoU (maskApi bbIou): against a crowd box the union is the detection's area alone.
double cocoIou(const BoxXyxy& detection, const BoxXyxy& truth, bool truthIsCrowd);

} // namespace osprey::metrics
