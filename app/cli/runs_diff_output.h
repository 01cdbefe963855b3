#pragma once
// The text and JSON forms of `osprey-cli runs diff`: a summary line per kind of change, then the items; and
// the aligned tables of the other `runs` verbs.

#include "quality/snapshot_diff.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace osprey::cli {

struct RunsDiff {
    std::string a; ///< run name
    std::string b; ///< run name, or "current"
    quality::SnapshotDiff data;
    bool argsCompared = false; ///< false when b is the project now (it has no arguments)
    std::vector<quality::ArgChange> args;
};

/// Summary and lists, at most `limit` items per kind (0: all).
std::string diffText(const RunsDiff& diff, int limit);
/// Everything, every item.
nlohmann::json diffJson(const RunsDiff& diff);

/// Prints rows as left-aligned columns two spaces apart (the first row is the header).
void printTable(const std::vector<std::vector<std::string>>& rows);

} // namespace osprey::cli
