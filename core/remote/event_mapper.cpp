#include "remote/event_mapper.h"

#include "common/version.h"
#include "run/run_files.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <thread>
#include <unistd.h>

namespace osprey::remote {
namespace {

using nlohmann::json;

/// The results.csv columns the platform takes as epoch metrics: all but epoch and time.
const std::vector<std::string>& metricKeys() {
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> columns = run::resultsCsvColumns();
        columns.erase(std::remove_if(columns.begin(), columns.end(),
                                     [](const std::string& c) { return c == "epoch" || c == "time"; }),
                      columns.end());
        return columns;
    }();
    return keys;
}

std::optional<double> number(const json& object, const char* key) {
    if (!object.is_object())
        return std::nullopt;
    auto it = object.find(key);
    if (it == object.end() || !it->is_number())
        return std::nullopt;
    return it->get<double>();
}

std::string text(const json& object, const char* key) {
    if (!object.is_object())
        return {};
    auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string asArgument(const json& value) {
    return value.is_string() ? value.get<std::string>() : value.dump();
}

std::string cpuModel() {
    std::ifstream info("/proc/cpuinfo");
    std::string line;
    while (std::getline(info, line))
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            return colon == std::string::npos ? std::string() : line.substr(colon + 2);
        }
    return {};
}

} // namespace

json finiteOrNull(json value) {
    if (value.is_number_float() && !std::isfinite(value.get<double>()))
        return nullptr;
    if (value.is_structured())
        for (auto& child : value)
            child = finiteOrNull(std::move(child));
    return value;
}

json environmentInfo(const std::string& command, const json& system) {
    json env;
    env["appVersion"] = std::string("osprey ") + kVersion;
    char host[256] = {};
    env["hostname"] = ::gethostname(host, sizeof host - 1) == 0 ? std::string(host) : std::string();
    utsname uts{};
    env["os"] = ::uname(&uts) == 0 ? std::string(uts.sysname) + " " + uts.release : std::string("Linux");
    env["cpu"] = cpuModel();
    env["cpuCount"] = std::thread::hardware_concurrency();
    const double pageBytes = double(::sysconf(_SC_PAGESIZE)) * double(::sysconf(_SC_PHYS_PAGES));
    env["totalRamGb"] = std::round(pageBytes / 1e9 * 10) / 10;
    struct statvfs disk {};
    env["totalDiskGb"] = ::statvfs(".", &disk) == 0
                             ? std::round(double(disk.f_blocks) * double(disk.f_frsize) / 1e9 * 10) / 10
                             : 0.0;
    const bool gpu = system.is_object() && system.contains("gpu") && system["gpu"].is_object();
    env["gpuCount"] = gpu ? 1 : 0;
    env["gpuType"] = gpu ? text(system["gpu"], "name") : std::string();
    env["command"] = command;
    return env;
}

EventMapper::EventMapper(std::string command) : m_command(std::move(command)) {}

