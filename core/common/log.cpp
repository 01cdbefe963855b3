#include "common/log.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace osprey::log {

namespace {
spdlog::logger& logger() {
    // stderr, so that stdout stays clean for machine-readable output (JSON, events).
    static std::shared_ptr<spdlog::logger> instance = [] {
        auto created = spdlog::stderr_color_mt("osprey");
        created->set_pattern("%^%l%$: %v");
        created->set_level(spdlog::level::info);
        return created;
    }();
    return *instance;
}
} // namespace

void debug(const std::string& message) {
    logger().debug(message);
}
void info(const std::string& message) {
    logger().info(message);
}
void warn(const std::string& message) {
    logger().warn(message);
}
void error(const std::string& message) {
    logger().error(message);
}

void setLevel(Level level) {
    switch (level) {
    case Level::Debug:
        logger().set_level(spdlog::level::debug);
        break;
    case Level::Info:
        logger().set_level(spdlog::level::info);
        break;
    case Level::Warn:
        logger().set_level(spdlog::level::warn);
        break;
    case Level::Error:
        logger().set_level(spdlog::level::err);
        break;
    }
}

} // namespace osprey::log
