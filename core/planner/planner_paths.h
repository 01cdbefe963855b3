#pragma once
// Where the planner keeps the user's data: the GPU catalogue overrides in the config dir
// ($XDG_CONFIG_HOME/osprey/planner, else ~/.config/osprey/planner) and the measured throughput points
// in the cache dir ($XDG_CACHE_HOME/osprey/planner, else ~/.cache/osprey/planner). Thread-safe.

#include <filesystem>
#include <string>

namespace osprey::planner {

/// $XDG_CONFIG_HOME/osprey/planner or ~/.config/osprey/planner (not created).
std::filesystem::path plannerConfigDir();
/// $XDG_CACHE_HOME/osprey/planner or ~/.cache/osprey/planner (not created).
std::filesystem::path plannerCacheDir();
/// The user's catalogue overrides: plannerConfigDir()/gpus.json.
std::filesystem::path userCataloguePath();
/// The measured throughput points: plannerCacheDir()/measurements.json.
std::filesystem::path measurementsPath();

/// A stable name for this machine: host name, CPU model and logical core count, e.g.
/// "build-01 | AMD EPYC 7B13 | 2 cores". Measurements are remembered per machine.
std::string machineId();
/// The CPU model from /proc/cpuinfo ("unknown CPU" when it cannot be read).
std::string cpuModelName();

} // namespace osprey::planner
