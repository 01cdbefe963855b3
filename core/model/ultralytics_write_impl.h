#pragma once
// Private to core/model: writes a Checkpoint as the `torch.save` file that Ultralytics 8.4 unpickles into
// its own DetectionModel (weights format 2, see weights.h). The module tree is the one Osprey's network
// has (built from the checkpoint's spec and walked module by module), pickled with Ultralytics' class
// names and the per-module attributes its code reads; the tensors are storage records. Osprey's metadata,
// tensor groups and blobs travel under the extra key `osprey`, which Ultralytics ignores. Thread-safe for
// distinct checkpoints.

#include "model/weights_torch_impl.h"

#include <cstddef>
#include <functional>
#include <string>

namespace osprey::model {

/// The key of the outer dict that holds Osprey's own part of a format-2 file.
inline constexpr const char* kOspreyKey = "osprey";

/// Receives the bytes of the file in order; returns how many it took (all, or the write failed).
using ByteSink = std::function<std::size_t(const void* data, std::size_t size)>;

/// Writes `checkpoint` (whose meta.formatVersion, hasEma, groups and blobs are already final) as a
/// format-2 file to `sink`. Fails without writing anything when the checkpoint is fused (Ultralytics pickles
/// no fused Conv), or when its tensors do not match the network its spec describes (the error names the
/// first tensor that differs).
Status writeUltralyticsCheckpoint(const Checkpoint& checkpoint, const ByteSink& sink);

} // namespace osprey::model
