#pragma once
// Perceptual hashes: near-identical pictures (the same scene re-encoded, rescaled, slightly brighter or
// noisier) get hashes that differ in few bits, so near-duplicate video frames can be found by a Hamming
// distance. Pure functions, thread-safe.

#include "imaging/image.h"

#include <bit>
#include <cstdint>

namespace osprey::imaging {

/// The 64-bit difference hash (dHash) of an image: the picture in grey, shrunk to 9 x 8 pixels by area
/// averaging; bit 8 * row + column is set when that pixel is brighter than its right-hand neighbour.
/// An empty image hashes to 0.
std::uint64_t differenceHash(const Image& image);

/// How many of the 64 bits differ.
inline int hammingDistance(std::uint64_t a, std::uint64_t b) {
    return std::popcount(a ^ b);
}

} // namespace osprey::imaging
