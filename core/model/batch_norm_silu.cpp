#include "model/batch_norm_silu_torch_impl.h"

#include "model/cpu_kernels.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <utility>
#include <vector>

namespace osprey::model {

namespace {

// The row kernels are written for the compiler to vectorise along the channels (the contiguous dimension
// of a channels-last tensor); the AVX-512 and AVX2 clones are chosen at load time. Built with
// -fno-trapping-math (core/model/CMakeLists.txt) so that GCC turns the selects into blends. x86-64-v4
// (AVX-512 with its byte and word instructions, for the bf16 conversions) is GCC 11's name.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#define OSPREY_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define OSPREY_VECTOR_CLONES
#endif

using Bf16Bits = std::uint16_t; // a bfloat16 as stored: the high half of a float

inline float load(const float* p, std::int64_t i) {
    return p[i];
}
inline float load(const Bf16Bits* p, std::int64_t i) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(p[i]) << 16);
}
inline void store(float* p, std::int64_t i, float value) {
    p[i] = value;
}
// Rounded to nearest even, a NaN kept a NaN: c10::BFloat16's conversion.
inline void store(Bf16Bits* p, std::int64_t i, float value) {
    std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
    bits += 0x7fffu + ((bits >> 16) & 1u);
    bits = value != value ? 0x7fc00000u : bits;
    p[i] = static_cast<Bf16Bits>(bits >> 16);
}

// exp(z) for z clamped to [-87, 87] (beyond, the sigmoid is 0 or 1 in float anyway): z = n ln2 + r with
// |r| <= ln2 / 2, exp(r) by its Taylor polynomial to degree 6 (relative error below 2e-7), 2^n from the
// exponent bits. Plain arithmetic, so that it vectorises, unlike std::exp.
inline float expClamped(float z) {
    z = std::min(87.0f, std::max(-87.0f, z));
    constexpr float kRoundMagic = 0x1.8p23f; // adding and subtracting it rounds to an integer
    const float n = (z * 1.44269504f + kRoundMagic) - kRoundMagic;
    const float r = (z - n * 0.693145752f) - n * 1.42860677e-6f; // ln 2 in two parts
    float p = 1.0f / 720;
    p = p * r + 1.0f / 120;
    p = p * r + 1.0f / 24;
    p = p * r + 1.0f / 6;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    return p * std::bit_cast<float>(static_cast<std::uint32_t>(static_cast<int>(n) + 127) << 23);
}

inline float sigmoid(float y) {
    return 1.0f / (1.0f + expClamped(-y));
}

// Each kernel takes `rows` runs of `width` values, with per-value parameters of that length (one unit's).

// Adds, per value, the sum of (x - shift) and of its square.
template <typename T>
OSPREY_VECTOR_CLONES void sumRows(const T* __restrict x, std::int64_t rows, int width,
                                  const float* __restrict shift, float* __restrict sum,
                                  float* __restrict squares) {
    for (std::int64_t r = 0; r < rows; ++r) {
        const T* row = x + r * width;
        for (int c = 0; c < width; ++c) {
            const float v = load(row, c) - shift[c];
            sum[c] += v;
            squares[c] += v * v;
        }
    }
}

// out = silu(x * scale + offset).
template <typename T>
OSPREY_VECTOR_CLONES void forwardRows(const T* __restrict x, T* __restrict out, std::int64_t rows, int width,
                                      const float* __restrict scale, const float* __restrict offset) {
    for (std::int64_t r = 0; r < rows; ++r) {
        const T* row = x + r * width;
        T* outRow = out + r * width;
        for (int c = 0; c < width; ++c) {
            const float y = load(row, c) * scale[c] + offset[c];
            store(outRow, c, y / (1.0f + expClamped(-y)));
        }
    }
}

