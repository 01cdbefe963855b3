#pragma once
// The engine's validation scorer for a project: DetectionScorer on core/metrics' Ultralytics evaluator
// (the same mAP as Ultralytics' val). Part of train_data. Thread affinity: one thread at a time.

#include "train/detection_scorer.h"

#include <memory>

namespace osprey::train {

/// A scorer for `classCount` classes; a box the evaluator refuses is logged as a warning and skipped.
std::unique_ptr<DetectionScorer> makeUltralyticsScorer(int classCount);

} // namespace osprey::train
