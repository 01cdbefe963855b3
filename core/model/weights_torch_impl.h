#pragma once
// The torch interface of core/model (for its LibTorch consumers, core/train): reading and writing weights
// files with their tensors (format in weights.h), and loading state into a network. Thread-safe for distinct
// files and models.

#include "model/detector_torch_impl.h"
#include "model/weights.h"

#include <torch/torch.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace osprey::model {

/// Named tensors in a fixed order (a state_dict).
using TensorList = std::vector<std::pair<std::string, torch::Tensor>>;

/// Everything a weights file holds. Inference files fill `meta` and `model`; training checkpoints also
/// `ema`, and through `groups` and `blobs` whatever the trainer needs to resume (optimizer state as a
/// serialised archive via archiveToBytes(), RNG states as tensors, ...).
struct Checkpoint {
    CheckpointMeta meta;
    TensorList model;
    TensorList ema;
    std::map<std::string, TensorList> groups; ///< names: letters, digits and '_'
    std::map<std::string, std::string> blobs; ///< names: letters, digits and '_'
};

/// A checkpoint of `model` with copies of its state on the CPU; `meta.spec`, strides and `fused` are
/// taken from the model, the rest from `meta`.
Checkpoint makeCheckpoint(const DetectionModel& model, CheckpointMeta meta);

/// Writes atomically: a temporary file beside `path`, then a rename. Creates the parent folder.
Status saveCheckpoint(const Checkpoint& checkpoint, const std::filesystem::path& path);

/// Reads a whole checkpoint. A missing, truncated, foreign or newer-format file gives an error naming
/// the file; never throws.
Expected<Checkpoint> loadCheckpoint(const std::filesystem::path& path);

/// What loading state into a model did.
struct LoadReport {
    std::vector<std::string> loaded;
    std::vector<std::string> skipped; ///< present in the file but not loaded (shape or nc differs)
    std::vector<std::string> missing; ///< in the model but not in the file
};

/// How strict loading is.
enum class LoadMode {
    Exact,     ///< every entry must be present with the same shape
    Pretrained ///< class-branch tensors may differ (another nc) and are skipped; nothing else may
};

/// Copies `state` into `model` (no autograd). In Pretrained mode the class-branch tensors that
/// do not fit are skipped and listed in the report.
Expected<LoadReport> loadState(DetectionModel& model, const TensorList& state, LoadMode mode);

/// Builds the network a checkpoint describes and loads its weights (EMA when `preferEma` and present).
/// A fused checkpoint yields a fused model.
Expected<std::shared_ptr<DetectionModel>> modelFromCheckpoint(const Checkpoint& checkpoint,
                                                              bool preferEma = true);

/// Serialises an archive (e.g. one filled by torch::optim::Optimizer::save) to bytes for `blobs`.
Expected<std::string> archiveToBytes(torch::serialize::OutputArchive& archive);
/// Fills `archive` from bytes written by archiveToBytes().
Status archiveFromBytes(const std::string& bytes, torch::serialize::InputArchive& archive);

} // namespace osprey::model
