// The augmentation's warp (scale and translation, no rotation or shear) computed separably: the same
// pixels as cv::warpAffine with INTER_LINEAR, exactly.
//
// OpenCV's 8-bit bilinear warp maps each output pixel to a source position in 1/32 pixel steps (its
// fixed point: the inverse matrix times 1024, rounded, plus 16, shifted right by 5) and blends the four
// neighbours with weights wx * wy * 32, where wx and wy are k / 32 and (32 - k) / 32: products that are
// exact in its 15-bit weights, so its blend is (sum + 2^14) >> 15 of integers that factor. Without
// rotation or shear the position's x depends on the output column only and its y on the output row only.
// So each source row an output row reads is first blended across (each output column's two taps with its
// horizontal weights: h = (32 - fx) * a + fx * b, at most 32 * 255), once, and kept while the next output
// rows read it; then each output row blends its two source rows' h values with its vertical weights: the
// same integer sums in another order, ((32 - fy) * h0 + fy * h1 + 512) >> 10.
//
// On one core of a Zen 2 EPYC, one tile warped over a whole 640x640 output 0.37 -> 0.22 ms against the
// order before (each output row blended two source rows vertically over the source's width, then each
// output pixel read its two taps from that row, one 16-byte load a pixel: 14 cycles per 8 pixels, the CPU's
// four instructions a cycle full); the mosaic's tiles 0.46 -> 0.39 ms an image, the loader 372 -> 378
// images/s on 640x480 JPEGs (bench_pipeline). Across, a 16-byte load holds two output pixels' taps (scales
// above 1/3), one pshufb pairs them and one pmaddubsw blends them; down, 32 values take 16 instructions.
//
// Border taps: BORDER_REPLICATE clamps each tap's row and column into the image, as OpenCV's remap does;
// BORDER_CONSTANT reads the border value for each tap outside it (a pixel with all four outside gets the
// value itself, as OpenCV gives it).
#include "train/augment_impl.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

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

// cv::saturate_cast<int>(double): round to nearest, ties to even (cvRound: one conversion instruction).
int roundToInt(double value) {
    return cvRound(value);
}

// One axis of the inverse map: for each output index, the two taps (already resolved against the border:
// an index into the source times `stride`, or -1 for a constant-border tap outside it) and the weight of the
// second, 0..31.
struct AxisMap {
    std::vector<int> tap0, tap1;
    std::vector<std::uint8_t> fraction;
};

// position(i) is OpenCV's fixed-point source position (in 1/32 pixels) of output index i.
template <typename Position>
AxisMap resolveAxis(int count, const Position& position, int sourceLength, int borderType, int stride) {
    AxisMap map;
    map.tap0.resize(static_cast<size_t>(count));
    map.tap1.resize(static_cast<size_t>(count));
    map.fraction.resize(static_cast<size_t>(count));
    const auto resolve = [&](int index) {
        if (borderType == cv::BORDER_REPLICATE)
            return stride * std::clamp(index, 0, sourceLength - 1);
        return index < 0 || index >= sourceLength ? -1 : stride * index;
    };
    for (int i = 0; i < count; ++i) {
        const int at = position(i);
        // cv::saturate_cast<short> of the integer part, as OpenCV stores it.
        const int whole = std::clamp(at >> kFractionBits, -32768, 32767);
        map.tap0[i] = resolve(whole);
        map.tap1[i] = resolve(whole + 1);
        map.fraction[i] = static_cast<std::uint8_t>(at & (kFractions - 1));
    }
    return map;
}

// The horizontal blends of one source row, output columns [begin, end):
// h[3x + c] = (32 - fx) * A(tap0[x] + c) + fx * A(tap1[x] + c), where A reads the row at a byte offset, or
// the border value for a tap of -1.
void blendColumns(const std::uint8_t* __restrict row, const int* __restrict tap0, const int* __restrict tap1,
                  const std::uint8_t* __restrict fraction, std::uint8_t constant, int begin, int end,
                  std::uint16_t* __restrict h) {
    for (int x = begin; x < end; ++x) {
        const int w1 = fraction[x], w0 = kFractions - w1;
        if (tap0[x] >= 0 && tap1[x] >= 0) {
            const std::uint8_t *a = row + tap0[x], *b = row + tap1[x];
            for (int c = 0; c < 3; ++c)
                h[3 * x + c] = static_cast<std::uint16_t>(w0 * a[c] + w1 * b[c]);
            continue;
        }
        for (int c = 0; c < 3; ++c) {
            const int a = tap0[x] < 0 ? constant : row[tap0[x] + c];
            const int b = tap1[x] < 0 ? constant : row[tap1[x] + c];
            h[3 * x + c] = static_cast<std::uint16_t>(w0 * a + w1 * b);
        }
    }
}

