// The augmentation's warp (scale and translation, no rotation or shear) computed separably: the same
// pixels as cv::warpAffine with INTER_LINEAR, exactly.
//
// OpenCV's 8-bit bilinear warp maps each output pixel to a source position in 1/32 pixel steps (its
// fixed point: the inverse matrix times 1024, rounded, plus 16, shifted right by 5) and blends the four
// neighbours with weights wx * wy * 32, where wx and wy are k / 32 and (32 - k) / 32: products that are
// exact in its 15-bit weights, so its blend is (sum + 2^14) >> 15 of integers that factor. Without
// rotation or shear the position's x depends on the output column only and its y on the output row only.
// So each output row first blends two source rows (vertical weights, the whole row at once, vectorised),
// then each output pixel blends two entries of that row (horizontal weights): the same integer sums in
// another order, ((32 - fx) * v0 + fx * v1 + 512) >> 10 of the vertical blends v0, v1.
//
// Border taps: BORDER_REPLICATE clamps each tap's row and column into the image, as OpenCV's remap does;
// BORDER_CONSTANT reads the border value for each tap outside it (a pixel with all four outside gets the
// value itself, as OpenCV gives it).
#include "train/augment_impl.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

namespace osprey::train {

namespace {

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define OSPREY_WARP_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define OSPREY_WARP_CLONES
#endif

constexpr int kFractionBits = 5; // OpenCV's INTER_BITS
constexpr int kFractions = 1 << kFractionBits;
constexpr int kMatrixBits = 10; // OpenCV's AB_BITS
constexpr double kMatrixScale = 1 << kMatrixBits;
constexpr int kRoundDelta = (1 << kMatrixBits) / kFractions / 2;
// The source rows an output row two rows on blends are fetched into cache while this one is made: a
// mosaic's tiles are mostly recent images no cache holds any more (128 of 0.9 MB at batch 16), and the
// loader went 359-360 -> 369-371 images/s a core on 640x480 JPEGs (1 and 4 rows ahead about the same;
// fetching the output's rows, or the decoder's, gained nothing).
constexpr int kPrefetchRows = 2;

// cv::saturate_cast<int>(double): round to nearest, ties to even.
int roundToInt(double value) {
    return static_cast<int>(std::lrint(value));
}

// One axis of the inverse map: for each output index, the two taps (already resolved against the border:
// an index into the source, or `constantTap` for a tap outside it) and the weight of the second, 0..31.
struct AxisMap {
    std::vector<int> tap0, tap1;
    std::vector<std::uint8_t> fraction;
};

// positions[i] is OpenCV's fixed-point source position (in 1/32 pixels) of output index i.
AxisMap resolveAxis(const std::vector<int>& positions, int sourceLength, int borderType, int constantTap) {
    AxisMap map;
    const size_t count = positions.size();
    map.tap0.resize(count);
    map.tap1.resize(count);
    map.fraction.resize(count);
    const auto resolve = [&](int index) {
        if (borderType == cv::BORDER_REPLICATE)
            return std::clamp(index, 0, sourceLength - 1);
        return index < 0 || index >= sourceLength ? constantTap : index;
    };
    for (size_t i = 0; i < count; ++i) {
        // cv::saturate_cast<short> of the integer part, as OpenCV stores it.
        const int whole = std::clamp(positions[i] >> kFractionBits, -32768, 32767);
        map.tap0[i] = resolve(whole);
        map.tap1[i] = resolve(whole + 1);
        map.fraction[i] = static_cast<std::uint8_t>(positions[i] & (kFractions - 1));
    }
    return map;
}

// blended[c] = (32 - fy) * row0[c] + fy * row1[c] over `count` channel values.
OSPREY_WARP_CLONES
void blendRows(const std::uint8_t* __restrict row0, const std::uint8_t* __restrict row1, int fy, int count,
               std::uint16_t* __restrict blended) {
    const int w0 = kFractions - fy;
    for (int c = 0; c < count; ++c)
        blended[c] = static_cast<std::uint16_t>(w0 * row0[c] + fy * row1[c]);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// blendRows 32 values a step: the two rows' bytes interleaved in pairs and each pair times (32 - fy, fy)
// by one pmaddubsw (at most 32 * 255, no saturation); the qword permutes put the unpacks' halves in
// order. The same integers as blendRows, in 10 operations a step against the 18 of GCC's vectorised loop
// (pmovzxbw and pmullw): the tiles' warps 0.57 -> 0.545 ms a 640x640 mosaic on a Zen 2 core. Returns the
// first value not done.
__attribute__((target("avx2"))) int blendRowsAvx2(const std::uint8_t* __restrict row0,
                                                  const std::uint8_t* __restrict row1, int fy, int count,
                                                  std::uint16_t* __restrict blended) {
    const __m256i weights = _mm256_set1_epi16(static_cast<short>((kFractions - fy) | (fy << 8)));
    int c = 0;
    for (; c + 32 <= count; c += 32) {
        const __m256i a =
            _mm256_permute4x64_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(row0 + c)), 0xd8);
        const __m256i b =
            _mm256_permute4x64_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(row1 + c)), 0xd8);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(blended + c),
                            _mm256_maddubs_epi16(_mm256_unpacklo_epi8(a, b), weights));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(blended + c + 16),
                            _mm256_maddubs_epi16(_mm256_unpackhi_epi8(a, b), weights));
    }
    return c;
}
#endif

