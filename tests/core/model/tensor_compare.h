#pragma once
// What the tests of Osprey's CPU kernels share: how far one tensor is from another (they compare the
// kernels with LibTorch's operators), a channels-last copy, a thread count for one scope.

#include <torch/torch.h>

namespace osprey::test {

/// The largest absolute difference relative to the largest magnitude of `expected`, in float64.
inline double maxRelative(const torch::Tensor& actual, const torch::Tensor& expected) {
    const auto a = actual.to(torch::kDouble), e = expected.to(torch::kDouble);
    return ((a - e).abs().max() / e.abs().max().clamp_min(1e-12)).item<double>();
}

inline torch::Tensor channelsLast(const torch::Tensor& t) {
    return t.contiguous(at::MemoryFormat::ChannelsLast);
}

/// at::set_num_threads(count) until the scope ends.
struct ThreadCount {
    explicit ThreadCount(int count) : saved(at::get_num_threads()) { at::set_num_threads(count); }
    ~ThreadCount() { at::set_num_threads(saved); }
    ThreadCount(const ThreadCount&) = delete;
    ThreadCount& operator=(const ThreadCount&) = delete;
    int saved;
};

} // namespace osprey::test
