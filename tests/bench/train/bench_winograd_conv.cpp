// yolov8n's 3x3 convolutions of stride 1 at their training shapes (batch 16 at 320), forward, input and
// weight gradient, LibTorch's (oneDNN; for the weight gradient also Osprey's direct kernel,
// conv_weight_grad.cpp) against Osprey's Winograd F(2x2, 3x3) kernels (core/model/winograd_conv.cpp),
// channels-last float32, at the same thread count, medians of repeated runs; and the largest difference
// from a float64 reference relative to the result's largest value, for both. The step's share is
// bench_network_step's business (OSPREY_WINOGRAD=0 or 1).
//
// Usage: bench_winograd_conv [threads=2] [repeats=7]
#include <torch/torch.h>

#include "malloc_policy.h"
#include "median_time.h"
#include "model/conv_weight_grad_torch_impl.h"
#include "model/winograd_conv_torch_impl.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using osprey::bench::medianMs;

struct Shape {
    int in, out, size, count;
};

double relativeError(const torch::Tensor& value, const torch::Tensor& reference) {
    return ((value.to(torch::kDouble) - reference).abs().max() / reference.abs().max()).item<double>();
}

} // namespace

int main(int argc, char** argv) {
    const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 7;
    osprey::app::keepFreedMemory(); // as osprey-cli trains
    torch::set_num_threads(threads);
    torch::manual_seed(0);
    // yolov8n's 3x3 stride-1 convolutions at 320, batch 16, nc 80: input and output channels, size, how
    // many layers of the shape a step has.
    const std::vector<Shape> shapes = {{16, 16, 80, 2},  {32, 32, 40, 6}, {64, 80, 40, 1}, {64, 64, 40, 2},
                                       {80, 80, 40, 1},  {64, 64, 20, 9}, {80, 80, 20, 1}, {128, 80, 20, 1},
                                       {128, 64, 20, 1}, {64, 64, 10, 1}, {80, 80, 10, 1}, {128, 128, 10, 4},
                                       {256, 80, 10, 1}, {256, 64, 10, 1}};
    std::printf("threads %d, batch 16, float32 channels-last, median of %d; error: largest difference from "
                "float64 over the largest value\n",
                threads, repeats);
    std::printf("%-20s %9s %9s %6s %8s %8s | %9s %9s %6s %8s %8s\n", "in->out @size (n)", "fwd oneDNN",
                "Winograd", "ratio", "err 1DNN", "err ours", "dx oneDNN", "Winograd", "ratio", "err 1DNN",
                "err ours");
    double total[4] = {0, 0, 0, 0};
    for (const auto& s : shapes) {
        auto x = torch::randn({16, s.in, s.size, s.size}).contiguous(at::MemoryFormat::ChannelsLast);
        auto grad = torch::randn({16, s.out, s.size, s.size}).contiguous(at::MemoryFormat::ChannelsLast);
        auto weight = (torch::randn({s.out, s.in, 3, 3}) / std::sqrt(9.0 * s.in))
                          .contiguous(at::MemoryFormat::ChannelsLast);
        torch::Tensor y, yOurs, dx, dxOurs;
        const double fwd = medianMs(repeats, [&] { y = at::conv2d(x, weight, {}, 1, 1); });
        const double fwdOurs = medianMs(repeats, [&] { yOurs = osprey::model::winogradConv3x3(x, weight); });
        const double bwd = medianMs(repeats, [&] {
            dx = std::get<0>(at::convolution_backward(grad, x, weight, c10::nullopt, {1, 1}, {1, 1}, {1, 1},
                                                      false, {0, 0}, 1, {true, false, false}));
        });
        const double bwdOurs =
            medianMs(repeats, [&] { dxOurs = osprey::model::winogradConv3x3(grad, weight, true); });
        const auto xd = x.to(torch::kDouble), gd = grad.to(torch::kDouble), wd = weight.to(torch::kDouble);
        const auto yRef = at::conv2d(xd, wd, {}, 1, 1);
        const auto dxRef = std::get<0>(at::convolution_backward(
            gd, xd, wd, c10::nullopt, {1, 1}, {1, 1}, {1, 1}, false, {0, 0}, 1, {true, false, false}));
        total[0] += fwd * s.count;
        total[1] += fwdOurs * s.count;
        total[2] += bwd * s.count;
        total[3] += bwdOurs * s.count;
        std::printf("%4d->%-4d @%-3d (%d) %9.2f %9.2f %5.2fx %8.1e %8.1e | %9.2f %9.2f %5.2fx %8.1e %8.1e\n",
                    s.in, s.out, s.size, s.count, fwd, fwdOurs, fwd / fwdOurs, relativeError(y, yRef),
                    relativeError(yOurs, yRef), bwd, bwdOurs, bwd / bwdOurs, relativeError(dx, dxRef),
                    relativeError(dxOurs, dxRef));
    }
    std::printf("%-20s %9.2f %9.2f %5.2fx %17s | %9.2f %9.2f %5.2fx\n", "a step's layers", total[0], total[1],
                total[0] / total[1], "", total[2], total[3], total[2] / total[3]);

    // The weight gradient: oneDNN's, Osprey's direct kernel (conv_weight_grad.cpp) and Winograd's.
    std::printf("\n%-20s %9s %9s %9s %6s %6s %8s %8s %8s\n", "in->out @size (n)", "dW oneDNN", "direct",
                "Winograd", "/1DNN", "/direct", "err 1DNN", "err dir", "err ours");
    double dwTotal[3] = {0, 0, 0};
    for (const auto& s : shapes) {
        auto x = torch::randn({16, s.in, s.size, s.size}).contiguous(at::MemoryFormat::ChannelsLast);
        auto grad = torch::randn({16, s.out, s.size, s.size}).contiguous(at::MemoryFormat::ChannelsLast);
        auto weight = torch::randn({s.out, s.in, 3, 3}).contiguous(at::MemoryFormat::ChannelsLast);
        torch::Tensor dw, dwDirect, dwOurs;
        const double oneDnn = medianMs(repeats, [&] {
            dw = std::get<1>(at::convolution_backward(grad, x, weight, c10::nullopt, {1, 1}, {1, 1}, {1, 1},
                                                      false, {0, 0}, 1, {false, true, false}));
        });
        const double direct =
            medianMs(repeats, [&] { dwDirect = osprey::model::convWeightGrad(x, grad, 3, 1, 1); });
        const double ours =
            medianMs(repeats, [&] { dwOurs = osprey::model::winogradWeightGrad3x3(x, grad); });
        const auto dwRef = std::get<1>(at::convolution_backward(
            grad.to(torch::kDouble), x.to(torch::kDouble), weight.to(torch::kDouble), c10::nullopt, {1, 1},
            {1, 1}, {1, 1}, false, {0, 0}, 1, {false, true, false}));
        dwTotal[0] += oneDnn * s.count;
        dwTotal[1] += direct * s.count;
        dwTotal[2] += ours * s.count;
        std::printf("%4d->%-4d @%-3d (%d) %9.2f %9.2f %9.2f %5.2fx %5.2fx %8.1e %8.1e %8.1e\n", s.in, s.out,
                    s.size, s.count, oneDnn, direct, ours, oneDnn / ours, direct / ours,
                    relativeError(dw, dwRef), relativeError(dwDirect, dwRef), relativeError(dwOurs, dwRef));
    }
    std::printf("%-20s %9.2f %9.2f %9.2f %5.2fx %5.2fx\n", "a step's layers", dwTotal[0], dwTotal[1],
                dwTotal[2], dwTotal[0] / dwTotal[2], dwTotal[1] / dwTotal[2]);
    return 0;
}
