#include "run/train_events.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace osprey::run {

namespace {

// JSON has no NaN or infinity; a diverged loss is reported as null rather than breaking the line.
nlohmann::json finite(double value) {
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

nlohmann::json metricsJson(const EpochMetrics& m) {
    return {{"epoch", m.epoch},
            {"time", finite(m.timeS)},
            {"train/box_loss", finite(m.boxLoss)},
            {"train/cls_loss", finite(m.clsLoss)},
            {"train/dfl_loss", finite(m.dflLoss)},
            {"metrics/precision(B)", finite(m.precision)},
            {"metrics/recall(B)", finite(m.recall)},
            {"metrics/mAP50(B)", finite(m.map50)},
            {"metrics/mAP50-95(B)", finite(m.map50to95)},
            {"val/box_loss", finite(m.valBoxLoss)},
            {"val/cls_loss", finite(m.valClsLoss)},
            {"val/dfl_loss", finite(m.valDflLoss)},
            {"lr/pg0", finite(m.lrPg0)},
            {"lr/pg1", finite(m.lrPg1)},
            {"lr/pg2", finite(m.lrPg2)},
            {"fitness", finite(m.fitness)}};
}

} // namespace

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
        j["eta_s"] = finite(e.etaS);
        break;
    case TrainEvent::Type::Epoch:
        j["epoch"] = e.epoch;
        j["epochs"] = e.epochs;
        j["metrics"] = metricsJson(e.metrics);
        j["best"] = e.best;
        j["images_per_s"] = finite(e.imagesPerS);
        j["eta_s"] = finite(e.etaS);
        break;
    case TrainEvent::Type::System:
        j["cpu_percent"] = finite(e.cpuPercent);
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
    }
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace osprey::run
