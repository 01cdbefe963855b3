#include "planner/run_estimate.h"

#include "common/atomic_file.h"
#include "common/log.h"
#include "common/strings.h"
#include "planner/estimate_plan.h"
#include "planner/planner_paths.h"
#include "run/run_folder.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace osprey::planner {

namespace {

int intOf(const std::map<std::string, std::string>& config, const std::string& key, int fallback) {
    const auto found = config.find(key);
    if (found == config.end())
        return fallback;
    try {
        return std::stoi(found->second);
    } catch (const std::exception&) {
        return fallback;
    }
}

} // namespace

RunEstimate estimateRun(const run::TrainEvent& runStarted, const std::filesystem::path& measurementsFile,
                        const std::string& gpuName) {
    RunEstimate out;
    const auto& config = runStarted.config;
    const auto model = config.find("model");
    out.model = model == config.end() ? std::string() : model->second;
    const auto device = config.find("device");
    out.device = device == config.end() ? std::string("cpu") : device->second;
    out.epochs = intOf(config, "epochs", 0);
    out.imgsz = intOf(config, "imgsz", 640);
    out.batch = intOf(config, "batch", 16);
    out.trainImages = runStarted.trainImages;
    out.valImages = runStarted.valImages;
    out.recordedAt = utcNowIso8601();
    const bool gpu = out.device != "cpu";
    if (gpu && gpuName.empty()) {
        out.reason = "the GPU's name is not known (no NVIDIA driver answered), so it has no catalogue row";
        return out;
    }
    PlanInputs inputs;
    Workload& w = inputs.workload;
    if (auto status = setModel(w, out.model); !status) {
        out.reason = status.message();
        return out;
    }
    w.trainImages = out.trainImages;
    w.valImages = out.valImages;
    w.classes = static_cast<int>(runStarted.classNames.size());
    w.epochs = out.epochs;
    w.imgsz = out.imgsz;
    w.batch = out.batch < 1 ? 16 : out.batch;
    auto points = loadMeasurements(measurementsFile.empty() ? measurementsPath() : measurementsFile);
    if (points)
        inputs.measurements = std::move(*points);
    inputs.machine = machineId();
    inputs.thisDevice = gpu ? gpuName : "cpu";
    const GpuSpec* catalogued = nullptr;
    if (gpu) {
        auto catalogue = loadCatalogue(userCataloguePath());
        if (!catalogue) {
            out.reason = catalogue.message();
            return out;
        }
        inputs.catalogue = std::move(*catalogue);
        catalogued = gpuForDevice(inputs.catalogue, gpuName);
    }
    const Plan plan = makePlan(inputs);
    // A GPU without points on this machine: its catalogue row (modelled, or measured on another machine).
    const auto modelledRow = [&]() -> const PlanRow* {
        for (const auto& row : plan.rows)
            if (catalogued && !row.thisMachine && row.name == catalogued->name && row.time)
                return &row;
        return nullptr;
    };
    for (const auto& row : plan.rows) {
        if (!row.thisMachine)
            continue;
        const PlanRow* chosen = row.time ? &row : modelledRow();
        if (chosen != nullptr && chosen != &row) {
            out.estimated = true;
            out.lowS = chosen->time->lowS;
            out.midS = chosen->time->midS;
            out.highS = chosen->time->highS;
            out.basis = toString(chosen->basis);
            out.basisDetail = chosen->basisDetail + " (" + chosen->name + ")";
            return out;
        }
        if (gpu && !catalogued && !row.time) {
            out.reason = gpuName + " is not in the GPU catalogue (osprey-cli plan gpus set ...) and has no "
                                   "measured point on this machine";
            return out;
        }
        if (!row.time) {
            out.reason =
                "this machine has no measured point yet (osprey-cli plan calibrate, or finish a run)";
            return out;
        }
        out.estimated = true;
        out.lowS = row.time->lowS;
        out.midS = row.time->midS;
        out.highS = row.time->highS;
        out.basis = toString(row.basis);
        out.basisDetail = row.basisDetail;
        return out;
    }
    out.reason = "the plan has no row for this machine";
    return out;
}

Status writeRunEstimate(const std::filesystem::path& runDir, const RunEstimate& e) {
    nlohmann::json j = {{"estimated", e.estimated},
                        {"low_s", e.lowS},
                        {"mid_s", e.midS},
                        {"high_s", e.highS},
                        {"basis", e.basis},
                        {"basis_detail", e.basisDetail},
                        {"reason", e.reason},
                        {"model", e.model},
                        {"device", e.device},
                        {"epochs", e.epochs},
                        {"imgsz", e.imgsz},
                        {"batch", e.batch},
                        {"train_images", e.trainImages},
                        {"val_images", e.valImages},
                        {"recorded_at", e.recordedAt}};
    return writeFileAtomic(run::RunFolder(runDir).estimate(), j.dump(2) + "\n");
}

Expected<std::optional<RunEstimate>> readRunEstimate(const std::filesystem::path& runDir) {
    const auto file = run::RunFolder(runDir).estimate();
    std::ifstream in(file);
    if (!in)
        return std::optional<RunEstimate>();
    std::stringstream text;
    text << in.rdbuf();
    const auto j = nlohmann::json::parse(text.str(), nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return fail(file.string() + ": not a JSON object");
    try {
        RunEstimate e;
        e.estimated = j.at("estimated").get<bool>();
        e.lowS = j.at("low_s").get<double>();
        e.midS = j.at("mid_s").get<double>();
        e.highS = j.at("high_s").get<double>();
        e.basis = j.at("basis").get<std::string>();
        e.basisDetail = j.value("basis_detail", std::string());
        e.reason = j.value("reason", std::string());
        e.model = j.value("model", std::string());
        e.device = j.value("device", std::string());
        e.epochs = j.value("epochs", 0);
        e.imgsz = j.value("imgsz", 0);
        e.batch = j.value("batch", 0);
        e.trainImages = j.value("train_images", std::int64_t(0));
        e.valImages = j.value("val_images", std::int64_t(0));
        e.recordedAt = j.value("recorded_at", std::string());
        return std::optional<RunEstimate>(std::move(e));
    } catch (const std::exception& error) {
        return fail(file.string() + ": " + error.what());
    }
}

double estimateErrorPercent(const RunEstimate& estimate, double tookS) {
    return estimate.midS > 0 ? (tookS - estimate.midS) / estimate.midS * 100.0 : 0.0;
}

void EstimateRecorder::onEvent(const run::TrainEvent& event) {
    if (event.type != run::TrainEvent::Type::RunStarted || event.runDir.empty() || event.startEpoch > 1)
        return;
    const std::filesystem::path runDir = event.runDir;
    if (std::filesystem::exists(run::RunFolder(runDir).estimate()))
        return; // the first start's estimate stands
    if (auto status = writeRunEstimate(runDir, estimateRun(event, m_measurementsFile, m_gpuName)); !status)
        log::warn("planner: " + status.message());
}

} // namespace osprey::planner
