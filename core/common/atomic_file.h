#pragma once
// Writing files so that readers never see a half-written one: write to a temporary file beside the
// target, fsync, then rename over it. Thread-safe for distinct targets.

#include "common/expected.h"

#include <filesystem>
#include <string_view>

namespace osprey {

/// Replaces `path` with `contents` atomically. Creates parent folders when missing.
Status writeFileAtomic(const std::filesystem::path& path, std::string_view contents);

/// Reads a whole file (a folder or an unreadable file is an error naming it; /proc files too, which report
/// no size).
Expected<std::string> readFile(const std::filesystem::path& path);

} // namespace osprey
