#pragma once
// Private to core/model: an Ultralytics checkpoint's tensors as an Osprey Checkpoint (weights_torch_impl.h),
// so that every place that accepts weights accepts an Ultralytics `.pt` as well.

#include "model/ultralytics_impl.h"
#include "model/weights_torch_impl.h"

namespace osprey::model {

/// Builds the Checkpoint `described` (from readUltralytics) stands for, with its tensors read from
/// `archive`: each record's CRC-32 checked, float16 cast to float32, views resolved against their
/// storages. Errors name the file and the tensor.
Expected<Checkpoint> ultralyticsCheckpoint(const UltralyticsCheckpoint& described, const ZipArchive& archive);

} // namespace osprey::model
