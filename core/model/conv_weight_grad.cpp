#include "model/conv_weight_grad_torch_impl.h"

#include "model/compat_torch_impl.h"
#include "model/cpu_kernels.h"
#include "model/winograd_conv_torch_impl.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#define OSPREY_CONV_WEIGHT_GRAD_X86 1
#include <immintrin.h>
#else
#define OSPREY_CONV_WEIGHT_GRAD_X86 0
#endif

namespace osprey::model {

namespace {

// The weight gradient of a convolution is a matrix product over the output pixels q = (n, oh, ow):
// dW[o][kh][kw][c] = sum_q grad[q][o] * x[n][oh * s + kh - p][ow * s + kw - p][c]. The kernel keeps a tile
// of kOutBlock outputs by kChannelBlock input channels of one tap in 12 AVX2 registers and, per output
// pixel, loads the tile's channels of x (two vectors) and broadcasts its outputs' gradients (six values):
// 12 fused multiply-adds for 8 loads. x and grad are read where they are (copying them into dense blocks
// first measured slower). The pixels are taken in chunks of whole output rows (about kChunkPixels, across
// images where they are small) whose x and grad stay in the core's L2 cache while every tile assigned to a
// thread passes over them; a tile's sum over a chunk starts from zero in registers and is then added to
// the result, so each weight is a sum of chunk sums, in the same order on any number of threads.
constexpr int kOutBlock = 6;
constexpr int kChannelBlock = 16;
constexpr std::int64_t kChunkPixels = 256; // output pixels a chunk aims at (whole rows)

struct Segment {
    const float* x = nullptr;    // the first pixel's input channels of the tile
    const float* grad = nullptr; // the first pixel's gradient for the tile's outputs
    std::int64_t count = 0;      // pixels, xStep and gradStep floats apart
};

using TileKernel = void (*)(const Segment*, int, std::int64_t, std::int64_t, float*, std::int64_t);

#if OSPREY_CONV_WEIGHT_GRAD_X86
// Adds to out[o * outStride + c] (o < Outs, c < 8 * Vectors) the tile's sum over the segments' pixels.
// The accumulators are named variables, not an array: the unaligned-load intrinsics may alias anything,
// so GCC would keep an array's elements in memory and store them at every pixel.
#define OSPREY_TILE_OUTPUTS(X) X(0) X(1) X(2) X(3) X(4) X(5)
template <int Outs, int Vectors>
__attribute__((target("avx2,fma"))) void accumulateTile(const Segment* segments, int segmentCount,
                                                        std::int64_t xStep, std::int64_t gradStep, float* out,
                                                        std::int64_t outStride) {
    static_assert(Outs >= 1 && Outs <= kOutBlock && (Vectors == 1 || Vectors == 2));
#define OSPREY_DECLARE(o) [[maybe_unused]] __m256 acc##o##a = _mm256_setzero_ps(), acc##o##b = acc##o##a;
    OSPREY_TILE_OUTPUTS(OSPREY_DECLARE)
#undef OSPREY_DECLARE
    for (int s = 0; s < segmentCount; ++s) {
        const float* x = segments[s].x;
        const float* grad = segments[s].grad;
        for (std::int64_t i = segments[s].count; i > 0; --i, x += xStep, grad += gradStep) {
            const __m256 xa = _mm256_loadu_ps(x);
            [[maybe_unused]] const __m256 xb = Vectors == 2 ? _mm256_loadu_ps(x + 8) : xa;
#define OSPREY_STEP(o)                                                                                       \
    if constexpr (Outs > (o)) {                                                                              \
        const __m256 g = _mm256_broadcast_ss(grad + (o));                                                    \
        acc##o##a = _mm256_fmadd_ps(g, xa, acc##o##a);                                                       \
        if constexpr (Vectors == 2)                                                                          \
            acc##o##b = _mm256_fmadd_ps(g, xb, acc##o##b);                                                   \
    }
            OSPREY_TILE_OUTPUTS(OSPREY_STEP)
#undef OSPREY_STEP
        }
    }
#define OSPREY_STORE(o)                                                                                      \
    if constexpr (Outs > (o)) {                                                                              \
        float* target = out + (o)*outStride;                                                                 \
        _mm256_storeu_ps(target, _mm256_add_ps(_mm256_loadu_ps(target), acc##o##a));                         \
        if constexpr (Vectors == 2)                                                                          \
            _mm256_storeu_ps(target + 8, _mm256_add_ps(_mm256_loadu_ps(target + 8), acc##o##b));             \
    }
    OSPREY_TILE_OUTPUTS(OSPREY_STORE)
#undef OSPREY_STORE
}
#undef OSPREY_TILE_OUTPUTS

template <int Vectors, std::size_t... Outs>
constexpr std::array<TileKernel, sizeof...(Outs)> kernelsFor(std::index_sequence<Outs...>) {
    return {&accumulateTile<static_cast<int>(Outs) + 1, Vectors>...};
}

// [vectors - 1][outs - 1]
constexpr std::array<std::array<TileKernel, kOutBlock>, 2> kTileKernels = {
    kernelsFor<1>(std::make_index_sequence<kOutBlock>{}),
    kernelsFor<2>(std::make_index_sequence<kOutBlock>{})};
#endif

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { // b > 0
    return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}
std::int64_t floorDiv(std::int64_t a, std::int64_t b) { // b > 0
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

class ConvWeightGradFunction : public torch::autograd::Function<ConvWeightGradFunction> {
public:
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x,
                                 const torch::Tensor& weight, std::int64_t stride, std::int64_t padding) {
        ctx->save_for_backward({x, weight});
        ctx->saved_data["stride"] = stride;
        ctx->saved_data["padding"] = padding;
        const bool winograd = winogradConvEnabled() && winogradConvTakes(x, weight, stride, padding);
        ctx->saved_data["winograd"] = winograd;
        return winograd ? winogradConv3x3(x, weight) : at::conv2d(x, weight, {}, stride, padding);
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                   torch::autograd::variable_list grads) {
        const auto saved = ctx->get_saved_variables();
        const auto& x = saved[0];
        const auto& weight = saved[1];
        const std::int64_t stride = ctx->saved_data["stride"].toInt();
        const std::int64_t padding = ctx->saved_data["padding"].toInt();
        torch::Tensor grad = grads[0];
        if (grad.stride(1) != 1 && grad.size(1) > 1)
            grad = grad.contiguous(at::MemoryFormat::ChannelsLast);
        torch::Tensor dx, dWeight;
        if (ctx->needs_input_grad(0) && ctx->saved_data["winograd"].toBool())
            dx = winogradConv3x3(grad, weight, true);
        else if (ctx->needs_input_grad(0))
            dx = std::get<0>(at::convolution_backward(grad, x, weight, c10::nullopt, {stride, stride},
                                                      {padding, padding}, {1, 1}, false, {0, 0}, 1,
                                                      {true, false, false}));
        if (ctx->needs_input_grad(1))
            dWeight = ctx->saved_data["winograd"].toBool()
                          ? winogradWeightGrad3x3(x, grad)
                          : convWeightGrad(x, grad, weight.size(2), stride, padding);
        return {dx, dWeight, torch::Tensor(), torch::Tensor()};
    }
};

} // namespace

bool convWeightGradSupported() {
    static const bool supported = cpuHasAvx2AndFma();
    return supported;
}

bool convWeightGradEnabled() {
    static const bool enabled = avx2KernelEnabled("OSPREY_CONV_WEIGHT_GRAD");
    return enabled;
}

bool convWeightGradApplies(const torch::Tensor& x, const torch::Tensor& weight, std::int64_t groups,
                           const torch::Tensor& bias) {
    if (groups != 1 || bias.defined() || !torch::GradMode::is_enabled() || compat::cpuAutocastEnabled())
        return false;
    if (!x.defined() || !weight.defined() || !weight.requires_grad() || x.dim() != 4 || weight.dim() != 4)
        return false;
    if (!x.device().is_cpu() || !weight.device().is_cpu() || x.scalar_type() != torch::kFloat ||
        weight.scalar_type() != torch::kFloat || x.is_sparse())
        return false;
    // 1x1 convolutions keep oneDNN's kernel, faster there (bench_conv_weight_grad).
    return x.stride(1) == 1 && x.size(1) % 8 == 0 && weight.size(1) == x.size(1) && weight.size(2) > 1 &&
           weight.size(2) == weight.size(3) && convWeightGradEnabled();
}

torch::Tensor conv2dWeightGrad(const torch::Tensor& x, const torch::Tensor& weight, std::int64_t stride,
                               std::int64_t padding) {
    return ConvWeightGradFunction::apply(x, weight, stride, padding);
}

torch::Tensor convWeightGrad(const torch::Tensor& x, const torch::Tensor& grad, std::int64_t kernel,
                             std::int64_t stride, std::int64_t padding) {
    auto require = [](bool condition, const char* what) {
        if (!condition)
            throw std::invalid_argument(std::string("convWeightGrad: ") + what);
    };
    require(convWeightGradSupported(), "this CPU has no AVX2 and FMA");
    require(x.defined() && grad.defined() && x.dim() == 4 && grad.dim() == 4, "x and grad must be 4-D");
    require(x.device().is_cpu() && grad.device().is_cpu() && x.scalar_type() == torch::kFloat &&
                grad.scalar_type() == torch::kFloat,
            "x and grad must be float32 CPU tensors");
    // (A tensor of one channel is channels-last with any stride for it.)
    require(x.stride(1) == 1 && (grad.stride(1) == 1 || grad.size(1) == 1),
            "x and grad must have their channels contiguous");
    require(kernel >= 1 && stride >= 1 && padding >= 0, "kernel and stride must be positive");
    const std::int64_t batch = x.size(0), channels = x.size(1), height = x.size(2), width = x.size(3);
    const std::int64_t outs = grad.size(1), outHeight = grad.size(2), outWidth = grad.size(3);
    require(channels % 8 == 0, "the input channels must be a multiple of 8");
    require(grad.size(0) == batch && outHeight == (height + 2 * padding - kernel) / stride + 1 &&
                outWidth == (width + 2 * padding - kernel) / stride + 1,
            "grad's shape is not the convolution's output shape");

    const std::int64_t taps = kernel * kernel;
    auto result = torch::zeros({outs, kernel, kernel, channels}, x.options()).permute({0, 3, 1, 2});
    if (batch == 0 || outHeight <= 0 || outWidth <= 0)
        return result;
#if OSPREY_CONV_WEIGHT_GRAD_X86
    float* out = result.data_ptr<float>();
    const float* xData = x.data_ptr<float>();
    const float* gradData = grad.data_ptr<float>();
    const std::int64_t xn = x.stride(0), xh = x.stride(2), xw = x.stride(3);
    const std::int64_t gn = grad.stride(0), gh = grad.stride(2), gw = grad.stride(3);
    const std::int64_t outStride = taps * channels;

    // The valid output columns of each kernel column kw: 0 <= ow * stride + kw - padding < width.
    std::vector<std::int64_t> columnBegin(kernel), columnEnd(kernel);
    for (std::int64_t kw = 0; kw < kernel; ++kw) {
        columnBegin[kw] = std::max<std::int64_t>(0, ceilDiv(padding - kw, stride));
        columnEnd[kw] = std::min(outWidth, floorDiv(width - 1 + padding - kw, stride) + 1);
    }
    // Chunks of whole output rows, counted across the batch (a chunk may end in the next image).
    const std::int64_t rows = batch * outHeight;
    const std::int64_t chunkRows = std::clamp<std::int64_t>(ceilDiv(kChunkPixels, outWidth), 1, rows);
    const std::int64_t outBlocks = ceilDiv(outs, kOutBlock), channelBlocks = ceilDiv(channels, kChannelBlock);
    // Work items in the order (channel block, output block, tap): neighbours read the same lines.
    const std::int64_t items = channelBlocks * outBlocks * taps;

    at::parallel_for(0, items, 1, [&](std::int64_t first, std::int64_t last) {
        std::vector<Segment> segments(static_cast<std::size_t>(chunkRows));
        for (std::int64_t row0 = 0; row0 < rows; row0 += chunkRows) {
            const std::int64_t row1 = std::min(rows, row0 + chunkRows);
            for (std::int64_t item = first; item < last; ++item) {
                const std::int64_t tap = item % taps;
                const std::int64_t outBlock = (item / taps) % outBlocks;
                const std::int64_t channelBlock = item / taps / outBlocks;
                const std::int64_t kh = tap / kernel, kw = tap % kernel;
                const std::int64_t c0 = channelBlock * kChannelBlock, o0 = outBlock * kOutBlock;
                const int vectors =
                    static_cast<int>(std::min<std::int64_t>(kChannelBlock, channels - c0) / 8);
                const int outCount = static_cast<int>(std::min<std::int64_t>(kOutBlock, outs - o0));
                const std::int64_t ow0 = columnBegin[kw], count = columnEnd[kw] - ow0;
                if (count <= 0)
                    continue;
                const std::int64_t xOffset = (ow0 * stride + kw - padding) * xw + c0,
                                   gradOffset = ow0 * gw + o0;
                int segmentCount = 0;
                for (std::int64_t row = row0; row < row1; ++row) {
                    const std::int64_t n = row / outHeight, oh = row % outHeight;
                    const std::int64_t ih = oh * stride + kh - padding;
                    if (ih < 0 || ih >= height)
                        continue;
                    Segment& segment = segments[static_cast<std::size_t>(segmentCount++)];
                    segment.x = xData + n * xn + ih * xh + xOffset;
                    segment.grad = gradData + n * gn + oh * gh + gradOffset;
                    segment.count = count;
                }
                if (segmentCount > 0)
                    kTileKernels[vectors - 1][outCount - 1](segments.data(), segmentCount, stride * xw, gw,
                                                            out + o0 * outStride + tap * channels + c0,
                                                            outStride);
            }
        }
    });
#endif
    return result;
}

} // namespace osprey::model
