#include "remote/mlflow_mapper.h"

#include "common/log.h"
#include "common/version.h"
#include "run/run_files.h"
#include "run/run_folder.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <set>

namespace osprey::remote {
namespace {

using nlohmann::json;

constexpr std::size_t kParamsPerCall = 100;  // MLflow's log-batch limit
constexpr std::size_t kParamValueMax = 6000; // MLflow's longest param value
constexpr std::size_t kDigestMax = 36;       // MLflow's longest dataset digest

json tag(const std::string& key, const std::string& value) {
    return {{"key", key}, {"value", value}};
}

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value ? std::string(value) : std::string();
}

/// "yolov8n" -> ("yolov8", "n"); other names give no family.
std::pair<std::string, std::string> familyAndScale(const std::string& model) {
    if (model.rfind("yolo", 0) != 0 || model.size() < 6)
        return {};
    const char scale = model.back();
    if (std::string("nsmlx").find(scale) == std::string::npos)
        return {};
    return {model.substr(0, model.size() - 1), std::string(1, scale)};
}

} // namespace

MlflowMapper::MlflowMapper(std::string experiment, std::string projectFolder,
                           std::function<std::int64_t()> nowMs)
    : m_experiment(std::move(experiment)), m_projectFolder(std::move(projectFolder)),
      m_nowMs(std::move(nowMs)) {
    if (!m_nowMs)
        m_nowMs = [] {
            using namespace std::chrono;
            return static_cast<std::int64_t>(
                duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count());
        };
}

std::string MlflowMapper::metricKey(const std::string& column) {
    std::string key;
    for (const char c : column)
        if (c != '(' && c != ')')
            key += c;
    return key;
}

