#include "common/half_float.h"

#include <bit>

namespace osprey {

float halfToFloat(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000U) << 16;
    std::uint32_t exponent = (h >> 10) & 0x1FU;
    std::uint32_t mantissa = h & 0x3FFU;
    std::uint32_t bits = 0;
    if (exponent == 0) {
        if (mantissa == 0) {
            bits = sign;
        } else { // subnormal: normalise
            exponent = 127 - 15 + 1;
            while ((mantissa & 0x400U) == 0) {
                mantissa <<= 1;
                --exponent;
            }
            bits = sign | (exponent << 23) | ((mantissa & 0x3FFU) << 13);
        }
    } else if (exponent == 31) {
        bits = sign | 0x7F800000U | (mantissa << 13);
    } else {
        bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
    }
    return std::bit_cast<float>(bits);
}

std::uint16_t floatToHalf(float value) {
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
    const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000U);
    const std::uint32_t exponent = (bits >> 23) & 0xFFU;
    std::uint32_t mantissa = bits & 0x7FFFFFU;
    if (exponent == 0xFF) // infinity or NaN (kept quiet)
        return static_cast<std::uint16_t>(sign | 0x7C00U | (mantissa != 0 ? 0x200U | (mantissa >> 13) : 0U));
    const int halfExponent = static_cast<int>(exponent) - 127 + 15;
    if (halfExponent >= 31)
        return static_cast<std::uint16_t>(sign | 0x7C00U);
    if (halfExponent <= 0) {
        if (halfExponent < -10) // below half the smallest subnormal: signed zero
            return sign;
        mantissa |= 0x800000U; // the implicit leading one
        const int shift = 14 - halfExponent;
        std::uint32_t half = mantissa >> shift;
        const std::uint32_t rest = mantissa & ((1U << shift) - 1U);
        const std::uint32_t halfway = 1U << (shift - 1);
        if (rest > halfway || (rest == halfway && (half & 1U) != 0))
            ++half;
        return static_cast<std::uint16_t>(sign | half);
    }
    std::uint32_t half = (static_cast<std::uint32_t>(halfExponent) << 10) | (mantissa >> 13);
    const std::uint32_t rest = mantissa & 0x1FFFU;
    if (rest > 0x1000U || (rest == 0x1000U && (half & 1U) != 0))
        ++half; // a carry into the exponent is the right result, up to infinity
    return static_cast<std::uint16_t>(sign | half);
}

} // namespace osprey
