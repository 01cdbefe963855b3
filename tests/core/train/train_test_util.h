#pragma once
// Helpers shared by the training run tests: a tiny demo project, an event collector, results.csv and
// events.jsonl readers, and the events schema check (core/run/EVENTS.md).

#include "demo/demo_dataset.h"
#include "run/train_events.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace osprey::test {

inline bool makeDemo(const std::filesystem::path& folder, int images, int sizePx, std::uint64_t seed = 0) {
    demo::DemoOptions options;
    options.images = images;
    options.imageSizePx = sizePx;
    options.seed = seed;
    return static_cast<bool>(demo::createDemoProject(folder, options));
}

/// Keeps every event; optionally runs a hook on each (e.g. to request a stop).
class CollectingSink : public run::EventSink {
public:
    void onEvent(const run::TrainEvent& event) override {
        std::lock_guard lock(m_mutex);
        events.push_back(event);
        if (hook)
            hook(event);
    }
    std::vector<run::TrainEvent> ofType(run::TrainEvent::Type type) {
        std::lock_guard lock(m_mutex);
        std::vector<run::TrainEvent> out;
        for (const auto& e : events)
            if (e.type == type)
                out.push_back(e);
        return out;
    }
    std::vector<run::TrainEvent> events;
    std::function<void(const run::TrainEvent&)> hook;

private:
    std::mutex m_mutex;
};

/// results.csv as header + rows of numbers.
struct Csv {
    std::vector<std::string> header;
    std::vector<std::vector<double>> rows;
    double at(size_t row, const std::string& column) const {
        for (size_t i = 0; i < header.size(); ++i)
            if (header[i] == column)
                return rows.at(row).at(i);
        return -1e300;
    }
};

inline Csv readCsv(const std::filesystem::path& path) {
    Csv csv;
    std::ifstream in(path);
    std::string line;
    bool first = true;
    while (std::getline(in, line)) {
        std::stringstream fields(line);
        std::string field;
        std::vector<std::string> cells;
        while (std::getline(fields, field, ','))
            cells.push_back(field);
        if (first) {
            csv.header = cells;
            first = false;
        } else {
            std::vector<double> row;
            for (const auto& cell : cells)
                row.push_back(std::stod(cell));
            csv.rows.push_back(row);
        }
    }
    return csv;
}

/// Checks one event object against EVENTS.md; returns an empty string when it conforms.
inline std::string checkEventSchema(const nlohmann::json& j) {
    if (!j.is_object())
        return "not an object";
    if (!j.contains("type") || !j["type"].is_string())
        return "no type";
    if (!j.contains("v") || j["v"] != run::kEventSchemaVersion)
        return "bad schema version";
    if (!j.contains("t") || !j["t"].is_number())
        return "no time";
    static const std::map<std::string, std::vector<std::pair<std::string, char>>> kRequired{
        {"run_started",
         {{"config", 'o'},
          {"dataset", 'o'},
          {"model", 'o'},
          {"run_dir", 's'},
          {"epochs", 'n'},
          {"start_epoch", 'n'},
          {"compute_threads", 'n'}}},
        {"batch",
         {{"epoch", 'n'},
          {"epochs", 'n'},
          {"batch", 'n'},
          {"batches", 'n'},
          {"box_loss", 'n'},
          {"cls_loss", 'n'},
          {"dfl_loss", 'n'},
          {"instances", 'n'},
          {"images_per_s", 'n'},
          {"eta_s", 'n'}}},
        {"epoch",
         {{"epoch", 'n'},
          {"epochs", 'n'},
          {"metrics", 'o'},
          {"best", 'b'},
          {"images_per_s", 'n'},
          {"eta_s", 'n'}}},
        {"system",
         {{"cpu_percent", 'n'},
          {"process_cpu_percent", 'n'},
          {"cpu_cores", 'n'},
          {"ram_used_mb", 'n'},
          {"ram_total_mb", 'n'},
          {"process_rss_mb", 'n'}}},
        {"log", {{"level", 's'}, {"message", 's'}}},
        {"checkpoint", {{"epoch", 'n'}, {"kind", 's'}, {"path", 's'}}},
        {"finished",
         {{"status", 's'},
          {"epochs_completed", 'n'},
          {"best_epoch", 'n'},
          {"best_fitness", 'n'},
          {"best_path", 's'},
          {"last_path", 's'},
          {"message", 's'}}},
        {"failed", {{"epoch", 'n'}, {"reason", 's'}}},
        // A busy machine (tests running side by side) can give a CPU run the shared_cpu advice.
        {"advice", {{"epoch", 'n'}, {"kind", 's'}, {"message", 's'}}}};
    const auto type = j["type"].get<std::string>();
    const auto found = kRequired.find(type);
    if (found == kRequired.end())
        return "unknown type " + type;
    for (const auto& [key, kind] : found->second) {
        if (!j.contains(key))
            return type + ": missing " + key;
        const auto& value = j[key];
        const bool ok = (kind == 'n' && value.is_number()) || (kind == 's' && value.is_string()) ||
                        (kind == 'o' && value.is_object()) || (kind == 'b' && value.is_boolean());
        if (!ok)
            return type + ": wrong type for " + key;
    }
    if (type == "epoch") {
        for (const char* key :
             {"epoch", "time", "train/box_loss", "train/cls_loss", "train/dfl_loss", "metrics/precision(B)",
              "metrics/recall(B)", "metrics/mAP50(B)", "metrics/mAP50-95(B)", "val/box_loss", "val/cls_loss",
              "val/dfl_loss", "lr/pg0", "lr/pg1", "lr/pg2", "fitness"})
            if (!j["metrics"].contains(key) || !j["metrics"][key].is_number())
                return std::string("epoch: metrics.") + key + " missing";
    }
    if (type == "system" && !(j.contains("gpu") && (j["gpu"].is_null() || j["gpu"].is_object())))
        return "system: gpu must be null or an object";
    if (type == "advice") {
        static const std::set<std::string> kKinds{"data_pipeline", "gpu_memory", "plateau", "nan_loss",
                                                  "shared_cpu"};
        if (!kKinds.contains(j["kind"].get<std::string>()))
            return "advice: unknown kind " + j["kind"].get<std::string>();
    }
    if (type == "log") {
        const auto level = j["level"].get<std::string>();
        if (level != "info" && level != "warning" && level != "error")
            return "log: bad level " + level;
    }
    return {};
}

inline std::vector<nlohmann::json> readJsonl(const std::filesystem::path& path) {
    std::vector<nlohmann::json> out;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
        out.push_back(nlohmann::json::parse(line, nullptr, false));
    return out;
}

} // namespace osprey::test