// The gradient at the SiLU's input: dy = grad * s * (1 + y (1 - s)), s = sigmoid(y), y recomputed from x;
// grad's runs gradStride values apart; stored (in T, as LibTorch's silu_backward stores it) into dyOut, and
// the stored values' sum and sum of dy * (x - mean) added per value.
template <typename T>
OSPREY_VECTOR_CLONES void
gradientSumRows(const T* __restrict grad, std::int64_t gradStride, const T* __restrict x, T* __restrict dyOut,
                std::int64_t rows, int width, const float* __restrict scale, const float* __restrict offset,
                const float* __restrict mean, float* __restrict sumDy, float* __restrict sumDyX) {
    for (std::int64_t r = 0; r < rows; ++r) {
        const T* row = x + r * width;
        const T* gradRow = grad + r * gradStride;
        T* dyRow = dyOut + r * width;
        for (int c = 0; c < width; ++c) {
            const float value = load(row, c);
            const float y = value * scale[c] + offset[c];
            const float s = sigmoid(y);
            store(dyRow, c, load(gradRow, c) * s * (1.0f + y * (1.0f - s)));
            const float dy = load(dyRow, c);
            sumDy[c] += dy;
            sumDyX[c] += dy * (value - mean[c]);
        }
    }
}

// BatchNorm's input gradient from the SiLU's, in place: dx = scale * dy + xScale * (x - mean) + constant.
template <typename T>
OSPREY_VECTOR_CLONES void gradientInputRows(T* dyToDx, const T* __restrict x, std::int64_t rows, int width,
                                            const float* __restrict scale, const float* __restrict mean,
                                            const float* __restrict xScale,
                                            const float* __restrict constant) {
    for (std::int64_t r = 0; r < rows; ++r) {
        const T* row = x + r * width;
        T* dxRow = dyToDx + r * width;
        for (int c = 0; c < width; ++c)
            store(dxRow, c, scale[c] * load(dxRow, c) + xScale[c] * (load(row, c) - mean[c]) + constant[c]);
    }
}

// A channels-last tensor is rows of `channels` values. The kernels take several rows at once as one unit
// of at least kUnitValues values (a period of the per-channel parameters, repeated to that length), so that
// their inner loop is long enough to vectorise well even at 16 channels.
constexpr int kUnitValues = 256;
// Float partial sums cover at most this many units before they are added into doubles.
constexpr std::int64_t kBlockUnits = 16;

struct Layout {
    std::int64_t rows = 0;
    int channels = 0;
    int repeat = 1; // rows per unit
    int width() const { return channels * repeat; }
};

// With `units` false every run is one row (for a gradient whose rows are not adjacent).
Layout layoutOf(const torch::Tensor& x, bool units = true) {
    Layout layout;
    layout.channels = static_cast<int>(x.size(1));
    layout.rows = x.numel() / layout.channels;
    layout.repeat = units ? std::max(1, kUnitValues / layout.channels) : 1;
    return layout;
}

// The distance between a 4-D tensor's rows of channels when it is channels-last or a channel slice of a
// channels-last tensor (a cat's or a split's gradient), else 0.
std::int64_t channelRowStride(const torch::Tensor& t) {
    if (t.is_contiguous(at::MemoryFormat::ChannelsLast))
        return t.size(1);
    const std::int64_t rowStride = t.stride(3);
    const bool sliced = (t.stride(1) == 1 || t.size(1) == 1) && rowStride >= t.size(1) &&
                        (t.stride(2) == t.size(3) * rowStride || t.size(2) == 1) &&
                        (t.stride(0) == t.size(2) * t.size(3) * rowStride || t.size(0) == 1);
    return sliced ? rowStride : 0;
}

// The per-channel values repeated to one unit's length.
std::vector<float> perUnit(const std::vector<float>& perChannel, const Layout& layout) {
    std::vector<float> out;
    out.reserve(static_cast<size_t>(layout.width()));
    for (int r = 0; r < layout.repeat; ++r)
        out.insert(out.end(), perChannel.begin(), perChannel.end());
    return out;
}

// Calls kernel(firstRow, count, width) over rows [begin, end): whole units (width = one unit's values, at
// most maxUnits of them a call), then the rows left over one at a time (width = channels).
template <typename Kernel>
void inUnits(std::int64_t begin, std::int64_t end, const Layout& layout, std::int64_t maxUnits,
             const Kernel& kernel) {
    std::int64_t row = begin;
    while (end - row >= layout.repeat) {
        const std::int64_t units = std::min(maxUnits, (end - row) / layout.repeat);
        kernel(row, units, layout.width());
        row += units * layout.repeat;
    }
    if (row < end)
        kernel(row, end - row, layout.channels);
}

