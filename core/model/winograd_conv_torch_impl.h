#pragma once
// 3x3 convolutions of stride 1 and padding 1 for training on a CPU without AVX-512, by Winograd's minimal
// filtering F(2x2, 3x3) (Lavin and Gray, "Fast Algorithms for Convolutional Neural Networks", 2016): each
// 2x2 block of outputs from a 4x4 block of input through 16 products instead of 36, so 2.25x fewer
// multiply-adds than the direct convolution, at the price of the transforms into and out of that space.
// oneDNN has Winograd kernels only for AVX-512; on AVX2 it convolves directly. The forward and the input
// gradient (itself such a convolution, with the filters flipped and their in and out swapped) are computed
// this way; the weight gradient stays conv_weight_grad.cpp's. The results equal the direct convolution's
// to float rounding (within about 1e-6 of the largest output; the transforms' coefficients are 0, 1 and
// 1/2), and each output is computed by one thread in a fixed order, so they do not depend on the thread
// count. Used for training only: inference keeps LibTorch's convolution, whose outputs match Ultralytics'.

#include <torch/torch.h>

#include <cstdint>

namespace osprey::model {

/// Whether this process uses these kernels where they apply: OSPREY_WINOGRAD read once (0, off, false or
/// no: never; 1, on, true or yes: wherever the CPU has AVX2 and FMA; otherwise on CPUs with AVX2 and FMA but
/// no AVX-512, the ones measured).
bool winogradConvEnabled();

/// Whether winogradConv3x3 takes a convolution of x with weight: a [out, in, 3, 3] float32 weight, stride 1,
/// padding 1, x a CPU float32 tensor with its channels contiguous, in and out multiples of 8.
bool winogradConvTakes(const torch::Tensor& x, const torch::Tensor& weight, std::int64_t stride,
                       std::int64_t padding);

/// conv2d(x, weight, stride 1, padding 1) for a x and weight winogradConvTakes, returned channels-last; with
/// inputGrad, conv2d's input gradient instead: x is then the output's gradient ([n, out, h, w]) and the
/// result is [n, in, h, w]. Uses at::get_num_threads() threads. Throws std::invalid_argument for inputs it
/// does not take or a CPU without AVX2 and FMA.
torch::Tensor winogradConv3x3(const torch::Tensor& x, const torch::Tensor& weight, bool inputGrad = false);

/// The gradient of sum(conv2d(x, w, stride 1, padding 1) * grad) with respect to a [grad.size(1), x.size(1),
/// 3, 3] w, by the same transforms: x and grad float32 CPU tensors of the same batch and size with their
/// channels contiguous, multiples of 8 of them. Returned channels-last (memory [out][3][3][in]), as
/// convWeightGrad's. Throws std::invalid_argument for inputs it does not take or a CPU without AVX2 and FMA.
torch::Tensor winogradWeightGrad3x3(const torch::Tensor& x, const torch::Tensor& grad);

} // namespace osprey::model
