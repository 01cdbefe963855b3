#pragma once
// Internal to core/imaging: libjpeg-turbo's YCbCr to RGB conversion (jdcolor.c's, which its SIMD
// conversions equal) in AVX-512, 32 pixels a step, for decodeJpeg. The same integers: its tables' values
// (FIX(1.40200), FIX(1.77200), FIX(0.71414), FIX(0.34414) at 16 fraction bits, rounded by adding one half)
// computed with 16-bit multiplies whose high and low halves give the same floor, and the same clamp to
// 0..255.

#include <cstdio> // jpeglib.h needs size_t and FILE declared first

#include <jpeglib.h>

namespace osprey::imaging::jpeg {

/// Whether this CPU runs the fast conversion (AVX-512 F, BW, VL and VBMI).
bool fastColourAvailable();

/// After jpeg_start_decompress: where fastColourAvailable() and `info` converts YCbCr to RGB
/// (JCS_EXT_RGB or JCS_RGB, 8 bits), puts the conversion in place of libjpeg-turbo's. False otherwise.
bool installFastColour(j_decompress_ptr info);

/// Rows the fast conversion converted on this thread so far (for tests: whether a file went through it).
unsigned long long fastColourRows();

} // namespace osprey::imaging::jpeg