// The bytes a lane of blendColumnsAvx2 loads from a source row.
constexpr int kLaneBytes = 16;

// out[i] = ((32 - fy) * h0[i] + fy * h1[i] + 512) >> 10 over values [begin, count).
OSPREY_WARP_CLONES
void blendRows(const std::uint16_t* __restrict h0, const std::uint16_t* __restrict h1, int fy, int begin,
               int count, std::uint8_t* __restrict out) {
    constexpr int kShift = 2 * kFractionBits, kRound = 1 << (kShift - 1);
    const int w0 = kFractions - fy;
    for (int i = begin; i < count; ++i)
        out[i] = static_cast<std::uint8_t>((w0 * h0[i] + fy * h1[i] + kRound) >> kShift);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define OSPREY_WARP_AVX2 1
// The columns blendColumnsAvx2 does: [begin, end), `perLane` (1 or 2) output pixels to each 16-byte lane,
// two lanes a step. Per lane, the byte offset of its first tap in a source row (all its taps' values lie in
// the 16 bytes from there; the last lanes' 16 bytes run past the row), the byte shuffle that pairs its taps'
// values (a0 b0 a1 b1 a2 b2 per pixel) and the matching weights (32 - fx, fx).
struct LanePlan {
    int perLane = 0, begin = 0, end = 0;
    std::vector<std::ptrdiff_t> offset;
    std::vector<std::uint8_t> shuffle, weights;
};

// The longest run of columns, from the first that can start one, that lanes of `perLane` pixels cover in
// steps of two lanes. A lane's bytes start at its lowest tap (its first pixel's, or its last one's where the
// columns run right to left: a mirrored warp).
LanePlan planLanes(const std::vector<int>& tap0, const std::vector<int>& tap1,
                   const std::vector<std::uint8_t>& fraction, int perLane) {
    const int width = static_cast<int>(tap0.size());
    const auto laneBase = [&](int x) { return std::min(tap0[x], tap0[x + perLane - 1]); };
    const auto laneFits = [&](int x) {
        if (x + perLane > width)
            return false;
        const int base = laneBase(x);
        for (int j = 0; j < perLane; ++j)
            if (tap0[x + j] < 0 || tap1[x + j] < 0 || tap1[x + j] + 3 > base + kLaneBytes)
                return false;
        return true;
    };
    const auto stepFits = [&](int x) { return laneFits(x) && laneFits(x + perLane); };
    LanePlan plan;
    plan.perLane = perLane;
    int x = 0;
    while (x < width && !stepFits(x))
        ++x;
    plan.begin = plan.end = x;
    while (plan.end < width && stepFits(plan.end))
        plan.end += 2 * perLane;
    const int lanes = (plan.end - plan.begin) / perLane;
    plan.offset.resize(static_cast<size_t>(lanes));
    // pshufb writes 0 for a byte with its top bit set.
    plan.shuffle.assign(16 * static_cast<size_t>(lanes), 0x80);
    plan.weights.assign(16 * static_cast<size_t>(lanes), 0);
    // A pixel's six shuffle bytes (t0, t1, t0 + 1, t1 + 1, t0 + 2, t1 + 2) and weights ((32 - fx, fx) three
    // times) are written as eight, the last two overwritten by the lane's next pixel or left in the values
    // after the lane's (which the next store overwrites).
    constexpr std::uint64_t kChannels = 0x0000020201010000, kFirst = 0x0000000100010001;
    constexpr std::uint64_t kSecond = kFirst << 8;
    for (int lane = 0; lane < lanes; ++lane) {
        const int first = plan.begin + perLane * lane, base = laneBase(first);
        plan.offset[lane] = base;
        for (int j = 0; j < perLane; ++j) {
            const int x = first + j;
            const std::uint64_t shuffle = kChannels + static_cast<std::uint64_t>(tap0[x] - base) * kFirst +
                                          static_cast<std::uint64_t>(tap1[x] - base) * kSecond;
            const std::uint64_t weights =
                static_cast<std::uint64_t>((kFractions - fraction[x]) | (fraction[x] << 8)) * kFirst;
            std::memcpy(plan.shuffle.data() + 16 * lane + 6 * j, &shuffle, 8);
            std::memcpy(plan.weights.data() + 16 * lane + 6 * j, &weights, 8);
        }
    }
    return plan;
}

// blendColumns over the plan's columns, two lanes a step: each lane's 16 source bytes loaded once, its taps'
// values paired by one pshufb and blended by one pmaddubsw with (32 - fx, fx) (at most 32 * 255: no
// saturation). A step's store spills into the next step's values, written after it (and past the run: into
// the columns blendColumns writes afterwards, or the row's slack). The same integers as blendColumns. Two
// pixels a lane: one 32-byte store a step instead of two 16-byte ones, the warp 4 % faster (scratch
// harness, five scales).
__attribute__((target("avx2"))) void blendColumnsAvx2(const std::uint8_t* __restrict row,
                                                      const LanePlan& plan, std::uint16_t* __restrict h) {
    const int lanes = static_cast<int>(plan.offset.size()), values = 3 * plan.perLane;
    const __m256i adjacent = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7);
    std::uint16_t* at = h + 3 * plan.begin;
    for (int lane = 0; lane < lanes; lane += 2) {
        const __m256i bytes =
            _mm256_setr_m128i(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row + plan.offset[lane])),
                              _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + plan.offset[lane + 1])));
        const __m256i paired = _mm256_shuffle_epi8(
            bytes, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(plan.shuffle.data() + 16 * lane)));
        const __m256i sums = _mm256_maddubs_epi16(
            paired, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(plan.weights.data() + 16 * lane)));
        if (plan.perLane == 2) {
            // The two lanes' twelve values made adjacent by one dword permute, stored at once.
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(at), _mm256_permutevar8x32_epi32(sums, adjacent));
        } else {
            _mm_storeu_si128(reinterpret_cast<__m128i*>(at), _mm256_castsi256_si128(sums));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(at + values), _mm256_extracti128_si256(sums, 1));
        }
        at += 2 * values;
    }
}

