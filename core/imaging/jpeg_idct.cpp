// libjpeg-turbo's islow IDCT, four blocks at once (jpeg_idct_impl.h). The algorithm is libjpeg's
// (jidctint.c, after Loeffler, Ligtenberg and Moschytz): a column pass descaled by CONST_BITS - PASS1_BITS
// = 11 bits, a row pass descaled by CONST_BITS + PASS1_BITS + 3 = 18, each output saturated to 0..255.
// Its rotations are regrouped so that each output of the odd part is one combination of the four odd
// inputs (two multiply-adds of interleaved pairs); in integers that is the same sum, exactly.
#include "imaging/jpeg_idct_impl.h"

#include <cstdlib>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// GCC 12's AVX-512 intrinsics read an uninitialised "undefined" vector (its bug 105593, fixed in GCC 13):
// silenced for the header only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#define OSPREY_IDCT_AVX512 1
#define OSPREY_IDCT_TARGET __attribute__((target("avx512f,avx512bw")))
#endif

namespace osprey::imaging::jpeg {

namespace {

// libjpeg's constants: FIX(x) = x * 2^13, rounded.
constexpr int kF0298 = 2446, kF0390 = 3196, kF0541 = 4433, kF0765 = 6270, kF0899 = 7373, kF1175 = 9633,
              kF1501 = 12299, kF1847 = 15137, kF1961 = 16069, kF2053 = 16819, kF2562 = 20995, kF3072 = 25172;
constexpr int kConstBits = 13, kPass1Bits = 2;

#ifdef OSPREY_IDCT_AVX512

// Two 16-bit factors for a multiply-add of interleaved pairs (a with the first of each pair, b the second).
OSPREY_IDCT_TARGET inline __m512i factors(int a, int b) {
    return _mm512_set1_epi32(static_cast<int>(
        static_cast<std::uint32_t>(static_cast<std::uint16_t>(b)) << 16 | static_cast<std::uint16_t>(a)));
}

struct Halves {
    __m512i low, high; // 32-bit sums of a vector's elements 0-3 and 4-7 of each 128-bit lane
};

OSPREY_IDCT_TARGET inline Halves multiplyAdd(const Halves& pairs, int a, int b) {
    const __m512i f = factors(a, b);
    return {_mm512_madd_epi16(pairs.low, f), _mm512_madd_epi16(pairs.high, f)};
}

OSPREY_IDCT_TARGET inline Halves interleave(__m512i a, __m512i b) {
    return {_mm512_unpacklo_epi16(a, b), _mm512_unpackhi_epi16(a, b)};
}

OSPREY_IDCT_TARGET inline Halves add(const Halves& a, const Halves& b) {
    return {_mm512_add_epi32(a.low, b.low), _mm512_add_epi32(a.high, b.high)};
}

OSPREY_IDCT_TARGET inline Halves subtract(const Halves& a, const Halves& b) {
    return {_mm512_sub_epi32(a.low, b.low), _mm512_sub_epi32(a.high, b.high)};
}

// Descaled and packed back to 16 bits, saturated as libjpeg-turbo's SIMD IDCT packs.
template <int kShift> OSPREY_IDCT_TARGET inline __m512i descale(const Halves& value) {
    return _mm512_packs_epi32(_mm512_srai_epi32(value.low, kShift), _mm512_srai_epi32(value.high, kShift));
}

// One 1-D pass over eight vectors (x[k]: the k-th input of 32 transforms), outputs in place, descaled by
// kShift bits (rounded: the rounding is added to the even part's first terms, which every output has).
template <int kShift> [[gnu::always_inline]] OSPREY_IDCT_TARGET inline void pass(__m512i x[8]) {
    const __m512i rounding = _mm512_set1_epi32(1 << (kShift - 1));
    // Even part: tmp0, tmp1 = (x0 +- x4) << 13; tmp3, tmp2 the rotation of x2, x6.
    const Halves even04 = interleave(x[0], x[4]), even26 = interleave(x[2], x[6]);
    Halves tmp0 = multiplyAdd(even04, 1 << kConstBits, 1 << kConstBits);
    Halves tmp1 = multiplyAdd(even04, 1 << kConstBits, -(1 << kConstBits));
    tmp0 = {_mm512_add_epi32(tmp0.low, rounding), _mm512_add_epi32(tmp0.high, rounding)};
    tmp1 = {_mm512_add_epi32(tmp1.low, rounding), _mm512_add_epi32(tmp1.high, rounding)};
    const Halves tmp3 = multiplyAdd(even26, kF0541 + kF0765, kF0541);
    const Halves tmp2 = multiplyAdd(even26, kF0541, kF0541 - kF1847);
    const Halves tmp10 = add(tmp0, tmp3), tmp13 = subtract(tmp0, tmp3);
    const Halves tmp11 = add(tmp1, tmp2), tmp12 = subtract(tmp1, tmp2);
    // Odd part: libjpeg's z1..z5 expanded, each output a sum over x7, x1, x3, x5.
    const Halves odd71 = interleave(x[7], x[1]), odd35 = interleave(x[3], x[5]);
    const Halves out0 = add(multiplyAdd(odd71, kF0298 - kF0899 - kF1961 + kF1175, kF1175 - kF0899),
                            multiplyAdd(odd35, kF1175 - kF1961, kF1175));
    const Halves out1 = add(multiplyAdd(odd71, kF1175, kF1175 - kF0390),
                            multiplyAdd(odd35, kF1175 - kF2562, kF2053 - kF2562 - kF0390 + kF1175));
    const Halves out2 = add(multiplyAdd(odd71, kF1175 - kF1961, kF1175),
                            multiplyAdd(odd35, kF3072 - kF2562 - kF1961 + kF1175, kF1175 - kF2562));
    const Halves out3 = add(multiplyAdd(odd71, kF1175 - kF0899, kF1501 - kF0899 - kF0390 + kF1175),
                            multiplyAdd(odd35, kF1175, kF1175 - kF0390));
    x[0] = descale<kShift>(add(tmp10, out3));
    x[7] = descale<kShift>(subtract(tmp10, out3));
    x[1] = descale<kShift>(add(tmp11, out2));
    x[6] = descale<kShift>(subtract(tmp11, out2));
    x[2] = descale<kShift>(add(tmp12, out1));
    x[5] = descale<kShift>(subtract(tmp12, out1));
    x[3] = descale<kShift>(add(tmp13, out0));
    x[4] = descale<kShift>(subtract(tmp13, out0));
}

// Whether any element's magnitude is above the limit's (unsigned saturating: nonzero where it is).
OSPREY_IDCT_TARGET inline __m512i above(__m512i value, __m512i limit) {
    return _mm512_subs_epu16(_mm512_abs_epi16(value), limit);
}

OSPREY_IDCT_TARGET bool idctGroupAvx512(const JCOEF* group, const std::int16_t* quant,
                                        const std::int16_t* limits, JSAMPARRAY rows, JDIMENSION column) {
    __m512i x[8];
    __m512i out = _mm512_setzero_si512();
    for (int r = 0; r < 8; ++r) {
        const __m512i coefficients = _mm512_load_si512(group + 32 * r);
        const __m512i multipliers =
            _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(quant + 8 * r)));
        const __m512i limit =
            _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(limits + 8 * r)));
        out = _mm512_or_si512(out, above(coefficients, limit));
        x[r] = _mm512_mullo_epi16(coefficients, multipliers); // exact: |product| <= kIdctLimit
    }
    if (_mm512_test_epi16_mask(out, out))
        return false;
    pass<kConstBits - kPass1Bits>(x);
    const __m512i limit = _mm512_set1_epi16(kIdctLimit);
    out = _mm512_or_si512(_mm512_or_si512(above(x[0], limit), above(x[1], limit)),
                          _mm512_or_si512(above(x[2], limit), above(x[3], limit)));
    out = _mm512_or_si512(out, _mm512_or_si512(_mm512_or_si512(above(x[4], limit), above(x[5], limit)),
                                               _mm512_or_si512(above(x[6], limit), above(x[7], limit))));
    if (_mm512_test_epi16_mask(out, out))
        return false;
    // Each 128-bit lane's 8x8 transposed: x[k] then holds column k of each block's rows.
    __m512i a[8], b[8];
    for (int i = 0; i < 4; ++i) {
        a[2 * i] = _mm512_unpacklo_epi16(x[2 * i], x[2 * i + 1]);
        a[2 * i + 1] = _mm512_unpackhi_epi16(x[2 * i], x[2 * i + 1]);
    }
    for (int i = 0; i < 2; ++i) {
        b[4 * i] = _mm512_unpacklo_epi32(a[4 * i], a[4 * i + 2]);
        b[4 * i + 1] = _mm512_unpackhi_epi32(a[4 * i], a[4 * i + 2]);
        b[4 * i + 2] = _mm512_unpacklo_epi32(a[4 * i + 1], a[4 * i + 3]);
        b[4 * i + 3] = _mm512_unpackhi_epi32(a[4 * i + 1], a[4 * i + 3]);
    }
    for (int i = 0; i < 4; ++i) {
        x[2 * i] = _mm512_unpacklo_epi64(b[i], b[i + 4]);
        x[2 * i + 1] = _mm512_unpackhi_epi64(b[i], b[i + 4]);
    }
    pass<kConstBits + kPass1Bits + 3>(x);
    // x[j]: output column j of each block's eight rows. To bytes (saturated to -128..127, then centred),
    // then transposed back to rows: rows[2i] and rows[2i + 1] of each block in lane b of w.
    const __m512i p0 = _mm512_packs_epi16(x[0], x[1]), p1 = _mm512_packs_epi16(x[2], x[3]);
    const __m512i p2 = _mm512_packs_epi16(x[4], x[5]), p3 = _mm512_packs_epi16(x[6], x[7]);
    const __m512i u0 = _mm512_unpacklo_epi8(p0, p1), u1 = _mm512_unpackhi_epi8(p0, p1);
    const __m512i u2 = _mm512_unpacklo_epi8(p2, p3), u3 = _mm512_unpackhi_epi8(p2, p3);
    const __m512i v0 = _mm512_unpacklo_epi8(u0, u1), v1 = _mm512_unpackhi_epi8(u0, u1);
    const __m512i v2 = _mm512_unpacklo_epi8(u2, u3), v3 = _mm512_unpackhi_epi8(u2, u3);
    const __m512i centre = _mm512_set1_epi8(static_cast<char>(0x80));
    const __m512i w[4] = {_mm512_unpacklo_epi32(v0, v2), _mm512_unpackhi_epi32(v0, v2),
                          _mm512_unpacklo_epi32(v1, v3), _mm512_unpackhi_epi32(v1, v3)};
    // The four blocks' row 2i side by side in the low half, row 2i + 1 in the high half.
    const __m512i byRow = _mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0);
    for (int i = 0; i < 4; ++i) {
        const __m512i both = _mm512_permutexvar_epi64(byRow, _mm512_xor_si512(w[i], centre));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(rows[2 * i] + column), _mm512_castsi512_si256(both));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(rows[2 * i + 1] + column),
                            _mm512_extracti64x4_epi64(both, 1));
    }
    return true;
}

#endif

} // namespace

bool idctGroupAvailable() {
#ifdef OSPREY_IDCT_AVX512
    static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    return has;
#else
    return false;
#endif
}

void idctLimits(const std::int16_t* quant, std::int16_t* limits) {
    for (int k = 0; k < 64; ++k) {
        const int q = std::abs(static_cast<int>(quant[k]));
        limits[k] = static_cast<std::int16_t>(q == 0 ? kIdctLimit : kIdctLimit / q);
    }
}

bool idctGroup(const JCOEF* group, const std::int16_t* quant, const std::int16_t* limits, JSAMPARRAY rows,
               JDIMENSION column) {
#ifdef OSPREY_IDCT_AVX512
    return idctGroupAvx512(group, quant, limits, rows, column);
#else
    (void)group, (void)quant, (void)limits, (void)rows, (void)column;
    return false;
#endif
}

} // namespace osprey::imaging::jpeg
