#include "run/train_events.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

namespace osprey::run {

namespace {

// JSON has no NaN or infinity; a diverged loss is reported as null rather than breaking the line.
nlohmann::json finite(double value) {
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

// Data-parallel runs only: one number per rank.
void writeRankSpeeds(nlohmann::json& j, const std::vector<double>& speeds) {
    if (speeds.empty())
        return;
    auto& array = j["rank_images_per_s"] = nlohmann::json::array();
    for (const double speed : speeds)
        array.push_back(finite(speed));
}

nlohmann::json metricsJson(const EpochMetrics& m) {
    nlohmann::json j;
    j["epoch"] = m.epoch;
    for (const MetricColumn& column : metricColumns())
        j[column.key] = finite(m.*column.value);
    return j;
}

} // namespace

const std::vector<MetricColumn>& metricColumns() {
    static const std::vector<MetricColumn> columns{{"time", &EpochMetrics::timeS, true},
                                                   {"train/box_loss", &EpochMetrics::boxLoss, true},
                                                   {"train/cls_loss", &EpochMetrics::clsLoss, true},
                                                   {"train/dfl_loss", &EpochMetrics::dflLoss, true},
                                                   {"metrics/precision(B)", &EpochMetrics::precision, true},
                                                   {"metrics/recall(B)", &EpochMetrics::recall, true},
                                                   {"metrics/mAP50(B)", &EpochMetrics::map50, true},
                                                   {"metrics/mAP50-95(B)", &EpochMetrics::map50to95, true},
                                                   {"val/box_loss", &EpochMetrics::valBoxLoss, true},
                                                   {"val/cls_loss", &EpochMetrics::valClsLoss, true},
                                                   {"val/dfl_loss", &EpochMetrics::valDflLoss, true},
                                                   {"lr/pg0", &EpochMetrics::lrPg0, true},
                                                   {"lr/pg1", &EpochMetrics::lrPg1, true},
                                                   {"lr/pg2", &EpochMetrics::lrPg2, true},
                                                   {"fitness", &EpochMetrics::fitness, false}};
    return columns;
}

const char* toString(TrainEvent::Type type) {
    switch (type) {
    case TrainEvent::Type::RunStarted:
        return "run_started";
    case TrainEvent::Type::Batch:
        return "batch";
    case TrainEvent::Type::Epoch:
        return "epoch";
    case TrainEvent::Type::System:
        return "system";
    case TrainEvent::Type::Log:
        return "log";
    case TrainEvent::Type::Checkpoint:
        return "checkpoint";
    case TrainEvent::Type::Finished:
        return "finished";
    case TrainEvent::Type::Failed:
        return "failed";
    case TrainEvent::Type::Remote:
        return "remote";
    case TrainEvent::Type::Advice:
        return "advice";
    }
    return "log";
}

std::string toJson(const TrainEvent& e) {
    nlohmann::json j;
    j["type"] = toString(e.type);
    j["v"] = kEventSchemaVersion;
    j["t"] = finite(e.timeS);
    switch (e.type) {
    case TrainEvent::Type::RunStarted:
        j["config"] = e.config;
        j["dataset"] = {{"train_images", e.trainImages}, {"val_images", e.valImages},
                        {"train_boxes", e.trainBoxes},   {"val_boxes", e.valBoxes},
                        {"negatives", e.negatives},      {"names", e.classNames}};
        j["model"] = {{"name", e.modelName}, {"parameters", e.parameters}, {"gflops", finite(e.gflops)}};
        j["run_dir"] = e.runDir;
        j["epochs"] = e.epochs;
        j["start_epoch"] = e.startEpoch;
        j["pid"] = e.pid;
        j["compute_threads"] = e.computeThreads;
        break;
    case TrainEvent::Type::Batch:
        j["epoch"] = e.epoch;
        j["epochs"] = e.epochs;
        j["batch"] = e.batch;
        j["batches"] = e.batches;
        j["box_loss"] = finite(e.boxLoss);
        j["cls_loss"] = finite(e.clsLoss);
        j["dfl_loss"] = finite(e.dflLoss);
        j["instances"] = e.instances;
        j["images_per_s"] = finite(e.imagesPerS);
        writeRankSpeeds(j, e.rankImagesPerS);
        j["eta_s"] = finite(e.etaS);
        break;
    case TrainEvent::Type::Epoch:
        j["epoch"] = e.epoch;
        j["epochs"] = e.epochs;
        j["metrics"] = metricsJson(e.metrics);
        j["best"] = e.best;
        j["images_per_s"] = finite(e.imagesPerS);
        writeRankSpeeds(j, e.rankImagesPerS);
        j["eta_s"] = finite(e.etaS);
        j["gpu_peak_mem_mb"] = finite(e.gpuPeakMemMb);
        break;
    case TrainEvent::Type::System:
        j["cpu_percent"] = finite(e.cpuPercent);
        j["process_cpu_percent"] = finite(e.processCpuPercent);
        j["cpu_cores"] = e.cpuCores;
        j["ram_used_mb"] = finite(e.ramUsedMb);
        j["ram_total_mb"] = finite(e.ramTotalMb);
        j["process_rss_mb"] = finite(e.processRssMb);
        if (e.gpu) {
            j["gpu"] = {{"name", e.gpuName},
                        {"util_percent", finite(e.gpuUtilPercent)},
                        {"mem_used_mb", finite(e.gpuMemUsedMb)},
                        {"mem_total_mb", finite(e.gpuMemTotalMb)},
                        {"temp_c", finite(e.gpuTempC)}};
        } else {
            j["gpu"] = nullptr;
        }
        break;
    case TrainEvent::Type::Log:
        j["level"] = e.level;
        j["message"] = e.message;
        break;
    case TrainEvent::Type::Checkpoint:
        j["epoch"] = e.epoch;
        j["kind"] = e.kind;
        j["path"] = e.path;
        break;
    case TrainEvent::Type::Finished:
        j["status"] = e.status;
        j["epochs_completed"] = e.epoch;
        j["best_epoch"] = e.bestEpoch;
        j["best_fitness"] = finite(e.bestFitness);
        j["best_path"] = e.bestPath;
        j["last_path"] = e.lastPath;
        j["message"] = e.message;
        break;
    case TrainEvent::Type::Failed:
        j["epoch"] = e.epoch;
        j["reason"] = e.message;
        break;
    case TrainEvent::Type::Remote:
        j["state"] = e.remoteState;
        j["queued"] = e.queued;
        j["delivered"] = e.delivered;
        j["failed"] = e.remoteFailed;
        j["error"] = e.message;
        j["dashboard_url"] = e.dashboardUrl.value_or(std::string());
        j["uploading"] = e.uploading;
        j["upload_sent"] = e.uploadSent;
        j["upload_total"] = e.uploadTotal;
        j["cancelled"] = e.cancelled.value_or(false);
        break;
    case TrainEvent::Type::Advice:
        j["epoch"] = e.epoch;
        j["kind"] = e.kind;
        j["message"] = e.message;
        break;
    }
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Lenient field access: a key that is absent or of another JSON type reads as "not given".
class Fields {
public:
    explicit Fields(const nlohmann::json& object) : m_object(object) {}

    const nlohmann::json* find(const char* key) const {
        if (!m_object.is_object())
            return nullptr;
        const auto it = m_object.find(key);
        return it == m_object.end() ? nullptr : &*it;
    }
    double number(const char* key) const {
        const auto* v = find(key);
        return v && v->is_number() ? v->get<double>() : kNaN;
    }
    template <typename Int> void integer(const char* key, Int& out) const {
        if (const auto* v = find(key); v && v->is_number())
            out = static_cast<Int>(v->get<double>());
    }
    void text(const char* key, std::string& out) const {
        if (const auto* v = find(key); v && v->is_string())
            out = v->get<std::string>();
    }
    void flag(const char* key, bool& out) const {
        if (const auto* v = find(key); v && v->is_boolean())
            out = v->get<bool>();
    }
    Fields object(const char* key) const {
        static const nlohmann::json kNone;
        const auto* v = find(key);
        return Fields(v && v->is_object() ? *v : kNone);
    }
    bool isObject(const char* key) const {
        const auto* v = find(key);
        return v && v->is_object();
    }
    const nlohmann::json& json() const { return m_object; }

private:
    const nlohmann::json& m_object;
};

std::optional<TrainEvent::Type> typeFromString(const std::string& text) {
    for (const auto type : {TrainEvent::Type::RunStarted, TrainEvent::Type::Batch, TrainEvent::Type::Epoch,
                            TrainEvent::Type::System, TrainEvent::Type::Log, TrainEvent::Type::Checkpoint,
                            TrainEvent::Type::Finished, TrainEvent::Type::Failed, TrainEvent::Type::Remote,
                            TrainEvent::Type::Advice})
        if (text == toString(type))
            return type;
    return std::nullopt;
}

void readRunStarted(const Fields& f, TrainEvent& e) {
    if (const auto* config = f.find("config"); config && config->is_object())
        for (const auto& [key, value] : config->items())
            e.config[key] = value.is_string() ? value.get<std::string>() : value.dump();
    const Fields dataset = f.object("dataset");
    dataset.integer("train_images", e.trainImages);
    dataset.integer("val_images", e.valImages);
    dataset.integer("train_boxes", e.trainBoxes);
    dataset.integer("val_boxes", e.valBoxes);
    dataset.integer("negatives", e.negatives);
    if (const auto* names = dataset.find("names"); names && names->is_array())
        for (const auto& name : *names)
            if (name.is_string())
                e.classNames.push_back(name.get<std::string>());
    const Fields model = f.object("model");
    model.text("name", e.modelName);
    model.integer("parameters", e.parameters);
    e.gflops = model.number("gflops");
    f.text("run_dir", e.runDir);
    f.integer("epochs", e.epochs);
    f.integer("start_epoch", e.startEpoch);
    f.integer("pid", e.pid);
    f.integer("compute_threads", e.computeThreads);
}

void readProgress(const Fields& f, TrainEvent& e) {
    f.integer("epoch", e.epoch);
    f.integer("epochs", e.epochs);
    e.imagesPerS = f.number("images_per_s");
    if (const auto* speeds = f.find("rank_images_per_s"); speeds && speeds->is_array())
        for (const auto& speed : *speeds)
            e.rankImagesPerS.push_back(speed.is_number() ? speed.get<double>() : kNaN);
    e.etaS = f.number("eta_s");
}

void readEpoch(const Fields& f, TrainEvent& e) {
    readProgress(f, e);
    const Fields metrics = f.object("metrics");
    e.metrics.epoch = e.epoch;
    metrics.integer("epoch", e.metrics.epoch);
    for (const MetricColumn& column : metricColumns())
        e.metrics.*column.value = metrics.number(column.key);
    f.flag("best", e.best);
    e.gpuPeakMemMb = f.number("gpu_peak_mem_mb");
}

void readSystem(const Fields& f, TrainEvent& e) {
    e.cpuPercent = f.number("cpu_percent");
    e.processCpuPercent = f.number("process_cpu_percent");
    f.integer("cpu_cores", e.cpuCores);
    e.ramUsedMb = f.number("ram_used_mb");
    e.ramTotalMb = f.number("ram_total_mb");
    e.processRssMb = f.number("process_rss_mb");
    e.gpu = f.isObject("gpu");
    if (!e.gpu)
        return;
    const Fields gpu = f.object("gpu");
    gpu.text("name", e.gpuName);
    e.gpuUtilPercent = gpu.number("util_percent");
    e.gpuMemUsedMb = gpu.number("mem_used_mb");
    e.gpuMemTotalMb = gpu.number("mem_total_mb");
    e.gpuTempC = gpu.number("temp_c");
}

void readRemote(const Fields& f, TrainEvent& e) {
    f.text("state", e.remoteState);
    const auto count = [&f](const char* key, std::int64_t& out) {
        f.integer(key, out);
        out = std::max<std::int64_t>(out, 0);
    };
    count("queued", e.queued);
    count("delivered", e.delivered);
    count("failed", e.remoteFailed);
    f.text("error", e.message);
    if (const auto* url = f.find("dashboard_url"); url && url->is_string())
        e.dashboardUrl = url->get<std::string>();
    f.flag("uploading", e.uploading);
    count("upload_sent", e.uploadSent);
    count("upload_total", e.uploadTotal);
    if (const auto* cancelled = f.find("cancelled"); cancelled && cancelled->is_boolean())
        e.cancelled = cancelled->get<bool>();
}

} // namespace

Expected<TrainEvent> parseEvent(std::string_view line) {
    const auto json = nlohmann::json::parse(line, nullptr, false);
    if (json.is_discarded())
        return fail("not a JSON event line", "not_json");
    if (!json.is_object())
        return fail("not a JSON object", "not_json");
    const Fields f(json);
    std::string typeName;
    f.text("type", typeName);
    if (typeName.empty())
        return fail("the event has no \"type\"", "unknown_type");
    const auto type = typeFromString(typeName);
    if (!type)
        return fail("unknown event type '" + typeName + "' (written by a newer Osprey?)", "unknown_type");
    TrainEvent e;
    e.type = *type;
    e.timeS = f.number("t");
    switch (e.type) {
    case TrainEvent::Type::RunStarted:
        readRunStarted(f, e);
        break;
    case TrainEvent::Type::Batch:
        readProgress(f, e);
        f.integer("batch", e.batch);
        f.integer("batches", e.batches);
        e.boxLoss = f.number("box_loss");
        e.clsLoss = f.number("cls_loss");
        e.dflLoss = f.number("dfl_loss");
        f.integer("instances", e.instances);
        break;
    case TrainEvent::Type::Epoch:
        readEpoch(f, e);
        break;
    case TrainEvent::Type::System:
        readSystem(f, e);
        break;
    case TrainEvent::Type::Log:
        f.text("level", e.level);
        f.text("message", e.message);
        break;
    case TrainEvent::Type::Checkpoint:
        f.integer("epoch", e.epoch);
        f.text("kind", e.kind);
        f.text("path", e.path);
        break;
    case TrainEvent::Type::Finished:
        f.text("status", e.status);
        f.integer("epochs_completed", e.epoch);
        f.integer("best_epoch", e.bestEpoch);
        e.bestFitness = f.number("best_fitness");
        f.text("best_path", e.bestPath);
        f.text("last_path", e.lastPath);
        f.text("message", e.message);
        break;
    case TrainEvent::Type::Failed:
        f.integer("epoch", e.epoch);
        f.text("reason", e.message);
        break;
    case TrainEvent::Type::Remote:
        readRemote(f, e);
        break;
    case TrainEvent::Type::Advice:
        f.integer("epoch", e.epoch);
        f.text("kind", e.kind);
        f.text("message", e.message);
        break;
    }
    return e;
}

} // namespace osprey::run