// blendRows on the 32 values from i, as (h0 + floor(fy * (h1 - h0) / 32) + 16) >> 5: the same integer (with
// t = fy * (h1 - h0) = 32q + r, 0 <= r < 32: 32 h0 + t + 512 = 32 (h0 + q + 16) + r, and r cannot carry
// past a multiple of 1024), in 16-bit lanes: q is the high half of 2 (h1 - h0) times fy * 1024 (pmulhw,
// both within 16 bits), and h0 + q >= 0.
__attribute__((target("avx2"))) inline void blendRowsStepAvx2(const std::uint16_t* __restrict h0,
                                                              const std::uint16_t* __restrict h1,
                                                              __m256i weight, int i,
                                                              std::uint8_t* __restrict out) {
    __m256i halves[2];
    for (int k = 0; k < 2; ++k) {
        const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(h0 + i + 16 * k));
        const __m256i d =
            _mm256_sub_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(h1 + i + 16 * k)), a);
        const __m256i q = _mm256_mulhi_epi16(_mm256_add_epi16(d, d), weight);
        halves[k] = _mm256_srli_epi16(_mm256_add_epi16(_mm256_add_epi16(a, q), _mm256_set1_epi16(16)), 5);
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                        _mm256_permute4x64_epi64(_mm256_packus_epi16(halves[0], halves[1]), 0xd8));
}

// blendRows 32 values a step, the last step ending at the row's end (it redoes some values: the same
// bytes). Returns the first value not done.
__attribute__((target("avx2"))) int blendRowsAvx2(const std::uint16_t* __restrict h0,
                                                  const std::uint16_t* __restrict h1, int fy, int count,
                                                  std::uint8_t* __restrict out) {
    if (count < 32)
        return 0;
    const __m256i weight = _mm256_set1_epi16(static_cast<short>(fy << 10));
    for (int i = 0; i + 32 <= count; i += 32)
        blendRowsStepAvx2(h0, h1, weight, i, out);
    if (count % 32 != 0)
        blendRowsStepAvx2(h0, h1, weight, count - 32, out);
    return count;
}
#endif

} // namespace

