// The weight gradient of yolov8n's dense convolutions at their training shapes (batch 16 at 320), LibTorch's
// (oneDNN) against Osprey's kernel (core/model/conv_weight_grad.cpp), channels-last float32, at the same
// thread count, medians of repeated runs; and the largest difference relative to the gradient's largest
// value. The layer's share of a step is the end-to-end figure's business (bench_network_step with
// OSPREY_CONV_WEIGHT_GRAD=0 or 1).
//
// Usage: bench_conv_weight_grad [threads=2] [repeats=7]
#include <torch/torch.h>

#include "median_time.h"
#include "model/conv_weight_grad_torch_impl.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using osprey::bench::medianMs;

struct Shape {
    int in, out, size, kernel, stride, count;
};

} // namespace

int main(int argc, char** argv) {
    const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 7;
    torch::set_num_threads(threads);
    torch::manual_seed(0);
    // yolov8n's dense convolutions but the first (3 input channels) at 320, batch 16, nc 80: input and
    // output channels, input size, kernel, stride, how many layers of the shape a step has.
    const std::vector<Shape> shapes = {
        {16, 32, 160, 3, 2, 1},  {16, 16, 80, 3, 1, 2},   {32, 64, 80, 3, 2, 1},   {32, 32, 40, 3, 1, 6},
        {64, 80, 40, 3, 1, 1},   {64, 64, 40, 3, 1, 2},   {64, 64, 40, 3, 2, 1},   {64, 128, 40, 3, 2, 1},
        {80, 80, 40, 3, 1, 1},   {64, 64, 20, 3, 1, 9},   {80, 80, 20, 3, 1, 1},   {128, 80, 20, 3, 1, 1},
        {128, 64, 20, 3, 1, 1},  {128, 128, 20, 3, 2, 1}, {128, 256, 20, 3, 2, 1}, {64, 64, 10, 3, 1, 1},
        {80, 80, 10, 3, 1, 1},   {128, 128, 10, 3, 1, 4}, {256, 80, 10, 3, 1, 1},  {256, 64, 10, 3, 1, 1},
        {32, 32, 80, 1, 1, 1},   {48, 32, 80, 1, 1, 1},   {64, 64, 40, 1, 1, 2},   {80, 80, 40, 1, 1, 1},
        {96, 64, 40, 1, 1, 1},   {128, 64, 40, 1, 1, 1},  {192, 64, 40, 1, 1, 1},  {64, 64, 20, 1, 1, 1},
        {80, 80, 20, 1, 1, 1},   {128, 128, 20, 1, 1, 1}, {192, 128, 20, 1, 1, 3}, {256, 128, 20, 1, 1, 1},
        {384, 128, 20, 1, 1, 1}, {64, 64, 10, 1, 1, 1},   {80, 80, 10, 1, 1, 1},   {256, 128, 10, 1, 1, 1},
        {256, 256, 10, 1, 1, 1}, {384, 256, 10, 1, 1, 3}, {512, 256, 10, 1, 1, 1}};
    std::printf("threads %d, batch 16, float32 channels-last, median of %d\n", threads, repeats);
    std::printf("%-24s %10s %10s %7s %10s\n", "in->out @size k/s (count)", "oneDNN ms", "Osprey ms", "ratio",
                "max diff");
    double totalTorch[2] = {0, 0}, totalOsprey[2] = {0, 0}; // 3x3, 1x1: ms a step (times the count)
    for (const auto& s : shapes) {
        const int outSize = (s.size + 2 * (s.kernel / 2) - s.kernel) / s.stride + 1;
        auto x = torch::randn({16, s.in, s.size, s.size}).contiguous(at::MemoryFormat::ChannelsLast);
        auto grad = torch::randn({16, s.out, outSize, outSize}).contiguous(at::MemoryFormat::ChannelsLast);
        auto weight =
            torch::randn({s.out, s.in, s.kernel, s.kernel}).contiguous(at::MemoryFormat::ChannelsLast);
        const std::int64_t pad = s.kernel / 2;
        torch::Tensor reference, ours;
        const double torchMs = medianMs(repeats, [&] {
            reference = std::get<1>(at::convolution_backward(grad, x, weight, c10::nullopt,
                                                             {s.stride, s.stride}, {pad, pad}, {1, 1}, false,
                                                             {0, 0}, 1, {false, true, false}));
        });
        const double oursMs = medianMs(
            repeats, [&] { ours = osprey::model::convWeightGrad(x, grad, s.kernel, s.stride, pad); });
        const double diff = ((ours - reference).abs().max() / reference.abs().max()).item<double>();
        totalTorch[s.kernel == 1] += torchMs * s.count;
        totalOsprey[s.kernel == 1] += oursMs * s.count;
        std::printf("%4d->%-4d @%-3d %dx%d/%d (%d) %10.2f %10.2f %6.2fx %10.1e\n", s.in, s.out, s.size,
                    s.kernel, s.kernel, s.stride, s.count, torchMs, oursMs, torchMs / oursMs, diff);
    }
    for (int k = 0; k < 2; ++k)
        std::printf("%-24s %10.2f %10.2f %6.2fx\n", k == 0 ? "a step's 3x3 layers" : "a step's 1x1 layers",
                    totalTorch[k], totalOsprey[k], totalTorch[k] / totalOsprey[k]);
    return 0;
}
