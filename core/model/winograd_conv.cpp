#include "model/winograd_conv_torch_impl.h"

#include "model/cpu_kernels.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#define OSPREY_WINOGRAD_X86 1
#include <immintrin.h>
#else
#define OSPREY_WINOGRAD_X86 0
#endif

namespace osprey::model {

namespace {

// F(2x2, 3x3) on channels-last data. An output block (a "tile": image n, outputs 2ty..2ty+1 by 2tx..2tx+1)
// reads the 4x4 input block d at rows 2ty-1.. and columns 2tx-1.. (zeros outside the image). With
//   B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1], G = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1],
//   A^T = [1 1 1 0; 0 1 -1 -1],
// the tile's outputs are Y[o] = A^T (sum_c (G g[o][c] G^T) .* (B^T d[c] B)) A: 16 independent matrix
// products over the channels, one per position xi of the 4x4 transformed block,
//   M[xi][tile][o] = sum_c V[xi][tile][c] * U[xi][c][o],
// with V the transformed input and U the transformed filters. The tiles are taken in chunks whose V and M
// stay in the core's L2 cache: the chunk's input transform, its 16 products (a register tile of 6 tiles by
// 16 outputs, as conv_weight_grad.cpp's kernel: 12 fused multiply-adds for 2 loads and 6 broadcasts), then
// its output transform straight into the result. A chunk is one thread's, so every output is summed in the
// same order on any number of threads. The weight gradient runs the other way: the output gradient's
// tiles transformed, dM = A dY A^T, the products dU[xi][o][c] = sum_tiles dM[xi][tile][o] * V[xi][tile][c]
// (the same register tile, 6 outputs by 16 input channels, summed over the tiles), dW = G^T dU G.
constexpr int kPositions = 16;
constexpr int kTileBlock = 6;
constexpr int kOutVectorBlock = 2; // vectors of 8 outputs in the register tile
constexpr std::int64_t kOutBlock = 8 * kOutVectorBlock;
constexpr std::int64_t kChunkFloats = 64 * 1024; // V and M of one chunk: 256 kB
constexpr std::int64_t kMinChunkTiles = 4 * kTileBlock;
constexpr std::int64_t kGroupTiles = 100; // the weight gradient's tiles a group aims at
constexpr std::int64_t kMaxGroups = 16;
constexpr std::int64_t kMaxPartialFloats = 16 << 20; // the groups' sums dU: at most 64 MB (wide layers)

/// U for the forward (in = the weight's dim 1) or the input gradient (the filters flipped, in = the weight's
/// dim 0): per position xi, the outputs in blocks of kOutBlock, each block [in][its outputs] contiguous,
/// so that the products read a block's rows one after another (rows a whole output count apart fall into
/// few L1 cache sets and evict each other when there are 128 inputs).
torch::Tensor transformFilters(const torch::Tensor& weight, bool inputGrad) {
    const auto w = weight.to(torch::kFloat).contiguous();
    const std::int64_t ins = w.size(1);
    const std::int64_t uIn = inputGrad ? w.size(0) : ins, uOut = inputGrad ? ins : w.size(0);
    auto u = torch::empty({kPositions, uIn, uOut}, w.options());
    const float* wData = w.data_ptr<float>();
    float* uData = u.data_ptr<float>();
    const std::int64_t plane = uIn * uOut, blocks = (uOut + kOutBlock - 1) / kOutBlock;
    // Written in U's order, a block's row (up to kOutBlock outputs) at a time into each position's plane:
    // planes a power of two apart would otherwise meet in the same cache sets, one float at a time.
    at::parallel_for(0, blocks, 1, [&](std::int64_t firstBlock, std::int64_t lastBlock) {
        float row[kPositions][kOutBlock];
        for (std::int64_t b = firstBlock; b < lastBlock; ++b) {
            const std::int64_t block = b * kOutBlock, width = std::min(kOutBlock, uOut - block);
            for (std::int64_t in = 0; in < uIn; ++in) {
                for (std::int64_t k = 0; k < width; ++k) {
                    const std::int64_t o = inputGrad ? in : block + k, c = inputGrad ? block + k : in;
                    const float* g = wData + (o * ins + c) * 9;
                    float f[3][3];
                    for (int i = 0; i < 3; ++i)
                        for (int j = 0; j < 3; ++j)
                            f[i][j] = inputGrad ? g[(2 - i) * 3 + (2 - j)] : g[i * 3 + j];
                    float t[4][3]; // G f
                    for (int j = 0; j < 3; ++j) {
                        t[0][j] = f[0][j];
                        t[1][j] = 0.5f * (f[0][j] + f[1][j] + f[2][j]);
                        t[2][j] = 0.5f * (f[0][j] - f[1][j] + f[2][j]);
                        t[3][j] = f[2][j];
                    }
                    for (int i = 0; i < 4; ++i) { // (G f) G^T
                        row[i * 4 + 0][k] = t[i][0];
                        row[i * 4 + 1][k] = 0.5f * (t[i][0] + t[i][1] + t[i][2]);
                        row[i * 4 + 2][k] = 0.5f * (t[i][0] - t[i][1] + t[i][2]);
                        row[i * 4 + 3][k] = t[i][2];
                    }
                }
                for (int xi = 0; xi < kPositions; ++xi)
                    std::copy_n(row[xi], width, uData + xi * plane + block * uIn + in * width);
            }
        }
    });
    return u;
}

// The products' register tile: m[r * mStride + j] (+)= sum_i a[i * aStep + r * aStride] * b[i * bStep + j]
// for r < Rows, j < 8 * Vectors, i < count: Rows values of a broadcast and 8 * Vectors of b loaded a step, 12
// fused multiply-adds for 8 loads when the tile is full. The forward's M (a = V, i = input channel, r =
// tile) stores its sums; the weight gradient's dU (a = dM, i = tile, r = output) adds them to a partial sum.
struct Operands {
    const float* a;
    std::int64_t aStride, aStep;
    const float* b;
    std::int64_t bStep, count;
    float* m;
    std::int64_t mStride;
};
using ProductKernel = void (*)(const Operands&);

#if OSPREY_WINOGRAD_X86
// Named accumulators (not an array) keep GCC from storing them at every step (see conv_weight_grad.cpp).
#define OSPREY_ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5)
template <int Rows, int Vectors, bool Accumulate>
__attribute__((target("avx2,fma"))) void multiplyTile(const Operands& operands) {
    static_assert(Rows >= 1 && Rows <= kTileBlock && (Vectors == 1 || Vectors == 2));
#define OSPREY_DECLARE(r) [[maybe_unused]] __m256 acc##r##a = _mm256_setzero_ps(), acc##r##b = acc##r##a;
    OSPREY_ROWS(OSPREY_DECLARE)
#undef OSPREY_DECLARE
    const float* a = operands.a;
    const float* b = operands.b;
    const std::int64_t aStride = operands.aStride, aStep = operands.aStep, bStep = operands.bStep;
    for (std::int64_t i = operands.count; i > 0; --i, a += aStep, b += bStep) {
        const __m256 ba = _mm256_loadu_ps(b);
        [[maybe_unused]] const __m256 bb = Vectors == 2 ? _mm256_loadu_ps(b + 8) : ba;
#define OSPREY_STEP(r)                                                                                       \
    if constexpr (Rows > (r)) {                                                                              \
        const __m256 value = _mm256_broadcast_ss(a + (r)*aStride);                                           \
        acc##r##a = _mm256_fmadd_ps(value, ba, acc##r##a);                                                   \
        if constexpr (Vectors == 2)                                                                          \
            acc##r##b = _mm256_fmadd_ps(value, bb, acc##r##b);                                               \
    }
        OSPREY_ROWS(OSPREY_STEP)
#undef OSPREY_STEP
    }
#define OSPREY_STORE(r)                                                                                      \
    if constexpr (Rows > (r)) {                                                                              \
        float* target = operands.m + (r)*operands.mStride;                                                   \
        if constexpr (Accumulate) {                                                                          \
            acc##r##a = _mm256_add_ps(_mm256_loadu_ps(target), acc##r##a);                                   \
            if constexpr (Vectors == 2)                                                                      \
                acc##r##b = _mm256_add_ps(_mm256_loadu_ps(target + 8), acc##r##b);                           \
        }                                                                                                    \
        _mm256_storeu_ps(target, acc##r##a);                                                                 \
        if constexpr (Vectors == 2)                                                                          \
            _mm256_storeu_ps(target + 8, acc##r##b);                                                         \
    }
    OSPREY_ROWS(OSPREY_STORE)
#undef OSPREY_STORE
}
#undef OSPREY_ROWS

template <int Vectors, bool Accumulate, std::size_t... Rows>
constexpr std::array<ProductKernel, sizeof...(Rows)> kernelsFor(std::index_sequence<Rows...>) {
    return {&multiplyTile<static_cast<int>(Rows) + 1, Vectors, Accumulate>...};
}

// [accumulate][vectors - 1][rows - 1]
constexpr std::array<std::array<std::array<ProductKernel, kTileBlock>, kOutVectorBlock>, 2> kProductKernels =
    {{
        {kernelsFor<1, false>(std::make_index_sequence<kTileBlock>{}),
         kernelsFor<2, false>(std::make_index_sequence<kTileBlock>{})},
        {kernelsFor<1, true>(std::make_index_sequence<kTileBlock>{}),
         kernelsFor<2, true>(std::make_index_sequence<kTileBlock>{})},
    }};

struct Geometry {
    std::int64_t height, width, tilesHigh, tilesWide;
    std::int64_t xn, xh, xw; // input strides
    std::int64_t yn, yh, yw; // output strides
};

// A tile's image and the first of its 2x2 outputs.
struct TileOrigin {
    std::int64_t n, row, column;
};
TileOrigin tileOrigin(const Geometry& g, std::int64_t tile) {
    const std::int64_t perImage = g.tilesHigh * g.tilesWide, rest = tile % perImage;
    return {tile / perImage, 2 * (rest / g.tilesWide), 2 * (rest % g.tilesWide)};
}

// V[xi][i][c] = (B^T d B)[xi] for the chunk's tiles first..first+count and every channel.
__attribute__((target("avx2,fma"))) void transformInput(const float* x, const Geometry& g,
                                                        std::int64_t channels, std::int64_t first,
                                                        std::int64_t count, float* v) {
    const std::int64_t positionStride = count * channels;
    const __m256 zero = _mm256_setzero_ps();
    for (std::int64_t i = 0; i < count; ++i) {
        const auto [n, oh, ow] = tileOrigin(g, first + i);
        const std::int64_t row0 = oh - 1, col0 = ow - 1;
        const float* pixel[4][4];
        for (int r = 0; r < 4; ++r)
            for (int s = 0; s < 4; ++s) {
                const std::int64_t ih = row0 + r, iw = col0 + s;
                pixel[r][s] = ih >= 0 && ih < g.height && iw >= 0 && iw < g.width
                                  ? x + n * g.xn + ih * g.xh + iw * g.xw
                                  : nullptr;
            }
        float* out = v + i * channels;
        for (std::int64_t c = 0; c < channels; c += 8) {
            __m256 d[4][4];
            for (int r = 0; r < 4; ++r)
                for (int s = 0; s < 4; ++s)
                    d[r][s] = pixel[r][s] != nullptr ? _mm256_loadu_ps(pixel[r][s] + c) : zero;
            __m256 t[4][4]; // B^T d
            for (int s = 0; s < 4; ++s) {
                t[0][s] = _mm256_sub_ps(d[0][s], d[2][s]);
                t[1][s] = _mm256_add_ps(d[1][s], d[2][s]);
                t[2][s] = _mm256_sub_ps(d[2][s], d[1][s]);
                t[3][s] = _mm256_sub_ps(d[1][s], d[3][s]);
            }
            for (int r = 0; r < 4; ++r) { // (B^T d) B
                float* target = out + r * 4 * positionStride + c;
                _mm256_storeu_ps(target, _mm256_sub_ps(t[r][0], t[r][2]));
                _mm256_storeu_ps(target + positionStride, _mm256_add_ps(t[r][1], t[r][2]));
                _mm256_storeu_ps(target + 2 * positionStride, _mm256_sub_ps(t[r][2], t[r][1]));
                _mm256_storeu_ps(target + 3 * positionStride, _mm256_sub_ps(t[r][1], t[r][3]));
            }
        }
    }
}

// The chunk's outputs A^T M A, written where they fall inside the image.
__attribute__((target("avx2,fma"))) void transformOutput(const float* m, const Geometry& g, std::int64_t outs,
                                                         std::int64_t first, std::int64_t count, float* y) {
    const std::int64_t positionStride = count * outs;
    for (std::int64_t i = 0; i < count; ++i) {
        const auto [n, oh, ow] = tileOrigin(g, first + i);
        const bool secondRow = oh + 1 < g.height, secondColumn = ow + 1 < g.width;
        float* target = y + n * g.yn + oh * g.yh + ow * g.yw;
        const float* source = m + i * outs;
        for (std::int64_t o = 0; o < outs; o += 8) {
            __m256 p[2][4]; // A^T M
            for (int s = 0; s < 4; ++s) {
                const __m256 m0 = _mm256_loadu_ps(source + s * positionStride + o);
                const __m256 m1 = _mm256_loadu_ps(source + (4 + s) * positionStride + o);
                const __m256 m2 = _mm256_loadu_ps(source + (8 + s) * positionStride + o);
                const __m256 m3 = _mm256_loadu_ps(source + (12 + s) * positionStride + o);
                p[0][s] = _mm256_add_ps(_mm256_add_ps(m0, m1), m2);
                p[1][s] = _mm256_sub_ps(_mm256_sub_ps(m1, m2), m3);
            }
            for (int r = 0; r < 2; ++r) { // (A^T M) A
                if (r == 1 && !secondRow)
                    break;
                float* row = target + r * g.yh + o;
                _mm256_storeu_ps(row, _mm256_add_ps(_mm256_add_ps(p[r][0], p[r][1]), p[r][2]));
                if (secondColumn)
                    _mm256_storeu_ps(row + g.yw, _mm256_sub_ps(_mm256_sub_ps(p[r][1], p[r][2]), p[r][3]));
            }
        }
    }
}

// The chunk's output gradients in Winograd's space, dM[xi][i][o] = (A dY A^T)[xi], dY the tile's 2x2 outputs'
// gradient (zero where an output falls outside the image): the gradient of the 16 products M, as Y = A^T M A.
__attribute__((target("avx2,fma"))) void transformGradient(const float* grad, const Geometry& g,
                                                           std::int64_t outs, std::int64_t first,
                                                           std::int64_t count, float* dm) {
    const std::int64_t positionStride = count * outs;
    const __m256 zero = _mm256_setzero_ps();
    for (std::int64_t i = 0; i < count; ++i) {
        const auto [n, oh, ow] = tileOrigin(g, first + i);
        const float* pixel[2][2];
        for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 2; ++b)
                pixel[a][b] = oh + a < g.height && ow + b < g.width
                                  ? grad + n * g.yn + (oh + a) * g.yh + (ow + b) * g.yw
                                  : nullptr;
        float* out = dm + i * outs;
        for (std::int64_t o = 0; o < outs; o += 8) {
            __m256 d[2][2];
            for (int a = 0; a < 2; ++a)
                for (int b = 0; b < 2; ++b)
                    d[a][b] = pixel[a][b] != nullptr ? _mm256_loadu_ps(pixel[a][b] + o) : zero;
            __m256 r[4][2]; // A dY
            for (int b = 0; b < 2; ++b) {
                r[0][b] = d[0][b];
                r[1][b] = _mm256_add_ps(d[0][b], d[1][b]);
                r[2][b] = _mm256_sub_ps(d[0][b], d[1][b]);
                r[3][b] = _mm256_sub_ps(zero, d[1][b]);
            }
            for (int k = 0; k < 4; ++k) { // (A dY) A^T
                float* target = out + k * 4 * positionStride + o;
                _mm256_storeu_ps(target, r[k][0]);
                _mm256_storeu_ps(target + positionStride, _mm256_add_ps(r[k][0], r[k][1]));
                _mm256_storeu_ps(target + 2 * positionStride, _mm256_sub_ps(r[k][0], r[k][1]));
                _mm256_storeu_ps(target + 3 * positionStride, _mm256_sub_ps(zero, r[k][1]));
            }
        }
    }
}
#endif

} // namespace

bool winogradConvEnabled() {
    static const bool enabled = avx2KernelEnabled("OSPREY_WINOGRAD");
    return enabled;
}

bool winogradConvTakes(const torch::Tensor& x, const torch::Tensor& weight, std::int64_t stride,
                       std::int64_t padding) {
    if (!x.defined() || !weight.defined() || x.dim() != 4 || weight.dim() != 4 || stride != 1 || padding != 1)
        return false;
    if (!x.device().is_cpu() || !weight.device().is_cpu() || x.scalar_type() != torch::kFloat ||
        weight.scalar_type() != torch::kFloat || x.is_sparse())
        return false;
    return weight.size(2) == 3 && weight.size(3) == 3 && weight.size(0) % 8 == 0 && weight.size(1) % 8 == 0 &&
           x.stride(1) == 1 && (x.size(1) == weight.size(1) || x.size(1) == weight.size(0));
}

torch::Tensor winogradConv3x3(const torch::Tensor& x, const torch::Tensor& weight, bool inputGrad) {
    auto require = [](bool condition, const char* what) {
        if (!condition)
            throw std::invalid_argument(std::string("winogradConv3x3: ") + what);
    };
    require(cpuHasAvx2AndFma(), "this CPU has no AVX2 and FMA");
    require(winogradConvTakes(x, weight, 1, 1),
            "takes float32 CPU tensors, x with contiguous channels, a 3x3 weight with a multiple of 8 of "
            "inputs and outputs");
    const std::int64_t ins = inputGrad ? weight.size(0) : weight.size(1);
    const std::int64_t outs = inputGrad ? weight.size(1) : weight.size(0);
    require(x.size(1) == ins, "x's channels are not the convolution's");
    const std::int64_t batch = x.size(0), height = x.size(2), width = x.size(3);
    auto y =
        torch::empty({batch, outs, height, width}, x.options().memory_format(at::MemoryFormat::ChannelsLast));
    if (y.numel() == 0)
        return y;
#if OSPREY_WINOGRAD_X86
    const auto u = transformFilters(weight, inputGrad);
    const Geometry geometry{height,      width,       (height + 1) / 2, (width + 1) / 2, x.stride(0),
                            x.stride(2), x.stride(3), y.stride(0),      y.stride(2),     y.stride(3)};
    const std::int64_t tiles = batch * geometry.tilesHigh * geometry.tilesWide;
    const std::int64_t chunkTiles = std::clamp<std::int64_t>(
        kChunkFloats / (kPositions * (ins + outs)) / kTileBlock * kTileBlock, kMinChunkTiles, tiles);
    const std::int64_t chunks = (tiles + chunkTiles - 1) / chunkTiles;
    const float* xData = x.data_ptr<float>();
    const float* uData = u.data_ptr<float>();
    float* yData = y.data_ptr<float>();

    at::parallel_for(0, chunks, 1, [&](std::int64_t firstChunk, std::int64_t lastChunk) {
        // (Not value-initialised: every element is written before it is read.)
        const std::unique_ptr<float[]> v(new float[static_cast<std::size_t>(kPositions * chunkTiles * ins)]);
        const std::unique_ptr<float[]> m(new float[static_cast<std::size_t>(kPositions * chunkTiles * outs)]);
        for (std::int64_t chunk = firstChunk; chunk < lastChunk; ++chunk) {
            const std::int64_t first = chunk * chunkTiles, count = std::min(chunkTiles, tiles - first);
            transformInput(xData, geometry, ins, first, count, v.get());
            for (int xi = 0; xi < kPositions; ++xi) {
                const float* vp = v.get() + xi * count * ins;
                const float* up = uData + xi * ins * outs;
                float* mp = m.get() + xi * count * outs;
                for (std::int64_t o = 0; o < outs; o += kOutBlock) {
                    const std::int64_t width = std::min<std::int64_t>(kOutBlock, outs - o);
                    for (std::int64_t t = 0; t < count; t += kTileBlock) {
                        const auto block = static_cast<int>(std::min<std::int64_t>(kTileBlock, count - t));
                        kProductKernels[0][width / 8 - 1][block - 1](
                            {vp + t * ins, ins, 1, up + o * ins, width, ins, mp + t * outs + o, outs});
                    }
                }
            }
            transformOutput(m.get(), geometry, outs, first, count, yData);
        }
    });
#endif
    return y;
}

torch::Tensor winogradWeightGrad3x3(const torch::Tensor& x, const torch::Tensor& grad) {
    auto require = [](bool condition, const char* what) {
        if (!condition)
            throw std::invalid_argument(std::string("winogradWeightGrad3x3: ") + what);
    };
    require(cpuHasAvx2AndFma(), "this CPU has no AVX2 and FMA");
    require(x.defined() && grad.defined() && x.dim() == 4 && grad.dim() == 4 && x.device().is_cpu() &&
                grad.device().is_cpu() && x.scalar_type() == torch::kFloat &&
                grad.scalar_type() == torch::kFloat,
            "x and grad must be 4-D float32 CPU tensors");
    require(x.stride(1) == 1 && grad.stride(1) == 1, "x and grad must have their channels contiguous");
    require(x.size(1) % 8 == 0 && grad.size(1) % 8 == 0, "the channels must be multiples of 8");
    require(grad.size(0) == x.size(0) && grad.size(2) == x.size(2) && grad.size(3) == x.size(3),
            "grad's shape is not the convolution's output shape");
    const std::int64_t batch = x.size(0), ins = x.size(1), outs = grad.size(1);
    const std::int64_t height = x.size(2), width = x.size(3);
    auto result = torch::empty({outs, 3, 3, ins}, x.options());
    if (x.numel() == 0 || grad.numel() == 0)
        return result.zero_().permute({0, 3, 1, 2});
#if OSPREY_WINOGRAD_X86
    const Geometry geometry{height,      width,       (height + 1) / 2, (width + 1) / 2, x.stride(0),
                            x.stride(2), x.stride(3), grad.stride(0),   grad.stride(2),  grad.stride(3)};
    const std::int64_t tiles = batch * geometry.tilesHigh * geometry.tilesWide;
    const std::int64_t chunkTiles = std::clamp<std::int64_t>(
        kChunkFloats / (kPositions * (ins + outs)) / kTileBlock * kTileBlock, kMinChunkTiles, tiles);
    // The tiles in a fixed number of groups (by the shape alone), each group's sum dU its own, added up in
    // group order at the end: the threads share the work whatever its shape, and every weight is the same
    // sum on any number of threads.
    const std::int64_t plane = outs * ins; // dU[xi] is [out][in]
    const std::int64_t groups = std::clamp<std::int64_t>(
        (tiles + kGroupTiles - 1) / kGroupTiles, 1,
        std::max<std::int64_t>(1, std::min(kMaxGroups, kMaxPartialFloats / (kPositions * plane))));
    const std::unique_ptr<float[]> partial(new float[static_cast<std::size_t>(groups * kPositions * plane)]);
    const float* xData = x.data_ptr<float>();
    const float* gradData = grad.data_ptr<float>();

    at::parallel_for(0, groups, 1, [&](std::int64_t firstGroup, std::int64_t lastGroup) {
        const std::unique_ptr<float[]> v(new float[static_cast<std::size_t>(kPositions * chunkTiles * ins)]);
        const std::unique_ptr<float[]> dm(
            new float[static_cast<std::size_t>(kPositions * chunkTiles * outs)]);
        for (std::int64_t group = firstGroup; group < lastGroup; ++group) {
            float* sum = partial.get() + group * kPositions * plane;
            std::fill_n(sum, kPositions * plane, 0.0f);
            const std::int64_t begin = tiles * group / groups, end = tiles * (group + 1) / groups;
            for (std::int64_t first = begin; first < end; first += chunkTiles) {
                const std::int64_t count = std::min(chunkTiles, end - first);
                transformInput(xData, geometry, ins, first, count, v.get());
                transformGradient(gradData, geometry, outs, first, count, dm.get());
                for (int xi = 0; xi < kPositions; ++xi)
                    for (std::int64_t c = 0; c < ins; c += kOutBlock) {
                        const std::int64_t vectors = std::min(kOutBlock, ins - c) / 8;
                        for (std::int64_t o = 0; o < outs; o += kTileBlock) {
                            const auto rows = static_cast<int>(std::min<std::int64_t>(kTileBlock, outs - o));
                            kProductKernels[1][vectors - 1][rows - 1](
                                {dm.get() + xi * count * outs + o, 1, outs, v.get() + xi * count * ins + c,
                                 ins, count, sum + xi * plane + o * ins + c, ins});
                        }
                    }
            }
        }
    });
    // dW = G^T dU G, with dU the groups' sums added in order.
    float* out = result.data_ptr<float>();
    at::parallel_for(0, outs, 1, [&](std::int64_t firstOut, std::int64_t lastOut) {
        std::vector<float> d(static_cast<std::size_t>(kPositions * ins));
        for (std::int64_t o = firstOut; o < lastOut; ++o) {
            for (int xi = 0; xi < kPositions; ++xi) {
                float* row = d.data() + xi * ins;
                std::copy_n(partial.get() + xi * plane + o * ins, ins, row);
                for (std::int64_t group = 1; group < groups; ++group) {
                    const float* add = partial.get() + (group * kPositions + xi) * plane + o * ins;
                    for (std::int64_t c = 0; c < ins; ++c)
                        row[c] += add[c];
                }
            }
            for (std::int64_t c = 0; c < ins; ++c) {
                float s[3][4]; // G^T D
                for (int j = 0; j < 4; ++j) {
                    const float d0 = d[j * ins + c], d1 = d[(4 + j) * ins + c], d2 = d[(8 + j) * ins + c],
                                d3 = d[(12 + j) * ins + c];
                    s[0][j] = d0 + 0.5f * (d1 + d2);
                    s[1][j] = 0.5f * (d1 - d2);
                    s[2][j] = 0.5f * (d1 + d2) + d3;
                }
                float* target = out + o * 9 * ins + c;
                for (int i = 0; i < 3; ++i) { // (G^T D) G
                    target[(i * 3 + 0) * ins] = s[i][0] + 0.5f * (s[i][1] + s[i][2]);
                    target[(i * 3 + 1) * ins] = 0.5f * (s[i][1] - s[i][2]);
                    target[(i * 3 + 2) * ins] = 0.5f * (s[i][1] + s[i][2]) + s[i][3];
                }
            }
        }
    });
#endif
    return result.permute({0, 3, 1, 2});
}

} // namespace osprey::model
