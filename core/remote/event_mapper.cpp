#include "remote/event_mapper.h"

#include "common/version.h"
#include "run/run_curves.h"
#include "run/run_files.h"
#include "run/run_folder.h"
#include "run/train_events.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
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

std::string text(const json& object, const char* key) {
    if (!object.is_object())
        return {};
    auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
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

std::vector<PlatformEvent> EventMapper::map(const run::TrainEvent& e) {
    using Type = run::TrainEvent::Type;
    // NaN (not given, or not finite) becomes null: the platform rejects non-finite numbers.
    const auto value = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
    switch (e.type) {
    case Type::RunStarted: {
        json args = json::object();
        for (const auto& [key, text] : e.config)
            args[key] = text;
        m_modelInfo = {{"parameters", e.parameters}, {"gflops", value(e.gflops)}, {"speedMs", nullptr}};
        m_classNames = e.classNames;
        m_endToEnd = std::string_view(run::thirdLossName(e.modelName)) == "l1";
        m_runDir = e.runDir;
        json epochs = e.epochs > 0 ? json(e.epochs) : json(nullptr);
        if (epochs.is_null() && e.config.count("epochs"))
            epochs = std::atoi(e.config.at("epochs").c_str());
        const auto device = e.config.find("device");
        json data = {{"trainArgs", args},
                     {"epochs", epochs},
                     {"device", device == e.config.end() ? std::string("cpu") : device->second},
                     {"environment", environmentInfo(m_command, m_system)}};
        return {{"training_started", finiteOrNull(std::move(data))}};
    }
    case Type::System: {
        json system = json::object();
        if (std::isfinite(e.cpuPercent))
            system["cpu"] = e.cpuPercent;
        if (std::isfinite(e.ramUsedMb) && std::isfinite(e.ramTotalMb) && e.ramTotalMb > 0)
            system["ram"] = e.ramUsedMb / e.ramTotalMb * 100.0;
        if (e.gpu) {
            system["gpu_util"] = value(e.gpuUtilPercent);
            if (std::isfinite(e.gpuMemUsedMb))
                system["gpu_mem"] = e.gpuMemUsedMb / 1024.0;
            system["gpu"] = {{"name", e.gpuName},
                             {"util_percent", value(e.gpuUtilPercent)},
                             {"mem_used_mb", value(e.gpuMemUsedMb)},
                             {"mem_total_mb", value(e.gpuMemTotalMb)},
                             {"temp_c", value(e.gpuTempC)}};
        }
        m_system = std::move(system);
        return {};
    }
    case Type::Epoch: {
        const int epoch = e.epoch - 1;
        json out = json::object();
        const auto& names = m_endToEnd ? run::endToEndResultsCsvColumns() : run::resultsCsvColumns();
        for (const std::string& key : metricKeys())
            for (const run::MetricColumn& column : run::metricColumns())
                if (key == column.key) {
                    // YOLO26's third loss goes as Ultralytics names it (train/l1_loss, val/l1_loss).
                    const auto at =
                        std::find(run::resultsCsvColumns().begin(), run::resultsCsvColumns().end(), key);
                    out[names[static_cast<size_t>(at - run::resultsCsvColumns().begin())]] =
                        value(e.metrics.*column.value);
                }
        std::optional<double> fitness;
        if (std::isfinite(e.metrics.fitness))
            fitness = e.metrics.fitness;
        else if (std::isfinite(e.metrics.map50to95))
            fitness = e.metrics.map50to95;
        if (fitness && (!m_haveBest || *fitness > m_bestFitness || e.best)) {
            m_bestEpoch = epoch;
            m_bestFitness = *fitness;
            m_haveBest = true;
            m_bestMetrics = json::object();
            for (const char* key :
                 {"metrics/precision(B)", "metrics/recall(B)", "metrics/mAP50(B)", "metrics/mAP50-95(B)"})
                if (out.contains(key))
                    m_bestMetrics[key] = out[key];
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
    case Type::Log:
        return {{"console_line", {{"line", e.message}}}};
    case Type::Checkpoint: {
        // An event without `kind` (an older writer): the file's name says which.
        const bool best =
            e.kind == "best" || (e.kind.empty() && std::filesystem::path(e.path).filename() ==
                                                       run::RunFolder({}).bestWeights().filename());
        (best ? m_bestPath : m_lastPath) = e.path;
        return {};
    }
    case Type::Finished:
        m_finished = true;
        m_finishStatus = e.status.empty() ? "finished" : e.status;
        if (e.bestEpoch >= 1)
            m_bestEpoch = e.bestEpoch - 1;
        if (std::isfinite(e.bestFitness)) {
            m_bestFitness = e.bestFitness;
            m_haveBest = true;
        }
        if (!e.bestPath.empty())
            m_bestPath = e.bestPath;
        if (!e.lastPath.empty())
            m_lastPath = e.lastPath;
        return {};
    case Type::Failed:
        m_failed = true;
        return {{"training_failed", {{"error", e.message}, {"code", "training_error"}, {"epoch", e.epoch}}}};
    case Type::Batch:
    case Type::Remote:
    case Type::Advice:
        return {};
    }
    return {};
}

json EventMapper::completeData(const run::RunCurves* curves) const {
    // Ultralytics validates best.pt at the end and sends those metrics with the last epoch's fitness; an
    // Osprey best.pt holds the best epoch's weights, so its metrics are that epoch's. Without a best epoch
    // (no validation), the last epoch's metrics, as Ultralytics sends when it has no best.pt.
    json metrics = m_bestMetrics.is_object() ? m_bestMetrics : m_lastMetrics;
    metrics["fitness"] = m_lastFitness;
    json results = {{"metrics", metrics},
                    {"bestEpoch", m_bestEpoch >= 0 ? json(m_bestEpoch) : json(nullptr)},
                    {"bestFitness", m_haveBest ? json(m_bestFitness) : json(nullptr)},
                    {"epochs", m_lastEpoch + 1},
                    {"status", m_finishStatus.empty() ? "finished" : m_finishStatus}};
    if (curves)
        if (json validation = validationPayload(*curves); !validation.is_null())
            results["validation"] = std::move(validation);
    return finiteOrNull({{"results", results},
                         {"classNames", m_classNames},
                         {"plots", curves ? platformPlots(*curves) : json::array()},
                         {"runId", nullptr}});
}

json platformPlots(const run::RunCurves& curves) {
    const size_t side = curves.classNames.size() + 1;
    json matrix = json::array();
    for (size_t row = 0; row < side && curves.confusionMatrix.size() == side * side; ++row)
        matrix.push_back(
            std::vector<double>(curves.confusionMatrix.begin() + static_cast<long>(row * side),
                                curves.confusionMatrix.begin() + static_cast<long>((row + 1) * side)));
    json plots = json::array();
    plots.push_back({{"type", "confusion_matrix"}, {"matrix", matrix}});
    plots.push_back({{"type", "r_curve"}, {"x", curves.x}, {"y", curves.recall}});
    plots.push_back({{"type", "p_curve"}, {"x", curves.x}, {"y", curves.precision}});
    plots.push_back({{"type", "f1_curve"}, {"x", curves.x}, {"y", curves.f1}});
    json pr = {{"type", "pr_curve"}, {"x", curves.x}, {"y", curves.precisionAtRecall}, {"ap", curves.ap}};
    // The rows cover the classes with validation labels; the platform needs their indices when some lack.
    if (curves.classes.size() < curves.classNames.size())
        pr["classes"] = curves.classes;
    plots.push_back(std::move(pr));
    return finiteOrNull(std::move(plots));
}

json validationPayload(const run::RunCurves& curves, size_t sampleLimit, size_t extremesLimit) {
    if (curves.images.empty())
        return nullptr;
    std::vector<const run::ImageCounts*> ranked;
    for (const auto& image : curves.images)
        ranked.push_back(&image);
    std::stable_sort(ranked.begin(), ranked.end(), [](const run::ImageCounts* a, const run::ImageCounts* b) {
        const double fa = a->f1(), fb = b->f1();
        return fa != fb ? fa < fb : a->name < b->name;
    });
    const auto row = [](const run::ImageCounts* image) {
        // The id is the file's stem up to its first underscore.
        const std::string stem = std::filesystem::path(image->name).stem().string();
        return json::array(
            {stem.substr(0, stem.find('_')), image->truePositives, image->falsePositives, image->missed});
    };
    const size_t n = ranked.size();
    json rows = json::array();
    if (n > sampleLimit && sampleLimit > 1) {
        // Python's round (half to even) of i (n - 1) / (limit - 1), as the reference samples.
        for (size_t i = 0; i < sampleLimit; ++i)
            rows.push_back(row(ranked[static_cast<size_t>(
                std::nearbyint(static_cast<double>(i) * static_cast<double>(n - 1) /
                               static_cast<double>(sampleLimit - 1)))]));
    } else {
        for (const auto* image : ranked)
            rows.push_back(row(image));
    }
    json worst = json::array(), best = json::array();
    for (size_t i = 0; i < std::min(extremesLimit, n); ++i) {
        worst.push_back(row(ranked[i]));
        best.push_back(row(ranked[n - 1 - i]));
    }
    return {{"population", n},
            {"sampling", "f1_rank"},
            {"rows", std::move(rows)},
            {"extremes", {{"worst", std::move(worst)}, {"best", std::move(best)}}}};
}

} // namespace osprey::remote