// out[3x + c] = ((32 - fx) * blended[tap0 + c] + fx * blended[tap1 + c] + 512) >> 10, three channels, from
// x = begin on. `blended` has one readable value after the last tap + 2.
void blendColumns(const std::uint16_t* __restrict blended, const int* __restrict tap0,
                  const int* __restrict tap1, const std::uint8_t* __restrict fraction, int begin, int width,
                  std::uint8_t* __restrict out) {
    constexpr int kShift = 2 * kFractionBits, kRound = 1 << (kShift - 1);
    int x = begin;
#if defined(__SSE2__)
    // One pixel a step: its three values and the next one from each tap, interleaved, times the pair of
    // weights (pmaddwd: the values are at most 32 * 255, the weights at most 32, the sums fit 32 bits),
    // rounded, shifted, packed to bytes; four bytes are stored, the fourth overwritten by the next pixel.
    const __m128i round = _mm_set1_epi32(kRound);
    for (; x + 1 < width; ++x) {
        const __m128i a = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(blended + tap0[x]));
        const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(blended + tap1[x]));
        const int w1 = fraction[x], w0 = kFractions - w1;
        const __m128i sums = _mm_madd_epi16(_mm_unpacklo_epi16(a, b), _mm_set1_epi32(w0 | (w1 << 16)));
        const __m128i words = _mm_srli_epi32(_mm_add_epi32(sums, round), kShift);
        const __m128i bytes = _mm_packus_epi16(_mm_packs_epi32(words, words), words);
        const int packed = _mm_cvtsi128_si32(bytes);
        std::memcpy(out + 3 * x, &packed, 4);
    }
#endif
    for (; x < width; ++x) {
        const std::uint16_t* a = blended + tap0[x];
        const std::uint16_t* b = blended + tap1[x];
        const int w1 = fraction[x], w0 = kFractions - w1;
        for (int c = 0; c < 3; ++c)
            out[3 * x + c] = static_cast<std::uint8_t>((w0 * a[c] + w1 * b[c] + kRound) >> kShift);
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define OSPREY_WARP_AVX2 1
// Output columns x and x + 1 of blendAdjacentColumnsAvx2, each its three values and a zero as 32 bits: one
// 16-byte load holds both taps' three values, a byte shuffle pairs them, one pmaddwd blends them with the
// column's (32 - fx, fx), rounded and shifted as blendColumns does.
__attribute__((target("avx2"))) inline __m256i blendAdjacentPairAvx2(const std::uint16_t* __restrict blended,
                                                                     const int* __restrict tap0,
                                                                     const std::uint32_t* __restrict weights,
                                                                     int x) {
    constexpr int kShift = 2 * kFractionBits, kRound = 1 << (kShift - 1);
    // Words (a0 a1 a2 b0 b1 b2 . .) to (a0 b0 a1 b1 a2 b2 . .).
    const __m256i pair = _mm256_setr_epi8(0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11, -1, -1, -1, -1, //
                                          0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11, -1, -1, -1, -1);
    const __m256i taps =
        _mm256_setr_m128i(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blended + tap0[x])),
                          _mm_loadu_si128(reinterpret_cast<const __m128i*>(blended + tap0[x + 1])));
    const __m256i sums =
        _mm256_madd_epi16(_mm256_shuffle_epi8(taps, pair),
                          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(weights + 4 * x)));
    return _mm256_srli_epi32(_mm256_add_epi32(sums, _mm256_set1_epi32(kRound)), kShift);
}