// Two per-channel sums over all rows: kernel(firstRow, count, width, first, second) adds count runs of width
// values into the two float arrays (indexed like one unit). The rows are split into one part per thread
// (the split depends only on the thread count) and the parts' sums added in order, so a result repeats at
// the same thread count.
template <typename Kernel>
std::pair<std::vector<double>, std::vector<double>> channelSums(const Layout& layout, const Kernel& kernel) {
    const int channels = layout.channels, width = layout.width();
    const auto parts = std::clamp<std::int64_t>(layout.rows / (kBlockUnits * layout.repeat), 1,
                                                std::max(1, at::get_num_threads()));
    std::vector<double> partial(static_cast<size_t>(2 * parts * channels), 0.0);
    at::parallel_for(0, parts, 1, [&](std::int64_t firstPart, std::int64_t lastPart) {
        std::vector<float> block(static_cast<size_t>(2 * width));
        for (auto part = firstPart; part < lastPart; ++part) {
            double* first = partial.data() + 2 * part * channels;
            double* second = first + channels;
            inUnits(layout.rows * part / parts, layout.rows * (part + 1) / parts, layout, kBlockUnits,
                    [&](std::int64_t row, std::int64_t count, int runWidth) {
                        std::fill(block.begin(), block.end(), 0.0f);
                        kernel(row, count, runWidth, block.data(), block.data() + width);
                        for (int i = 0; i < runWidth; ++i) {
                            first[i % channels] += block[i];
                            second[i % channels] += block[width + i];
                        }
                    });
        }
    });
    std::vector<double> first(static_cast<size_t>(channels), 0.0), second(static_cast<size_t>(channels), 0.0);
    for (std::int64_t part = 0; part < parts; ++part)
        for (int c = 0; c < channels; ++c) {
            first[c] += partial[2 * part * channels + c];
            second[c] += partial[(2 * part + 1) * channels + c];
        }
    return {std::move(first), std::move(second)};
}

// Runs kernel(firstRow, count, width) over all rows in parallel, about 16k values a task.
template <typename Kernel> void forRows(const Layout& layout, const Kernel& kernel) {
    const std::int64_t grain = std::max<std::int64_t>(1, 16384 / layout.channels);
    at::parallel_for(0, layout.rows, grain, [&](std::int64_t first, std::int64_t last) {
        inUnits(first, last, layout, std::numeric_limits<std::int64_t>::max(), kernel);
    });
}

template <typename T> const T* valuesOf(const torch::Tensor& t) {
    if constexpr (std::is_same_v<T, float>)
        return t.data_ptr<float>();
    else
        return reinterpret_cast<const Bf16Bits*>(t.data_ptr<at::BFloat16>());
}

template <typename T> T* mutableValuesOf(torch::Tensor& t) {
    return const_cast<T*>(valuesOf<T>(t));
}

// Per channel: y = x * scale + offset is the BatchNorm's output.
struct Affine {
    std::vector<float> scale, offset;
};

Affine affineOf(const torch::Tensor& weight, const torch::Tensor& bias, const std::vector<float>& mean,
                const std::vector<float>& invStd) {
    const auto channels = mean.size();
    const float* w = weight.data_ptr<float>();
    const float* b = bias.data_ptr<float>();
    Affine affine{std::vector<float>(channels), std::vector<float>(channels)};
    for (size_t c = 0; c < channels; ++c) {
        affine.scale[c] = w[c] * invStd[c];
        affine.offset[c] = b[c] - mean[c] * affine.scale[c];
    }
    return affine;
}

std::vector<float> toVector(const torch::Tensor& t) {
    const float* p = t.data_ptr<float>();
    return {p, p + t.numel()};
}

