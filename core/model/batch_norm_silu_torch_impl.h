#pragma once
// BatchNorm2d in training mode followed by SiLU as one autograd node with CPU kernels of its own, for the
// Conv blocks of training on a CPU (channels-last, float32 or bf16 activations). LibTorch runs the pair as
// four passes over the activations forward (mean/variance, normalise, SiLU) and five backward, and keeps
// the BatchNorm output for SiLU's backward; this node reads x once for the statistics and once for the
// output, keeps only x, and backward recomputes the SiLU input from it (one pass for the two channel sums,
// one for the input gradient). The values are BatchNorm's and SiLU's: the same statistics, running-average
// update and gradients, to float rounding (tst_batch_norm_silu compares them with LibTorch's ops).

#include <torch/torch.h>

namespace osprey::model {

/// Whether the Conv blocks use the node: on unless OSPREY_FUSED_BATCH_NORM_SILU is 0 (or off, false, no) in
/// the environment (read once). The blocks use it after dense convolutions only: after YOLO26's depthwise
/// ones too, yolo26n trained from scratch to a lower mAP in eight paired runs of eight, though on a whole
/// run's real inputs the node's output and gradients are as close to LibTorch's as float rounding allows
/// there as elsewhere, and closer to float32's than LibTorch's bf16 ops (docs/threads.md).
bool batchNormSiluEnabled();
/// What batchNormSiluEnabled makes of the variable's value (nullptr: not set).
bool batchNormSiluSwitch(const char* value);

/// Whether batchNormSilu handles x through bn: bn in training mode with affine parameters and running
/// statistics (float32), x a 4-D float32 or bf16 CPU tensor in channels-last layout with more than one
/// value per channel. Anything else (eval mode, CUDA, NCHW, SyncBN) takes LibTorch's own path.
bool batchNormSiluApplies(const torch::nn::BatchNorm2dImpl& bn, const torch::Tensor& x);

/// silu(bn->forward(x)) for an x batchNormSiluApplies accepts: normalised with the batch's statistics,
/// bn's running mean and variance (unbiased) updated with its momentum and num_batches_tracked incremented,
/// as bn->forward does. The result has x's dtype and layout; gradients flow to x, bn->weight and bn->bias.
/// Uses at::get_num_threads() threads; a seeded result depends only on that count.
torch::Tensor batchNormSilu(torch::nn::BatchNorm2dImpl& bn, const torch::Tensor& x);

} // namespace osprey::model
