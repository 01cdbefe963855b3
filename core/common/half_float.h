#pragma once
// IEEE 754 half precision (binary16) to and from float, without a GPU or a compiler extension: the
// float16 tensors of checkpoints read without torch and the float16 initialisers of an ONNX file.

#include <cstdint>

namespace osprey {

/// Half-precision bits to float (exact: every half is a float).
float halfToFloat(std::uint16_t bits);

/// Float to half-precision bits, rounded to nearest, ties to even; overflow becomes infinity, NaN stays
/// NaN (quiet), tiny values become subnormals or zero with their sign.
std::uint16_t floatToHalf(float value);

} // namespace osprey