void warpScaleTranslate(const cv::Mat& src, cv::Mat& dst, double scaleX, double scaleY, double offsetX,
                        double offsetY, int borderType, int borderValue, bool mirror) {
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
    // m[1] and m[3] are zero, so a column's x and a row's y do not depend on the other coordinate. Columns'
    // taps as byte offsets into a source row, rows' as row indices; -1 for the constant border (for a row: a
    // row of the border value).
    const int x0 = roundToInt(m[2] * kMatrixScale) + kRoundDelta;
    const AxisMap columns = [&] {
        AxisMap map = resolveAxis(
            width, [&](int x) { return (x0 + roundToInt(m[0] * x * kMatrixScale)) >> shift; }, src.cols,
            borderType, 3);
        // Mirrored: output column x takes column width - 1 - x's taps and weight.
        if (mirror) {
            std::reverse(map.tap0.begin(), map.tap0.end());
            std::reverse(map.tap1.begin(), map.tap1.end());
            std::reverse(map.fraction.begin(), map.fraction.end());
        }
        return map;
    }();
    const AxisMap rows = resolveAxis(
        height, [&](int y) { return (roundToInt((m[4] * y + m[5]) * kMatrixScale) + kRoundDelta) >> shift; },
        src.rows, borderType, 1);
    const std::vector<int>& tap0 = columns.tap0;
    const std::vector<int>& tap1 = columns.tap1;
    const auto constant = static_cast<std::uint8_t>(std::clamp(borderValue, 0, 255));
    // A lane's 16-byte load may reach up to 13 bytes past its row (bytes no shuffle picks): a row too close
    // to the end of the image's memory is read from a copy with room after it, as is the constant row.
    const size_t rowBytes = 3 * static_cast<size_t>(src.cols);
    std::vector<std::uint8_t> constantRow(rowBytes + kLaneBytes, constant), lastRows;
    const auto sourceRow = [&](int tap) -> const std::uint8_t* {
        if (tap < 0)
            return constantRow.data();
        const std::uint8_t* row = src.ptr<std::uint8_t>(tap);
        if (static_cast<size_t>(src.datalimit - row) >= rowBytes + kLaneBytes)
            return row;
        lastRows.resize(rowBytes + kLaneBytes);
        std::copy_n(row, rowBytes, lastRows.begin());
        return lastRows.data();
    };
    // The source bytes some output pixel reads, for fetching rows ahead (a constant tap's -1 + 2 is below any
    // other's).
    int firstByte = 3 * src.cols, lastByte = -1;
    for (int x = 0; x < width; ++x) {
        firstByte = tap0[x] >= 0 ? std::min(firstByte, tap0[x]) : firstByte;
        lastByte = std::max({lastByte, tap0[x] + 2, tap1[x] + 2});
    }
#ifdef OSPREY_WARP_AVX2
    // Two output pixels to a lane where a pixel's taps are at most three source pixels apart (scales above
    // about 1/3), else one.
    LanePlan lanes;
    if (hasAvx2) {
        lanes = planLanes(tap0, tap1, columns.fraction, 2);
        if (2 * (lanes.end - lanes.begin) < width)
            if (LanePlan single = planLanes(tap0, tap1, columns.fraction, 1);
                single.end - single.begin > lanes.end - lanes.begin)
                lanes = std::move(single);
    }
#endif
    // A source row's horizontal blends, kept for the next output row that reads it (consecutive output rows
    // mostly share their source rows). Six values of slack for the lanes' last store.
    const size_t values = 3 * static_cast<size_t>(width);
    std::vector<std::uint16_t> blended[2] = {std::vector<std::uint16_t>(values + 6),
                                             std::vector<std::uint16_t>(values + 6)};
    int blendedRow[2] = {INT_MIN, INT_MIN};
    const auto horizontal = [&](int tap, int keep) -> const std::uint16_t* {
        for (int k = 0; k < 2; ++k)
            if (blendedRow[k] == tap)
                return blended[k].data();
        const int slot = blendedRow[0] == keep ? 1 : 0;
        const std::uint8_t* row = sourceRow(tap);
        std::uint16_t* h = blended[slot].data();
        int done = 0;
#ifdef OSPREY_WARP_AVX2
        if (lanes.end > lanes.begin) {
            blendColumns(row, tap0.data(), tap1.data(), columns.fraction.data(), constant, 0, lanes.begin, h);
            blendColumnsAvx2(row, lanes, h);
            done = lanes.end;
        }
#endif
        blendColumns(row, tap0.data(), tap1.data(), columns.fraction.data(), constant, done, width, h);
        blendedRow[slot] = tap;
        return h;
    };
    // Rows' taps only grow with y (the scale is positive): each source row is fetched once, by the first
    // output row that looks ahead to it.
    int fetched = -1;
    for (int y = 0; y < height; ++y) {
        if (y + kPrefetchRows < height && lastByte >= firstByte)
            for (const int tap : {rows.tap0[y + kPrefetchRows], rows.tap1[y + kPrefetchRows]})
                if (tap > fetched) {
                    fetched = tap;
                    for (int c = firstByte; c <= lastByte; c += 64)
                        __builtin_prefetch(src.ptr<std::uint8_t>(tap) + c);
                }
        const int fy = rows.fraction[y];
        const std::uint16_t* h0 = horizontal(rows.tap0[y], rows.tap1[y]);
        // A weight of 0 leaves the second row out of every sum.
        const std::uint16_t* h1 = fy == 0 ? h0 : horizontal(rows.tap1[y], rows.tap0[y]);
        std::uint8_t* out = dst.ptr<std::uint8_t>(y);
        int done = 0;
#ifdef OSPREY_WARP_AVX2
        if (hasAvx2)
            done = blendRowsAvx2(h0, h1, fy, static_cast<int>(values), out);
#endif
        blendRows(h0, h1, fy, done, static_cast<int>(values), out);
    }
}

} // namespace osprey::train
