#pragma once
// Private to core/train: SyncBN for data-parallel training (sync_bn=true). In training mode a BatchNorm
// normalises with the mean and variance of the whole batch over all ranks instead of its rank's share:
// forward all-reduces the per-channel sum, sum of squares and count; backward all-reduces the per-channel
// sums of the gradient and of gradient x normalised input, so that the input gradient is that of the whole
// batch (as torch.nn.SyncBatchNorm). The weight and bias gradients stay this rank's share: the gradient
// all-reduce after backward sums them with the others'. Running statistics are updated from the global
// figures (unbiased variance), identically on every rank. Evaluation mode is plain BatchNorm.
// Used from the training thread only; every rank must run the same forward and backward (the collectives
// are matched in call order).

#include "train/distributed_impl.h"

#include <torch/torch.h>

namespace osprey::train {

/// BatchNorm of `x` ([N, C, H, W], this rank's images) with the statistics of all ranks of `group`; in
/// training mode, updates `bn`'s running statistics. `bn` in evaluation mode: bn.forward(x).
torch::Tensor syncBatchNorm(const torch::Tensor& x, torch::nn::BatchNorm2dImpl& bn,
                            DistributedContext::Impl& group);

/// Makes every BatchNorm of the Ultralytics Conv blocks under `model` synchronised over `context`'s
/// group; returns how many. The hooks hold a reference to `context`, which must outlive the model's use.
int enableSyncBatchNorm(torch::nn::Module& model, DistributedContext& context);

} // namespace osprey::train