class BatchNormSiluFunction : public torch::autograd::Function<BatchNormSiluFunction> {
public:
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x,
                                 const torch::Tensor& weight, const torch::Tensor& bias,
                                 torch::Tensor runningMean, torch::Tensor runningVar, double momentum,
                                 double eps) {
        const Layout layout = layoutOf(x);
        const int channels = layout.channels;
        auto mean = torch::empty({channels}, torch::kFloat), invStd = torch::empty({channels}, torch::kFloat);
        auto out = torch::empty_like(x, at::MemoryFormat::ChannelsLast);
        const auto run = [&](auto tag) {
            using T = decltype(tag);
            const T* px = valuesOf<T>(x);
            // Sums of x minus its first row, so that the variance is not the difference of two large sums.
            std::vector<float> shift(static_cast<size_t>(channels));
            for (int c = 0; c < channels; ++c)
                shift[c] = load(px, c);
            const auto shiftUnit = perUnit(shift, layout);
            const auto [sum, squares] =
                channelSums(layout, [&](std::int64_t row, std::int64_t count, int width, float* s, float* q) {
                    sumRows(px + row * channels, count, width, shiftUnit.data(), s, q);
                });
            float* meanOut = mean.data_ptr<float>();
            float* invStdOut = invStd.data_ptr<float>();
            float* runMean = runningMean.data_ptr<float>();
            float* runVar = runningVar.data_ptr<float>();
            const double n = static_cast<double>(layout.rows);
            for (int c = 0; c < channels; ++c) {
                const double shifted = sum[c] / n;
                const double var = std::max(0.0, squares[c] / n - shifted * shifted);
                meanOut[c] = static_cast<float>(shift[c] + shifted);
                invStdOut[c] = static_cast<float>(1.0 / std::sqrt(var + eps));
                runMean[c] = static_cast<float>((1 - momentum) * runMean[c] + momentum * meanOut[c]);
                runVar[c] = static_cast<float>((1 - momentum) * runVar[c] + momentum * var * n / (n - 1));
            }
            const auto affine = affineOf(weight, bias, toVector(mean), toVector(invStd));
            const auto scale = perUnit(affine.scale, layout), offset = perUnit(affine.offset, layout);
            T* pout = mutableValuesOf<T>(out);
            forRows(layout, [&](std::int64_t row, std::int64_t count, int width) {
                forwardRows(px + row * channels, pout + row * channels, count, width, scale.data(),
                            offset.data());
            });
        };
        if (x.scalar_type() == torch::kBFloat16)
            run(Bf16Bits{});
        else
            run(float{});
        ctx->save_for_backward({x, weight, bias});
        ctx->saved_data["mean"] = mean;
        ctx->saved_data["inv_std"] = invStd;
        return out;
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                   torch::autograd::variable_list grads) {
        if (!grads[0].defined())
            return torch::autograd::variable_list(7);
        const auto saved = ctx->get_saved_variables();
        const auto& x = saved[0];
        const auto& weight = saved[1];
        const auto& bias = saved[2];
        const Layout layout = layoutOf(x);
        const int channels = layout.channels;
        const auto mean = toVector(ctx->saved_data["mean"].toTensor());
        const auto invStd = toVector(ctx->saved_data["inv_std"].toTensor());
        const auto affine = affineOf(weight, bias, mean, invStd);
        const auto scale = perUnit(affine.scale, layout), offset = perUnit(affine.offset, layout),
                   meanUnit = perUnit(mean, layout);
        // LibTorch's silu_backward reads a strided gradient in place; so does this node for a channel slice,
        // which copying would cost a pass.
        auto grad = grads[0].to(x.scalar_type());
        std::int64_t gradRowStride = channelRowStride(grad);
        if (gradRowStride == 0) {
            grad = grad.contiguous(at::MemoryFormat::ChannelsLast);
            gradRowStride = channels;
        }
        const bool gradContiguous = gradRowStride == channels;
        const Layout gradLayout = layoutOf(x, gradContiguous);
        auto dx = torch::empty_like(x, at::MemoryFormat::ChannelsLast);
        auto dWeight = torch::empty({channels}, torch::kFloat),
             dBias = torch::empty({channels}, torch::kFloat);
        const auto run = [&](auto tag) {
            using T = decltype(tag);
            const T* px = valuesOf<T>(x);
            const T* pg = valuesOf<T>(grad);
            T* pdx = mutableValuesOf<T>(dx); // holds the SiLU's input gradient between the two passes
            const auto [sumDy, sumDyX] = channelSums(
                gradLayout, [&](std::int64_t row, std::int64_t count, int width, float* s, float* sx) {
                    gradientSumRows(pg + row * gradRowStride, gradContiguous ? width : gradRowStride,
                                    px + row * channels, pdx + row * channels, count, width, scale.data(),
                                    offset.data(), meanUnit.data(), s, sx);
                });
            // dx = scale * (dy - mean(dy) - xhat * mean(dy * xhat)), xhat = (x - mean) * invStd.
            std::vector<float> xScale(static_cast<size_t>(channels)), constant(static_cast<size_t>(channels));
            float* dw = dWeight.data_ptr<float>();
            float* db = dBias.data_ptr<float>();
            const double n = static_cast<double>(layout.rows);
            for (int c = 0; c < channels; ++c) {
                dw[c] = static_cast<float>(sumDyX[c] * invStd[c]);
                db[c] = static_cast<float>(sumDy[c]);
                xScale[c] =
                    static_cast<float>(-affine.scale[c] * double{invStd[c]} * invStd[c] * sumDyX[c] / n);
                constant[c] = static_cast<float>(-affine.scale[c] * sumDy[c] / n);
            }
            const auto xScaleUnit = perUnit(xScale, layout), constantUnit = perUnit(constant, layout);
            forRows(layout, [&](std::int64_t row, std::int64_t count, int width) {
                gradientInputRows(pdx + row * channels, px + row * channels, count, width, scale.data(),
                                  meanUnit.data(), xScaleUnit.data(), constantUnit.data());
            });
        };
        if (x.scalar_type() == torch::kBFloat16)
            run(Bf16Bits{});
        else
            run(float{});
        return {dx, dWeight, dBias, torch::Tensor(), torch::Tensor(), torch::Tensor(), torch::Tensor()};
    }
};

