#pragma once
// SHA-256 of files, read in chunks (the weights are never held in memory whole). Thread-safe.

#include "common/expected.h"

#include <cstdio>
#include <filesystem>
#include <string>

namespace osprey::remote {

/// Lowercase hex SHA-256 of a file's content. The error names the file.
Expected<std::string> sha256FileHex(const std::filesystem::path& path);

/// Hashes an open stream from its current position to the end, then seeks back to the start. Used so
/// that the checksum and the upload read the same open file even if the trainer replaces it meanwhile.
Expected<std::string> sha256StreamHex(std::FILE* file);

/// Lowercase hex SHA-256 of bytes.
std::string sha256Hex(const std::string& bytes);

} // namespace osprey::remote