// blendColumns eight pixels a step (then four), over columns whose second tap is the pixel after the first
// (all but the border's; the caller finds them once per warp), two at a time by blendAdjacentPairAvx2, the
// pixels' bytes gathered into 16-byte stores (the last four bytes of each overwritten by the next store or
// by blendColumns). Eight a step: one tile warped over a whole 640x640 output 0.39 -> 0.37 ms on a Zen 2
// core. `weights` holds each column's (32 - fx, fx) pair four times. The same integer arithmetic as
// blendColumns, so the same bytes. Leaves at least two columns of the row to the caller; returns the first
// column not done.
__attribute__((target("avx2"))) int blendAdjacentColumnsAvx2(const std::uint16_t* __restrict blended,
                                                             const int* __restrict tap0,
                                                             const std::uint32_t* __restrict weights,
                                                             int count, std::uint8_t* __restrict out) {
    // Eight pixels a step: the packs leave pixels x, x+2, x+4, x+6 in the low half and the odd ones in the
    // high half (four bytes each); a dword permute puts them in order, a byte shuffle drops each fourth
    // byte, and each half's 12 bytes are stored as 16 (the next four overwritten after).
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const __m256i compact8 = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1, //
                                              0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    // Four: after the packs, bytes p0 . p2 . | p1 . p3 . (three values and a zero each), to p0 p1 p2 p3.
    const __m128i compact = _mm_setr_epi8(0, 1, 2, 8, 9, 10, 4, 5, 6, 12, 13, 14, -1, -1, -1, -1);
    int x = 0;
    for (; x + 10 <= count; x += 8) {
        const __m256i bytes =
            _mm256_packus_epi16(_mm256_packs_epi32(blendAdjacentPairAvx2(blended, tap0, weights, x),
                                                   blendAdjacentPairAvx2(blended, tap0, weights, x + 2)),
                                _mm256_packs_epi32(blendAdjacentPairAvx2(blended, tap0, weights, x + 4),
                                                   blendAdjacentPairAvx2(blended, tap0, weights, x + 6)));
        const __m256i packed = _mm256_shuffle_epi8(_mm256_permutevar8x32_epi32(bytes, order), compact8);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 3 * x), _mm256_castsi256_si128(packed));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 3 * x + 12), _mm256_extracti128_si256(packed, 1));
    }
    for (; x + 6 <= count; x += 4) {
        const __m256i words = _mm256_packs_epi32(blendAdjacentPairAvx2(blended, tap0, weights, x),
                                                 blendAdjacentPairAvx2(blended, tap0, weights, x + 2));
        const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(words, words), 0x08);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 3 * x),
                         _mm_shuffle_epi8(_mm256_castsi256_si128(bytes), compact));
    }
    return x;
}
#endif

} // namespace

