#pragma once
// Content hashing for duplicate detection, and the CRC-32 of containers. Not cryptographic: fast and stable
// across runs and machines.

#include "common/expected.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace osprey {

/// 64-bit hash of a byte string, stable across platforms.
std::uint64_t hashBytes(std::string_view bytes, std::uint64_t seed = 0);

/// Hex digest (16 characters) of a file's content, read in chunks.
Expected<std::string> hashFileHex(const std::filesystem::path& path);

std::string toHex(std::uint64_t value);

/// CRC-32 (IEEE 802.3, as zip and PNG use it) of a byte string; `crc` continues a previous value.
std::uint32_t crc32(std::string_view bytes, std::uint32_t crc = 0);

} // namespace osprey
