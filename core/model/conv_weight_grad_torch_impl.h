#pragma once
// A dense convolution for training on a CPU without AVX-512 whose weight gradient is computed by a kernel
// of Osprey's own (AVX2 + FMA) instead of oneDNN's. On such CPUs oneDNN computes a float32 weight gradient
// with its older `jit:avx2` kernels at about 70 % of the rate of its forward convolutions (yolov8n at 320,
// batch 16: 358 of 871 ms of a step's convolutions on a Zen 2 EPYC), and 3x3 layers of 40x40 and more at
// about half; this kernel is 1.15-1.27x oneDNN's over a step's 3x3 layers and makes the step about 5 %
// faster there (docs/benchmarks.md). 1x1 convolutions stay oneDNN's, and so do the forward and input
// gradient of the others, but for 3x3 ones of stride 1, which winograd_conv.cpp computes whole.
// The gradient is the same sum, to float rounding: each weight's sum runs over the batch in a fixed order,
// so a seeded result does not depend on the thread count.

#include <torch/torch.h>

#include <cstdint>

namespace osprey::model {

/// Whether this process uses the kernel where it applies: OSPREY_CONV_WEIGHT_GRAD read once, as
/// avx2KernelEnabled (cpu_kernels.h) says.
bool convWeightGradEnabled();

/// The CPU can run the kernel (x86-64 with AVX2 and FMA), whatever the variable says.
bool convWeightGradSupported();

/// Whether conv2dWeightGrad handles a convolution of x with weight: a CPU float32 x with channels
/// contiguous (channels-last, a channel slice of one included) and a multiple of 8 of them, a float32
/// [out, in, k, k] weight with k > 1 that requires a gradient, no groups, no bias, grad mode on, CPU
/// autocast off, and convWeightGradEnabled().
bool convWeightGradApplies(const torch::Tensor& x, const torch::Tensor& weight, std::int64_t groups,
                           const torch::Tensor& bias);

/// torch::conv2d(x, weight, {}, stride, padding) as an autograd node: where winogradConvEnabled() and
/// winogradConvTakes (3x3, stride 1), its forward, input and weight gradients are winograd_conv.cpp's;
/// elsewhere LibTorch's conv2d and convolution_backward compute the forward and the input gradient and
/// convWeightGrad the weight gradient.
torch::Tensor conv2dWeightGrad(const torch::Tensor& x, const torch::Tensor& weight, std::int64_t stride,
                               std::int64_t padding);

/// The gradient of sum(conv2d(x, w, stride, padding) * grad) with respect to w, for a w of shape
/// [grad.size(1), x.size(1), kernel, kernel]: x and grad float32 CPU tensors with channel stride 1,
/// x.size(1) a multiple of 8. Returned channels-last (memory [out][kh][kw][in]). Uses at::get_num_threads()
/// threads. Throws std::invalid_argument for inputs it does not take or a CPU without AVX2 and FMA.
torch::Tensor convWeightGrad(const torch::Tensor& x, const torch::Tensor& grad, std::int64_t kernel,
                             std::int64_t stride, std::int64_t padding);

} // namespace osprey::model
