#pragma once
// Private to core/model: the module tree of a weights file in format 2 (ultralytics_write_impl.h). Osprey's
// network, built for the metadata's family, scale and classes, is walked module by module and pickled with
// Ultralytics' classes (Conv, DWConv in the YOLO11 head, C2f, C3k2, C3k, Bottleneck, SPPF, C2PSA, PSABlock,
// Attention, DFL, Detect, and torch's Conv2d, BatchNorm2d, SiLU, Identity, MaxPool2d, Upsample, Sequential,
// ModuleList) and the attributes Ultralytics 8.4's code reads, the model YAML, names and stride; its
// tensors are taken from a state_dict. Not thread-safe; one per file.

#include "model/pickle_writer_impl.h"
#include "model/weights_torch_impl.h"

#include <string>
#include <vector>

namespace osprey::model {

/// The storage records of one file: each tensor gets its own record, keyed "0", "1", ... as torch.save
/// numbers them; the tensors are kept (contiguous, on the CPU) until the file is written.
class StorageRecords {
public:
    /// A new record for `tensor`; the reference to pickle. Fails for a dtype torch.save has no storage for.
    Expected<pickle::TensorRef> add(const torch::Tensor& tensor);
    const std::vector<torch::Tensor>& records() const { return m_records; }

private:
    std::vector<torch::Tensor> m_records;
};

/// Emits `model` (whose spec is `meta.spec`) as Ultralytics' DetectionModel, with the tensors of `state`
/// under their state_dict names. Fails, naming `what` ("model", "ema") and the tensor, when `state` lacks a
/// tensor of the network, has one the network lacks, or one of another shape; or for a fused network.
Status writeNetwork(pickle::Writer& writer, StorageRecords& storages, DetectionModel& model,
                    const CheckpointMeta& meta, const TensorList& state, const std::string& what);

} // namespace osprey::model
