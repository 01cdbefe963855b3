#include "planner/planner_paths.h"

#include "common/strings.h"

#include <cstdlib>
#include <fstream>
#include <thread>
#include <unistd.h>

namespace osprey::planner {

namespace {

std::filesystem::path xdgDir(const char* variable, const char* fallback) {
    if (const char* value = std::getenv(variable); value && *value)
        return std::filesystem::path(value) / "osprey" / "planner";
    const char* home = std::getenv("HOME");
    return std::filesystem::path(home && *home ? home : ".") / fallback / "osprey" / "planner";
}

} // namespace

std::filesystem::path plannerConfigDir() {
    return xdgDir("XDG_CONFIG_HOME", ".config");
}

std::filesystem::path plannerCacheDir() {
    return xdgDir("XDG_CACHE_HOME", ".cache");
}

std::filesystem::path userCataloguePath() {
    return plannerConfigDir() / "gpus.json";
}

std::filesystem::path measurementsPath() {
    return plannerCacheDir() / "measurements.json";
}

std::string cpuModelName() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (startsWith(line, "model name")) {
            const auto colon = line.find(':');
            if (colon != std::string::npos)
                return std::string(trim(std::string_view(line).substr(colon + 1)));
        }
    }
    return "unknown CPU";
}

std::string machineId() {
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) != 0)
        host[0] = '\0';
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    return std::string(*host ? host : "localhost") + " | " + cpuModelName() + " | " + std::to_string(cores) +
           " cores";
}

} // namespace osprey::planner