bool isFloat32Vector(const torch::Tensor& t, std::int64_t size) {
    return t.defined() && t.scalar_type() == torch::kFloat && t.device().is_cpu() && t.dim() == 1 &&
           t.size(0) == size && t.is_contiguous();
}

} // namespace

bool batchNormSiluSwitch(const char* value) {
    return kernelSwitch(value) != KernelSwitch::Off;
}

bool batchNormSiluEnabled() {
    static const bool enabled = batchNormSiluSwitch(std::getenv("OSPREY_FUSED_BATCH_NORM_SILU"));
    return enabled;
}

bool batchNormSiluApplies(const torch::nn::BatchNorm2dImpl& bn, const torch::Tensor& x) {
    const auto& options = bn.options;
    if (!bn.is_training() || !options.affine() || !options.track_running_stats() || !options.momentum())
        return false;
    if (!x.defined() || !x.device().is_cpu() || x.dim() != 4 || x.is_sparse() ||
        (x.scalar_type() != torch::kFloat && x.scalar_type() != torch::kBFloat16) ||
        !x.is_contiguous(at::MemoryFormat::ChannelsLast))
        return false;
    const std::int64_t channels = x.size(1);
    return channels == options.num_features() && channels > 0 && x.numel() / channels > 1 &&
           isFloat32Vector(bn.weight, channels) && isFloat32Vector(bn.bias, channels) &&
           isFloat32Vector(bn.running_mean, channels) && isFloat32Vector(bn.running_var, channels);
}

torch::Tensor batchNormSilu(torch::nn::BatchNorm2dImpl& bn, const torch::Tensor& x) {
    {
        torch::NoGradGuard noGrad;
        bn.num_batches_tracked += 1;
    }
    return BatchNormSiluFunction::apply(x, bn.weight, bn.bias, bn.running_mean, bn.running_var,
                                        *bn.options.momentum(), bn.options.eps());
}

} // namespace osprey::model