void warpScaleTranslate(const cv::Mat& src, cv::Mat& dst, double scaleX, double scaleY, double offsetX,
                        double offsetY, int borderType, int borderValue) {
    CV_Assert(src.type() == CV_8UC3 && dst.type() == CV_8UC3 && !src.empty() && scaleX > 0 && scaleY > 0);
    CV_Assert(borderType == cv::BORDER_REPLICATE || borderType == cv::BORDER_CONSTANT);
    // The inverse of [scaleX 0 offsetX; 0 scaleY offsetY] as cv::warpAffine computes it (same operations,
    // so the same doubles).
    double m[6] = {scaleX, 0, offsetX, 0, scaleY, offsetY};
    {
        double d = m[0] * m[4] - m[1] * m[3];
        d = d != 0 ? 1. / d : 0;
        const double a11 = m[4] * d, a22 = m[0] * d;
        m[0] = a11;
        m[1] *= -d;
        m[3] *= -d;
        m[4] = a22;
        const double b1 = -m[0] * m[2] - m[1] * m[5];
        const double b2 = -m[3] * m[2] - m[4] * m[5];
        m[2] = b1;
        m[5] = b2;
    }
    const int width = dst.cols, height = dst.rows;
    const int shift = kMatrixBits - kFractionBits;
#ifdef OSPREY_WARP_AVX2
    static const bool hasAvx2 = __builtin_cpu_supports("avx2");
#endif
    // m[1] and m[3] are zero, so a column's x and a row's y do not depend on the other coordinate.
    std::vector<int> xs(width), ys(height);
    const int x0 = roundToInt(m[2] * kMatrixScale) + kRoundDelta;
    for (int x = 0; x < width; ++x)
        xs[x] = (x0 + roundToInt(m[0] * x * kMatrixScale)) >> shift;
    for (int y = 0; y < height; ++y)
        ys[y] = (roundToInt((m[4] * y + m[5]) * kMatrixScale) + kRoundDelta) >> shift;

    // Source columns are read from a blended row that holds src.cols pixels and, after them, one pixel of
    // the border value (times 32, as a blend of two border rows would be) for constant-border taps.
    const AxisMap columns = resolveAxis(xs, src.cols, borderType, src.cols);
    const AxisMap rows = resolveAxis(ys, src.rows, borderType, -1);
    std::vector<int> tap0(width), tap1(width);
    std::vector<std::uint32_t> weights(4 * static_cast<size_t>(width));
    for (int x = 0; x < width; ++x) {
        tap0[x] = 3 * columns.tap0[x];
        tap1[x] = 3 * columns.tap1[x];
        const std::uint32_t w1 = columns.fraction[x], w0 = kFractions - w1;
        std::fill_n(weights.begin() + 4 * x, 4, w0 | (w1 << 16));
    }
    // Only the source columns some output pixel reads are blended.
    int firstColumn = src.cols, lastColumn = -1;
    for (int x = 0; x < width; ++x)
        for (const int tap : {columns.tap0[x], columns.tap1[x]})
            if (tap < src.cols)
                firstColumn = std::min(firstColumn, tap), lastColumn = std::max(lastColumn, tap);
    // Two values more, read (and discarded) by the eight-value loads of blendAdjacentColumnsAvx2 (and the
    // four-value ones of blendColumns).
    std::vector<std::uint16_t> blended(3 * (src.cols + 1) + 2);
    const auto constant = static_cast<std::uint16_t>(kFractions * std::clamp(borderValue, 0, 255));
    std::fill(blended.begin() + 3 * src.cols, blended.end(), constant);
    std::vector<std::uint8_t> constantRow(3 * static_cast<size_t>(src.cols),
                                          static_cast<std::uint8_t>(std::clamp(borderValue, 0, 255)));
    const auto sourceRow = [&](int tap) { return tap < 0 ? constantRow.data() : src.ptr<std::uint8_t>(tap); };
    // The columns whose taps are adjacent pixels: one run (positions grow with x; the border's columns,
    // clamped or constant, lie before and after it).
    int adjacentBegin = 0, adjacentEnd = 0;
    while (adjacentBegin < width && tap1[adjacentBegin] != tap0[adjacentBegin] + 3)
        ++adjacentBegin;
    adjacentEnd = adjacentBegin;
    while (adjacentEnd < width && tap1[adjacentEnd] == tap0[adjacentEnd] + 3)
        ++adjacentEnd;
    for (int y = 0; y < height; ++y) {
        if (lastColumn >= firstColumn) {
            const int offset = 3 * firstColumn;
            const std::uint8_t *row0 = sourceRow(rows.tap0[y]) + offset,
                               *row1 = sourceRow(rows.tap1[y]) + offset;
            const int count = 3 * (lastColumn - firstColumn + 1);
            if (y + kPrefetchRows < height)
                for (const int tap : {rows.tap0[y + kPrefetchRows], rows.tap1[y + kPrefetchRows]})
                    if (tap >= 0)
                        for (int c = 0; c < count; c += 64)
                            __builtin_prefetch(src.ptr<std::uint8_t>(tap) + offset + c);
            int done = 0;
#ifdef OSPREY_WARP_AVX2
            if (hasAvx2)
                done = blendRowsAvx2(row0, row1, rows.fraction[y], count, blended.data() + offset);
#endif
            blendRows(row0 + done, row1 + done, rows.fraction[y], count - done,
                      blended.data() + offset + done);
        }
        std::uint8_t* out = dst.ptr<std::uint8_t>(y);
        int x = 0;
#ifdef OSPREY_WARP_AVX2
        // The left border's columns by blendColumns, the adjacent run four at a time (its last columns and
        // the right border's by blendColumns again). The run's stores spill into the columns after it, which
        // blendColumns writes afterwards.
        if (hasAvx2 && adjacentEnd - adjacentBegin >= 6) {
            blendColumns(blended.data(), tap0.data(), tap1.data(), columns.fraction.data(), 0, adjacentBegin,
                         out);
            x = adjacentBegin + blendAdjacentColumnsAvx2(blended.data(), tap0.data() + adjacentBegin,
                                                         weights.data() + 4 * adjacentBegin,
                                                         adjacentEnd - adjacentBegin,
                                                         out + 3 * adjacentBegin);
        }
#endif
        blendColumns(blended.data(), tap0.data(), tap1.data(), columns.fraction.data(), x, width, out);
    }
}

} // namespace osprey::train
