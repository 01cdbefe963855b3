#include "model/winograd_conv_torch_impl.h"

#include "model/cpu_kernels.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <array>
#include <cstdlib>
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
// same order on any number of threads.
constexpr int kPositions = 16;
constexpr int kTileBlock = 6;
constexpr int kOutVectorBlock = 2; // vectors of 8 outputs in the register tile
constexpr std::int64_t kOutBlock = 8 * kOutVectorBlock;
constexpr std::int64_t kChunkFloats = 64 * 1024; // V and M of one chunk: 256 kB
constexpr std::int64_t kMinChunkTiles = 4 * kTileBlock;

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

using GemmKernel = void (*)(const float*, std::int64_t, const float*, std::int64_t, std::int64_t, float*,
                            std::int64_t);

#if OSPREY_WINOGRAD_X86
// m[t * mStride + o] = sum_c v[t * vStride + c] * u[c * uStride + o] for t < Tiles, o < 8 * Vectors.
// Named accumulators (not an array) keep GCC from storing them at every step (see conv_weight_grad.cpp).
#define OSPREY_TILES(X) X(0) X(1) X(2) X(3) X(4) X(5)
template <int Tiles, int Vectors>
__attribute__((target("avx2,fma"))) void multiplyTile(const float* v, std::int64_t vStride, const float* u,
                                                      std::int64_t uStride, std::int64_t channels, float* m,
                                                      std::int64_t mStride) {
    static_assert(Tiles >= 1 && Tiles <= kTileBlock && (Vectors == 1 || Vectors == 2));
#define OSPREY_DECLARE(t) [[maybe_unused]] __m256 acc##t##a = _mm256_setzero_ps(), acc##t##b = acc##t##a;
    OSPREY_TILES(OSPREY_DECLARE)
#undef OSPREY_DECLARE
    for (std::int64_t c = 0; c < channels; ++c, u += uStride, ++v) {
        const __m256 ua = _mm256_loadu_ps(u);
        [[maybe_unused]] const __m256 ub = Vectors == 2 ? _mm256_loadu_ps(u + 8) : ua;
#define OSPREY_STEP(t)                                                                                       \
    if constexpr (Tiles > (t)) {                                                                             \
        const __m256 value = _mm256_broadcast_ss(v + (t)*vStride);                                           \
        acc##t##a = _mm256_fmadd_ps(value, ua, acc##t##a);                                                   \
        if constexpr (Vectors == 2)                                                                          \
            acc##t##b = _mm256_fmadd_ps(value, ub, acc##t##b);                                               \
    }
        OSPREY_TILES(OSPREY_STEP)
#undef OSPREY_STEP
    }
#define OSPREY_STORE(t)                                                                                      \
    if constexpr (Tiles > (t)) {                                                                             \
        _mm256_storeu_ps(m + (t)*mStride, acc##t##a);                                                        \
        if constexpr (Vectors == 2)                                                                          \
            _mm256_storeu_ps(m + (t)*mStride + 8, acc##t##b);                                                \
    }
    OSPREY_TILES(OSPREY_STORE)
#undef OSPREY_STORE
}
#undef OSPREY_TILES

template <int Vectors, std::size_t... Tiles>
constexpr std::array<GemmKernel, sizeof...(Tiles)> kernelsFor(std::index_sequence<Tiles...>) {
    return {&multiplyTile<static_cast<int>(Tiles) + 1, Vectors>...};
}

// [vectors - 1][tiles - 1]
constexpr std::array<std::array<GemmKernel, kTileBlock>, kOutVectorBlock> kGemmKernels = {
    kernelsFor<1>(std::make_index_sequence<kTileBlock>{}),
    kernelsFor<2>(std::make_index_sequence<kTileBlock>{})};

struct Geometry {
    std::int64_t height, width, tilesHigh, tilesWide;
    std::int64_t xn, xh, xw; // input strides
    std::int64_t yn, yh, yw; // output strides
};

// V[xi][i][c] = (B^T d B)[xi] for the chunk's tiles first..first+count and every channel.
__attribute__((target("avx2,fma"))) void transformInput(const float* x, const Geometry& g,
                                                        std::int64_t channels, std::int64_t first,
                                                        std::int64_t count, float* v) {
    const std::int64_t positionStride = count * channels;
    const __m256 zero = _mm256_setzero_ps();
    for (std::int64_t i = 0; i < count; ++i) {
        const std::int64_t tile = first + i;
        const std::int64_t n = tile / (g.tilesHigh * g.tilesWide), rest = tile % (g.tilesHigh * g.tilesWide);
        const std::int64_t row0 = 2 * (rest / g.tilesWide) - 1, col0 = 2 * (rest % g.tilesWide) - 1;
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
        const std::int64_t tile = first + i;
        const std::int64_t n = tile / (g.tilesHigh * g.tilesWide), rest = tile % (g.tilesHigh * g.tilesWide);
        const std::int64_t oh = 2 * (rest / g.tilesWide), ow = 2 * (rest % g.tilesWide);
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
                        kGemmKernels[width / 8 - 1][block - 1](vp + t * ins, ins, up + o * ins, width, ins,
                                                               mp + t * outs + o, outs);
                    }
                }
            }
            transformOutput(m.get(), geometry, outs, first, count, yData);
        }
    });
#endif
    return y;
}

} // namespace osprey::model
