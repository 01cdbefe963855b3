#pragma once
// Private to core/model: an Ultralytics checkpoint's tensors as an Osprey Checkpoint (weights_torch_impl.h),
// so that every place that accepts weights accepts an Ultralytics `.pt` as well.

#include "model/ultralytics_impl.h"
#include "model/weights_torch_impl.h"

#include <string>

namespace osprey::model {

/// The element type of one of torch's storage classes ("HalfStorage", "FloatStorage", ...), and back: the
/// one table the reader and the writer (ultralytics_tree.cpp) share.
Expected<torch::ScalarType> storageScalarType(const std::string& storageClass);
Expected<std::string> storageClassOf(torch::ScalarType type);

/// Builds the Checkpoint `described` (from readUltralytics) stands for, with its tensors read from
/// `archive`: each record's CRC-32 checked, views resolved against their storages; floating tensors cast
/// to float32, except in files Osprey wrote, which keep the type they were stored in. Errors name the
/// file and the tensor.
Expected<Checkpoint> ultralyticsCheckpoint(const UltralyticsCheckpoint& described, const ZipArchive& archive);

} // namespace osprey::model
