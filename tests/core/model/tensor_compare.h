#pragma once
// How far one tensor is from another, for the kernel tests that compare Osprey's CPU kernels with
// LibTorch's operators.

#include <torch/torch.h>

namespace osprey::test {

/// The largest absolute difference relative to the largest magnitude of `expected`, in float64.
inline double maxRelative(const torch::Tensor& actual, const torch::Tensor& expected) {
    const auto a = actual.to(torch::kDouble), e = expected.to(torch::kDouble);
    return ((a - e).abs().max() / e.abs().max().clamp_min(1e-12)).item<double>();
}

} // namespace osprey::test