std::vector<MlflowCall> MlflowMapper::map(const run::TrainEvent& event) {
    using Type = run::TrainEvent::Type;
    std::vector<MlflowCall> calls;
    const std::int64_t now = m_nowMs();
    switch (event.type) {
    case Type::RunStarted: {
        if (m_started) // a resumed run goes on in the same MLflow run
            return calls;
        m_started = true;
        m_runDir = event.runDir;
        m_runName = std::filesystem::path(event.runDir).filename().string();
        const auto config = [&](const char* key) {
            auto it = event.config.find(key);
            return it == event.config.end() ? std::string() : it->second;
        };
        const auto [family, scale] = familyAndScale(event.modelName);
        json tags = json::array({tag("mlflow.source.name", "osprey-cli"), tag("mlflow.source.type", "LOCAL"),
                                 tag("osprey.version", kVersion), tag("osprey.model", event.modelName),
                                 tag("osprey.device", config("device").empty() ? "cpu" : config("device")),
                                 tag("osprey.local_run", event.runDir)});
        if (!family.empty()) {
            tags.push_back(tag("osprey.family", family));
            tags.push_back(tag("osprey.scale", scale));
        }
        if (const std::string user = environment("USER"); !user.empty())
            tags.push_back(tag("mlflow.user", user));
        calls.push_back(
            {"create_run",
             json{{"experiment", m_experiment}, {"runName", m_runName}, {"startTime", now}, {"tags", tags}}
                 .dump()});
        if (m_continuing) {
            calls.push_back({"update_run", json{{"status", "RUNNING"}}.dump()});
            return calls;
        }

        // The params are args.yaml, as the run folder keeps it; the event's config adds derived keys.
        std::map<std::string, std::string> params;
        if (auto args = run::readArgsYaml(run::RunFolder(event.runDir).args()))
            params = std::move(*args);
        else
            for (const auto& [key, value] : event.config)
                params[key] = value;
        json batch = json::array();
        for (const auto& [key, value] : params) {
            if (value.size() > kParamValueMax)
                log::warn("mlflow: the param " + key + " is cut to MLflow's " +
                          std::to_string(kParamValueMax) + " characters");
            batch.push_back({{"key", key}, {"value", value.substr(0, kParamValueMax)}});
            if (batch.size() == kParamsPerCall) {
                calls.push_back({"log_batch", json{{"params", batch}}.dump()});
                batch = json::array();
            }
        }
        if (!batch.empty())
            calls.push_back({"log_batch", json{{"params", batch}}.dump()});

        const std::string digest = config("dataset_snapshot");
        const std::string name = std::filesystem::path(m_projectFolder).filename().string();
        const json profile = {{"snapshot_digest", digest},     {"train_images", event.trainImages},
                              {"val_images", event.valImages}, {"train_boxes", event.trainBoxes},
                              {"val_boxes", event.valBoxes},   {"negative_images", event.negatives},
                              {"classes", event.classNames}};
        const json dataset = {{"name", name.empty() ? std::string("dataset") : name},
                              {"digest", digest.substr(0, kDigestMax)},
                              {"source_type", "local"},
                              {"source", json{{"uri", m_projectFolder}}.dump()},
                              {"profile", profile.dump()}};
        calls.push_back(
            {"log_inputs",
             json{{"datasets", json::array({{{"tags", json::array({tag("mlflow.data.context", "train")})},
                                             {"dataset", dataset}}})}}
                 .dump()});
        return calls;
    }
    case Type::System:
        m_system = event;
        m_haveSystem = true;
        return calls;
    case Type::Epoch: {
        if (!m_started)
            return calls;
        json metrics = json::array();
        const auto metric = [&](const std::string& key, double value) {
            if (std::isfinite(value))
                metrics.push_back(
                    {{"key", key}, {"value", value}, {"timestamp", now}, {"step", event.epoch}});
        };
        // The values as results.csv holds them, so the history in MLflow equals the file.
        const auto& columns = run::resultsCsvColumns();
        const auto cells = run::resultsCsvCells(event.metrics);
        for (std::size_t i = 0; i < columns.size() && i < cells.size(); ++i)
            if (columns[i] != "epoch")
                metric(metricKey(columns[i]), std::strtod(cells[i].c_str(), nullptr));
        if (m_haveSystem) {
            metric("system/cpu_utilization_percentage", m_system.cpuPercent);
            metric("system/system_memory_usage_megabytes", m_system.ramUsedMb);
            if (m_system.ramTotalMb > 0)
                metric("system/system_memory_usage_percentage",
                       100.0 * m_system.ramUsedMb / m_system.ramTotalMb);
            if (m_system.gpu) {
                metric("system/gpu_0_utilization_percentage", m_system.gpuUtilPercent);
                metric("system/gpu_0_memory_usage_megabytes", m_system.gpuMemUsedMb);
                if (m_system.gpuMemTotalMb > 0)
                    metric("system/gpu_0_memory_usage_percentage",
                           100.0 * m_system.gpuMemUsedMb / m_system.gpuMemTotalMb);
            }
        }
        calls.push_back({"log_batch", json{{"metrics", metrics}}.dump()});
        return calls;
    }
    case Type::Finished:
        m_status = event.status == "stopped" ? "KILLED" : "FINISHED";
        return calls;
    case Type::Failed:
        m_status = "FAILED";
        return calls;
    default:
        return calls;
    }
}

std::vector<MlflowCall> MlflowMapper::finish(const std::string& fallbackStatus) {
    std::vector<MlflowCall> calls;
    if (!m_started)
        return calls;
    namespace fs = std::filesystem;
    const fs::path dir = m_runDir;
    std::error_code ec;
    const run::RunFolder folder(dir);
    for (const auto& weights : {folder.bestWeights(), folder.lastWeights()})
        if (fs::is_regular_file(weights, ec))
            calls.push_back({"artifact", json{{"path", weights.string()},
                                              {"artifactPath", std::string(run::RunFolder::kWeightsFolder) +
                                                                   "/" + weights.filename().string()}}
                                             .dump()});
    static const std::set<std::string> kSuffixes = {".csv", ".yaml", ".json", ".png", ".jpg"};
    std::vector<fs::path> files;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec) && kSuffixes.count(it->path().extension().string()))
            files.push_back(it->path());
    std::sort(files.begin(), files.end());
    for (const auto& file : files)
        calls.push_back(
            {"artifact", json{{"path", file.string()}, {"artifactPath", file.filename().string()}}.dump()});
    calls.push_back(
        {"update_run",
         json{{"status", m_status.empty() ? fallbackStatus : m_status}, {"endTime", m_nowMs()}}.dump()});
    return calls;
}

} // namespace osprey::remote