std::vector<PlatformEvent> EventMapper::map(const json& e) {
    if (!e.is_object())
        return {};
    const std::string type = text(e, "type");
    if (type == "run_started") {
        const json config = e.value("config", json::object());
        json args = json::object();
        if (config.is_object())
            for (auto& [key, value] : config.items())
                args[key] = asArgument(value);
        const json model = e.value("model", json::object());
        m_modelInfo = {{"parameters", model.value("parameters", json(nullptr))},
                       {"gflops", model.value("gflops", json(nullptr))},
                       {"speedMs", model.value("speed_ms", json(nullptr))}};
        const json dataset = e.value("dataset", json::object());
        if (dataset.is_object() && dataset.contains("names") && dataset["names"].is_array())
            m_classNames = dataset["names"];
        else if (e.contains("class_names") && e["class_names"].is_array())
            m_classNames = e["class_names"];
        json epochs = e.value("epochs", json(nullptr));
        if (epochs.is_null() && config.is_object() && config.contains("epochs"))
            epochs = config["epochs"].is_string()
                         ? json(std::atoi(config["epochs"].get<std::string>().c_str()))
                         : config["epochs"];
        json data = {{"trainArgs", args},
                     {"epochs", epochs},
                     {"device", config.is_object() ? asArgument(config.value("device", json("cpu"))) : "cpu"},
                     {"environment", environmentInfo(m_command, m_system)}};
        return {{"training_started", finiteOrNull(std::move(data))}};
    }
    if (type == "system") {
        json system = json::object();
        if (auto v = number(e, "cpu_percent"))
            system["cpu"] = *v;
        if (auto used = number(e, "ram_used_mb"), total = number(e, "ram_total_mb");
            used && total && *total > 0)
            system["ram"] = *used / *total * 100.0;
        if (e.contains("gpu") && e["gpu"].is_object()) {
            system["gpu_util"] = e["gpu"].value("util_percent", json(nullptr));
            if (auto used = number(e["gpu"], "mem_used_mb"))
                system["gpu_mem"] = *used / 1024.0;
            system["gpu"] = e["gpu"];
        }
        m_system = std::move(system);
        return {};
    }
    if (type == "epoch") {
        const json metrics = e.value("metrics", json::object());
        const int epoch = e.value("epoch", 1) - 1;
        json out = json::object();
        for (const std::string& key : metricKeys())
            out[key] = metrics.is_object() && metrics.contains(key) ? metrics[key] : json(nullptr);
        std::optional<double> fitness = number(e, "fitness");
        if (!fitness)
            fitness = number(metrics, "fitness");
        if (!fitness)
            fitness = number(metrics, "metrics/mAP50-95(B)");
        std::optional<double> best = number(e, "best_fitness");
        if (fitness && std::isfinite(*fitness) &&
            (!m_haveBest || *fitness > m_bestFitness || e.value("best", false))) {
            m_bestEpoch = epoch;
            if (!best || *best <= *fitness)
                m_bestFitness = *fitness;
            m_haveBest = true;
        }
        if (best) {
            m_bestFitness = *best;
            m_haveBest = true;
        }
        m_lastEpoch = epoch;
        m_lastFitness = fitness ? json(*fitness) : json(nullptr);
        m_lastMetrics = out;
        json data = {{"epoch", epoch},
                     {"metrics", out},
                     {"system", m_system},
                     {"fitness", fitness ? json(*fitness) : json(nullptr)},
                     {"best_fitness", m_haveBest ? json(m_bestFitness) : json(nullptr)}};
        if (epoch == 0 && !m_modelInfo.is_null())
            data["modelInfo"] = m_modelInfo;
        return {{"epoch_end", finiteOrNull(std::move(data))}};
    }
    if (type == "log") {
        const std::string message = !text(e, "message").empty() ? text(e, "message") : text(e, "line");
        return {{"console_line", {{"line", message}}}};
    }
    if (type == "checkpoint") {
        const std::string path = text(e, "path");
        const std::string kind = text(e, "kind");
        const bool best = kind == "best" || e.value("best", false) ||
                          (kind.empty() && path.size() >= 7 && path.substr(path.size() - 7) == "best.pt");
        (best ? m_bestPath : m_lastPath) = path;
        return {};
    }
    if (type == "finished") {
        m_finished = true;
        m_finishStatus = text(e, "status").empty() ? "finished" : text(e, "status");
        if (auto v = number(e, "best_epoch"); v && *v >= 1)
            m_bestEpoch = static_cast<int>(*v) - 1;
        if (auto v = number(e, "best_fitness")) {
            m_bestFitness = *v;
            m_haveBest = true;
        }
        if (!text(e, "best_path").empty())
            m_bestPath = text(e, "best_path");
        if (!text(e, "last_path").empty())
            m_lastPath = text(e, "last_path");
        return {};
    }
    if (type == "failed") {
        m_failed = true;
        std::string reason = text(e, "reason");
        if (reason.empty())
            reason = text(e, "message");
        const std::string code = text(e, "code").empty() ? "training_error" : text(e, "code");
        return {{"training_failed",
                 {{"error", reason}, {"code", code}, {"epoch", e.value("epoch", json(nullptr))}}}};
    }
    return {};
}

json EventMapper::completeData() const {
    json results = m_lastMetrics;
    results["fitness"] = m_lastFitness;
    results["bestEpoch"] = m_bestEpoch >= 0 ? json(m_bestEpoch) : json(nullptr);
    results["bestFitness"] = m_haveBest ? json(m_bestFitness) : json(nullptr);
    results["epochs"] = m_lastEpoch + 1;
    results["status"] = m_finishStatus.empty() ? "finished" : m_finishStatus;
    return finiteOrNull({{"results", results},
                         {"modelPath", nullptr},
                         {"modelSize", nullptr},
                         {"classNames", m_classNames},
                         {"runId", nullptr}});
}

} // namespace osprey::remote
