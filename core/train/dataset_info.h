#pragma once
// datasetInfoOf: the dataset summary a run reports (run_started, the auto optimiser) computed from the
// training data the data pipeline takes, in one place for the single-process run (core/job) and every
// rank of a data-parallel run (DistributedJob). Plain values; no torch, no OpenCV.

#include "train/train_dataset.h"
#include "train/trainer.h"

namespace osprey::train {

/// The class names, the train and val image and box counts, and the negatives (verified-empty images)
/// of both splits.
DatasetInfo datasetInfoOf(const ProjectData& data);

} // namespace osprey::train
