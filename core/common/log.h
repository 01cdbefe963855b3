#pragma once
// Logging for core modules (spdlog underneath). Thread-safe. Messages must never contain secrets.

#include <string>

namespace osprey::log {

enum class Level { Debug, Info, Warn, Error };

void debug(const std::string& message);
void info(const std::string& message);
void warn(const std::string& message);
void error(const std::string& message);

/// Sets the minimum level printed to stderr.
void setLevel(Level level);

} // namespace osprey::log
