#pragma once
// Internal to core/imaging: libjpeg-turbo's accurate integer IDCT ("islow", the default) for four 8x8
// blocks at once in AVX-512, for the fast decoder's rows (jpeg_entropy.cpp). libjpeg-turbo calls its IDCT
// once a block, two rows a 256-bit register; here four blocks' same row fill one 512-bit register, so
// the column pass needs no shuffle and each step serves four blocks.
//
// The same pixels: it computes the integer algorithm libjpeg's IDCT computes (the same constants, the
// same two roundings, the same saturation to 0..255), exactly wherever no 16-bit intermediate of either
// can overflow; where a value is out of that range (damaged or contrived data only) it writes nothing and
// the caller gives those blocks to libjpeg-turbo's own IDCT.

#include <cstdint>
#include <cstdio> // jpeglib.h needs size_t and FILE declared first

#include <jpeglib.h>

namespace osprey::imaging::jpeg {

/// Blocks an IDCT call takes, side by side.
constexpr int kIdctBlocks = 4;
/// Coefficients of a group: row r of block b at [r * 32 + b * 8, + 8).
constexpr int kIdctGroupSize = 64 * kIdctBlocks;
/// The largest magnitude a dequantised coefficient, and a value after the first pass, may have.
constexpr int kIdctLimit = 8191;

/// Whether this CPU runs idctGroup (AVX-512 F and BW).
bool idctGroupAvailable();

/// For a component's multipliers (libjpeg's dct_table for islow: 64 int16, natural order), the largest
/// coefficient magnitude at each position whose product stays within kIdctLimit.
void idctLimits(const std::int16_t* quant, std::int16_t* limits);

/// The four blocks of `group` (kIdctGroupSize coefficients, 64-byte aligned) dequantised by `quant`,
/// transformed and written to rows[0..7] at columns [column, column + 32). False, with nothing written,
/// where a value is out of range (see above).
bool idctGroup(const JCOEF* group, const std::int16_t* quant, const std::int16_t* limits, JSAMPARRAY rows,
               JDIMENSION column);

} // namespace osprey::imaging::jpeg
