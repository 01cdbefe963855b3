// YCbCr to RGB in AVX-512 (jpeg_colour_impl.h). libjpeg's conversion, per pixel with x = Cb - 128 and
// z = Cr - 128 (jdcolor.c's tables, 16 fraction bits):
//   R = Y + ((91881 z + 32768) >> 16)
//   G = Y + ((-22554 x + 32768 - 46802 z) >> 16)
//   B = Y + ((116130 x + 32768) >> 16)
// each clamped to 0..255. The constants past 16 bits are split at a multiple of 65536, which the shift
// takes out exactly (91881 = 65536 + 26345, 116130 = 131072 - 14942, -46802 = -65536 + 18734); a product's
// rounded high half is its signed high half plus the top bit of its low half.
#include "imaging/jpeg_colour_impl.h"

#include <jpegint.h> // the colour deconverter's color_convert

#include <algorithm>
#include <cstdint>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// GCC 12's AVX-512 intrinsics read an uninitialised "undefined" vector (its bug 105593, fixed in GCC 13):
// silenced for the header only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#define OSPREY_COLOUR_AVX512 1
#define OSPREY_COLOUR_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi")))
#endif

namespace osprey::imaging::jpeg {

namespace {

thread_local unsigned long long tRows = 0;

#ifdef OSPREY_COLOUR_AVX512

// (factor * value + 32768) >> 16 for 16-bit values whose product fits 32 bits.
OSPREY_COLOUR_TARGET inline __m512i roundedHigh(__m512i value, __m512i factor) {
    return _mm512_add_epi16(_mm512_mulhi_epi16(value, factor),
                            _mm512_srli_epi16(_mm512_mullo_epi16(value, factor), 15));
}

// The byte of the packed rows each output byte takes: `red` holds, per 128-bit lane k, the red of pixels
// 8k..8k+7 then their green; `blue` (the second source, + 64) their blue.
constexpr std::uint8_t interleavedByte(int outputByte) {
    const int pixel = outputByte / 3, channel = outputByte % 3;
    const int at = 16 * (pixel / 8) + pixel % 8;
    return static_cast<std::uint8_t>(channel == 0 ? at : channel == 1 ? at + 8 : 64 + at);
}

// The permutations for output bytes [first, first + 64) of 32 pixels (96 bytes), made once at compile time.
struct alignas(64) InterleaveIndex {
    std::uint8_t byte[64];
};
constexpr InterleaveIndex interleaveIndex(int first) {
    InterleaveIndex index{};
    for (int j = 0; j < 64; ++j)
        index.byte[j] = first + j < 96 ? interleavedByte(first + j) : 0;
    return index;
}
constexpr InterleaveIndex kFirstBytes = interleaveIndex(0), kLastBytes = interleaveIndex(64);

OSPREY_COLOUR_TARGET void convertAvx512(j_decompress_ptr info, JSAMPIMAGE input, JDIMENSION inputRow,
                                        JSAMPARRAY output, int rows) {
    const JDIMENSION width = info->output_width;
    const __m512i centre = _mm512_set1_epi16(128);
    const __m512i redFactor = _mm512_set1_epi16(26345), blueFactor = _mm512_set1_epi16(-14942);
    const __m512i greenFactors = _mm512_set1_epi32(
        static_cast<int>(static_cast<std::uint32_t>(18734) << 16 | static_cast<std::uint16_t>(-22554)));
    const __m512i half = _mm512_set1_epi32(32768);
    const __m512i first = _mm512_load_si512(kFirstBytes.byte), second = _mm512_load_si512(kLastBytes.byte);
    for (int r = 0; r < rows; ++r, ++inputRow) {
        const JSAMPLE* luma = input[0][inputRow];
        const JSAMPLE* blueDifference = input[1][inputRow];
        const JSAMPLE* redDifference = input[2][inputRow];
        JSAMPLE* out = output[r];
        for (JDIMENSION x = 0; x < width; x += 32) {
            const JDIMENSION count = std::min<JDIMENSION>(32, width - x);
            const auto in = static_cast<__mmask32>(count == 32 ? ~0u : (1u << count) - 1);
            const __m512i y = _mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(in, luma + x));
            const __m512i cb = _mm512_sub_epi16(
                _mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(in, blueDifference + x)), centre);
            const __m512i cr = _mm512_sub_epi16(
                _mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(in, redDifference + x)), centre);
            const __m512i red = _mm512_add_epi16(y, _mm512_add_epi16(cr, roundedHigh(cr, redFactor)));
            const __m512i blue =
                _mm512_add_epi16(y, _mm512_add_epi16(_mm512_add_epi16(cb, cb), roundedHigh(cb, blueFactor)));
            // Two products summed before the shift: 32 bits, pairs (cb, cr) multiplied and added.
            const __m512i low = _mm512_madd_epi16(_mm512_unpacklo_epi16(cb, cr), greenFactors);
            const __m512i high = _mm512_madd_epi16(_mm512_unpackhi_epi16(cb, cr), greenFactors);
            const __m512i green =
                _mm512_add_epi16(_mm512_sub_epi16(y, cr),
                                 _mm512_packs_epi32(_mm512_srai_epi32(_mm512_add_epi32(low, half), 16),
                                                    _mm512_srai_epi32(_mm512_add_epi32(high, half), 16)));
            const __m512i redGreen = _mm512_packus_epi16(red, green); // clamped to 0..255
            const __m512i blues = _mm512_packus_epi16(blue, blue);
            JSAMPLE* to = out + 3 * static_cast<size_t>(x);
            const unsigned bytes = 3 * count;
            const auto head = static_cast<__mmask64>(bytes >= 64 ? ~0ull : (1ull << bytes) - 1);
            _mm512_mask_storeu_epi8(to, head, _mm512_permutex2var_epi8(redGreen, first, blues));
            if (bytes > 64)
                _mm512_mask_storeu_epi8(to + 64, static_cast<__mmask64>((1ull << (bytes - 64)) - 1),
                                        _mm512_permutex2var_epi8(redGreen, second, blues));
        }
    }
    tRows += static_cast<unsigned long long>(rows);
}

#endif

} // namespace

bool fastColourAvailable() {
#ifdef OSPREY_COLOUR_AVX512
    static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                            __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vbmi");
    return has;
#else
    return false;
#endif
}

bool installFastColour(j_decompress_ptr info) {
    if (!fastColourAvailable() || !info->cconvert || info->data_precision != 8 || info->quantize_colors ||
        info->jpeg_color_space != JCS_YCbCr || info->num_components != 3 || info->out_color_components != 3 ||
        (info->out_color_space != JCS_EXT_RGB && info->out_color_space != JCS_RGB))
        return false;
#ifdef OSPREY_COLOUR_AVX512
    info->cconvert->color_convert = convertAvx512;
    return true;
#else
    return false;
#endif
}

unsigned long long fastColourRows() {
    return tRows;
}

} // namespace osprey::imaging::jpeg
