#pragma once
// Small string helpers shared by the parsers and the command line.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace osprey {

std::string_view trim(std::string_view text);
std::vector<std::string_view> splitWhitespace(std::string_view text);
std::vector<std::string> split(std::string_view text, char separator);
std::string toLower(std::string_view text);
bool startsWith(std::string_view text, std::string_view prefix);
bool endsWith(std::string_view text, std::string_view suffix);

/// Parses a whole token as a number; nullopt when any character is left over.
std::optional<double> parseDouble(std::string_view text);
std::optional<long long> parseInt(std::string_view text);
/// Accepts true/false, yes/no, on/off, 1/0 (case-insensitive).
std::optional<bool> parseBool(std::string_view text);

/// "1 box", "3 boxes": the count and the word that agrees with it.
std::string plural(size_t count, const std::string& one, const std::string& many);

/// Levenshtein distance, for "did you mean" suggestions.
int editDistance(std::string_view a, std::string_view b);

/// The current time in UTC as ISO 8601 to the second: "2026-12-01T17:00:00Z".
std::string utcNowIso8601();

} // namespace osprey
