#pragma once
// Internal to core/imaging: what image.cpp and jpeg_decoder.cpp share.

#include <cstdint>
#include <vector>

namespace osprey::imaging {

/// EXIF orientation (1..8) from an APP1 payload starting at "Exif\0\0"; 1 when absent or malformed.
int exifOrientation(const std::vector<std::uint8_t>& app1);

} // namespace osprey::imaging
