#pragma once
// Private to core/model: what an Ultralytics checkpoint (`yolov8n.pt`, a `best.pt` of an Ultralytics run)
// holds, recovered from its pickle without torch and without running anything. The tree of plain values
// from pickle_impl.h is read as Ultralytics lays it out: a dict with `model` and `ema` (DetectionModel
// records whose `_modules`, `_parameters` and `_buffers` give the state_dict), `train_args`, `version`,
// `date`, `epoch` and `train_metrics`. Thread-safe for distinct inputs.

#include "common/half_float.h"
#include "model/pickle_impl.h"
#include "model/weights.h"
#include "model/zip_records_impl.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace osprey::model {

/// One state_dict entry of an Ultralytics network.
struct UltralyticsTensor {
    std::string name; ///< "model.0.conv.weight"
    pickle::TensorRef ref;
};

/// An Ultralytics checkpoint, described.
struct UltralyticsCheckpoint {
    CheckpointMeta meta; ///< family, scale, nc, names, imgsz, strides, train_args, epoch, metrics, origin
    std::string version; ///< Ultralytics version that wrote it, e.g. "8.4.90"
    std::string date;    ///< its `date`, ISO 8601
    std::string archivePrefix;            ///< the zip folder, e.g. "yolov8n"
    std::vector<UltralyticsTensor> model; ///< state_dict of `model`, in order (empty when `model` is None)
    std::vector<UltralyticsTensor> ema;   ///< state_dict of `ema`, when present
    /// Tensors pickled outside the state_dict, named "(DetectionModel.stride)", "(Detect.stride)",
    /// "(Detect.anchors)", "(Detect.strides)". The strides are checked against [8, 16, 32]; the anchors are
    /// recomputed by the network.
    std::vector<UltralyticsTensor> extras;
    /// Written by Osprey (weights format 2): `meta` is Osprey's own, and the training state follows.
    bool osprey = false;
    std::map<std::string, std::vector<UltralyticsTensor>> groups; ///< tensor groups, by name
    std::map<std::string, std::vector<UltralyticsTensor>> blobs;  ///< one uint8 tensor per blob
};

/// Bytes per element of a storage class ("HalfStorage" 2, "FloatStorage" 4, ...); 0 when unknown.
int storageElementSize(std::string_view storageClass);

/// Whether a zip archive is a `torch.save` file (a data.pkl and data/ records, no TorchScript code)
/// rather than an Osprey archive.
bool isTorchSaveArchive(const ZipArchive& archive);

/// Describes the checkpoint in `pickleBytes`; `archive`, when given, supplies the stride tensor's bytes and
/// is checked to hold every storage record the pickle names. Errors name `file` and say what is
/// unsupported: not an Ultralytics checkpoint, YOLO26, a segmentation/pose/OBB/classification model, an
/// unknown module or activation, a non-tensor where a tensor belongs.
Expected<UltralyticsCheckpoint> describeUltralytics(std::string_view pickleBytes, const std::string& file,
                                                    const ZipArchive* archive = nullptr);

/// Describes the checkpoint an archive holds (the pickle's CRC-32 is checked first).
Expected<UltralyticsCheckpoint> readUltralytics(const ZipArchive& archive);

} // namespace osprey::model
