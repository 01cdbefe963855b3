#include "planner/measurements.h"

#include "common/atomic_file.h"
#include "common/strings.h"
#include "planner/planner_paths.h"
#include "run/events_tail.h"
#include "run/run_folder.h"
#include "run/train_events.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace osprey::planner {

using nlohmann::json;

namespace {

json toJsonObject(const Measurement& m) {
    return {{"machine", m.machine},
            {"device", m.device},
            {"model", m.model},
            {"imgsz", m.imgsz},
            {"batch", m.batch},
            {"workers", m.workers},
            {"train_images_per_s", m.trainImagesPerS},
            {"val_images_per_s", m.valImagesPerS},
            {"epoch_overhead_s", m.epochOverheadS},
            {"startup_s", m.startupS},
            {"gpu_mem_per_image_mb", m.gpuMemPerImageMb},
            {"gpu_mem_fixed_mb", m.gpuMemFixedMb},
            {"source", m.source == MeasurementSource::Run ? "run" : "calibration"},
            {"date", m.date},
            {"note", m.note}};
}

bool sameKey(const Measurement& a, const Measurement& b) {
    return a.machine == b.machine && a.device == b.device && a.model == b.model && a.imgsz == b.imgsz &&
           a.batch == b.batch && a.source == b.source;
}

double finiteOr(double value, double fallback) {
    return std::isfinite(value) ? value : fallback;
}

} // namespace

Expected<std::vector<Measurement>> loadMeasurements(const std::filesystem::path& file) {
    std::vector<Measurement> points;
    if (!std::filesystem::exists(file))
        return points;
    const auto text = readFile(file);
    if (!text)
        return fail(text.error());
    json root;
    try {
        root = json::parse(*text);
    } catch (const json::exception& error) {
        return fail(file.string() + ": not valid JSON (" + error.what() + "); delete it to start afresh",
                    "not_json");
    }
    if (!root.is_object() || !root.contains("points") || !root["points"].is_array())
        return fail(file.string() + ": field 'points' must be a list", "bad_field");
    std::size_t index = 0;
    for (const auto& item : root["points"]) {
        ++index;
        try {
            Measurement m;
            m.machine = item.at("machine").get<std::string>();
            m.device = item.at("device").get<std::string>();
            m.model = item.at("model").get<std::string>();
            m.imgsz = item.at("imgsz").get<int>();
            m.batch = item.at("batch").get<int>();
            m.workers = item.value("workers", 0);
            m.trainImagesPerS = item.at("train_images_per_s").get<double>();
            m.valImagesPerS = item.value("val_images_per_s", 0.0);
            m.epochOverheadS = item.value("epoch_overhead_s", 0.0);
            m.startupS = item.value("startup_s", 0.0);
            m.gpuMemPerImageMb = item.value("gpu_mem_per_image_mb", 0.0);
            m.gpuMemFixedMb = item.value("gpu_mem_fixed_mb", 0.0);
            m.source = item.value("source", std::string("calibration")) == "run"
                           ? MeasurementSource::Run
                           : MeasurementSource::Calibration;
            m.date = item.value("date", std::string());
            m.note = item.value("note", std::string());
            if (!(m.trainImagesPerS > 0) || m.imgsz <= 0 || m.batch <= 0)
                return fail(file.string() + ": point " + std::to_string(index) +
                                ": field 'train_images_per_s', 'imgsz' or 'batch' is not positive",
                            "bad_field");
            points.push_back(std::move(m));
        } catch (const json::exception& error) {
            return fail(file.string() + ": point " + std::to_string(index) + ": " + error.what(),
                        "bad_field");
        }
    }
    return points;
}

Status recordMeasurement(const std::filesystem::path& file, const Measurement& point) {
    auto points = loadMeasurements(file);
    if (!points)
        return fail(points.error());
    std::erase_if(*points, [&](const Measurement& m) { return sameKey(m, point); });
    points->push_back(point);
    json root = {{"format", "osprey-planner-measurements"}, {"version", 1}, {"points", json::array()}};
    for (const auto& m : *points)
        root["points"].push_back(toJsonObject(m));
    std::error_code ignored;
    std::filesystem::create_directories(file.parent_path(), ignored);
    return writeFileAtomic(file, root.dump(2) + "\n");
}

std::optional<Measurement> findMeasurement(const std::vector<Measurement>& points, const std::string& machine,
                                           const std::string& device, const std::string& model, int imgsz,
                                           int batch) {
    const Measurement* best = nullptr;
    const auto better = [&](const Measurement& a, const Measurement& b) {
        const int da = std::abs(a.batch - batch), db = std::abs(b.batch - batch);
        if (da != db)
            return da < db;
        if (a.source != b.source)
            return a.source == MeasurementSource::Run;
        return a.date > b.date;
    };
    for (const auto& m : points) {
        if (m.machine != machine || m.device != device || m.model != model || m.imgsz != imgsz)
            continue;
        if (!best || better(m, *best))
            best = &m;
    }
    if (!best)
        return std::nullopt;
    return *best;
}

std::vector<Measurement> measurementsOf(const std::vector<Measurement>& points, const std::string& machine,
                                        const std::string& device) {
    std::vector<Measurement> out;
    for (const auto& m : points)
        if (m.machine == machine && m.device == device)
            out.push_back(m);
    std::sort(out.begin(), out.end(),
              [](const Measurement& a, const Measurement& b) { return a.date > b.date; });
    return out;
}

Expected<Measurement> measurementFromEvents(const std::filesystem::path& eventsJsonl,
                                            const std::string& machine) {
    const auto lines = run::EventsTail(eventsJsonl).read(run::EventsTail::Partial::Take);
    if (!lines)
        return fail(eventsJsonl.string() + ": cannot be read", "missing");
    using Type = run::TrainEvent::Type;
    std::optional<run::TrainEvent> started, finished;
    std::vector<run::TrainEvent> epochs;
    std::map<int, std::vector<run::TrainEvent>> batches; ///< by epoch
    double gpuMemMaxMb = 0;
    std::string gpuName;
    for (const auto& line : *lines) {
        const auto& event = line.event;
        if (!event)
            continue;
        if (event->type == Type::RunStarted)
            started = *event;
        else if (event->type == Type::Batch)
            batches[event->epoch].push_back(*event);
        else if (event->type == Type::Epoch)
            epochs.push_back(*event);
        else if (event->type == Type::Finished)
            finished = *event;
        else if (event->type == Type::System && event->gpu) {
            gpuName = event->gpuName;
            gpuMemMaxMb = std::max(gpuMemMaxMb, finiteOr(event->gpuMemUsedMb, 0));
        }
    }
    if (!started || epochs.empty())
        return fail(eventsJsonl.string() +
                        ": no run_started and epoch events: the run did not finish an epoch",
                    "incomplete");
    const auto config = [&](const std::string& key, const std::string& fallback) {
        const auto it = started->config.find(key);
        return it == started->config.end() || it->second.empty() ? fallback : it->second;
    };
    Measurement m;
    m.machine = machine;
    m.model = started->modelName.empty() ? config("model", "") : started->modelName;
    m.imgsz = std::stoi(config("imgsz", "640"));
    m.batch = std::stoi(config("batch", "16"));
    m.workers = std::stoi(config("workers", "0"));
    const std::string device = config("device", "cpu");
    m.device = device == "cpu" || gpuName.empty() ? "cpu" : gpuName;
    m.source = MeasurementSource::Run;
    m.date = utcNowIso8601();
    m.note = started->runDir;

    // Steady throughput: the epochs after the first, whose time includes no warm-up.
    const std::size_t first = epochs.size() > 1 ? 1 : 0;
    double trainS = 0, valS = 0, overheadS = 0;
    std::int64_t trainImages = 0, valImages = 0;
    for (std::size_t i = first; i < epochs.size(); ++i) {
        const auto& e = epochs[i];
        const double ips = finiteOr(e.imagesPerS, 0);
        if (!(ips > 0))
            continue;
        const double epochTrainS = static_cast<double>(started->trainImages) / ips;
        const double previousTimeS = i > 0 ? epochs[i - 1].metrics.timeS : 0;
        trainS += epochTrainS;
        trainImages += started->trainImages;
        valS += std::max(0.0, e.metrics.timeS - previousTimeS - epochTrainS);
        valImages += started->valImages;
        if (i > 0)
            overheadS += std::max(0.0, (e.timeS - epochs[i - 1].timeS) - (e.metrics.timeS - previousTimeS));
    }
    if (trainImages == 0 || !(trainS > 0))
        return fail(eventsJsonl.string() + ": the epoch events carry no throughput", "incomplete");
    const double counted = static_cast<double>(epochs.size() - first);
    m.trainImagesPerS = static_cast<double>(trainImages) / trainS;
    m.valImagesPerS = valImages > 0 && valS > 0 ? static_cast<double>(valImages) / valS : 0;
    m.epochOverheadS = epochs.size() > 1 ? overheadS / counted : 0;
    // Within an epoch, the batches after the first run at the steady rate (the median of the rates
    // between batch events, robust to a busy moment); the first batch's wait for the loader is a
    // per-epoch cost, so that a short calibration predicts a longer epoch too.
    std::vector<double> rates;
    for (std::size_t i = first; i < epochs.size(); ++i) {
        const auto found = batches.find(epochs[i].epoch);
        if (found == batches.end())
            continue;
        const auto& list = found->second;
        const auto imagesUpTo = [&](int batch) {
            return std::min<double>(static_cast<double>(batch) * m.batch,
                                    static_cast<double>(started->trainImages));
        };
        for (std::size_t b = 1; b < list.size(); ++b) {
            const double dt = list[b].timeS - list[b - 1].timeS;
            const double images = imagesUpTo(list[b].batch) - imagesUpTo(list[b - 1].batch);
            if (dt > 0 && images > 0)
                rates.push_back(images / dt);
        }
    }
    if (!rates.empty()) {
        std::nth_element(rates.begin(), rates.begin() + static_cast<long>(rates.size() / 2), rates.end());
        const double steady = rates[rates.size() / 2];
        const double perEpochTrainS = trainS / counted;
        const double extra = perEpochTrainS - static_cast<double>(started->trainImages) / steady;
        if (extra > 0) {
            m.trainImagesPerS = steady;
            m.epochOverheadS += extra;
        }
    }
    // Once per run: from the process's start to the first epoch's start, and after the last epoch.
    double startup = std::max(0.0, epochs.front().timeS - epochs.front().metrics.timeS);
    // The first epoch's extra time over a steady one (warm-up: allocations, kernel selection) is paid once.
    if (epochs.size() > 1 && finiteOr(epochs.front().imagesPerS, 0) > 0)
        startup += std::max(0.0, static_cast<double>(started->trainImages) / epochs.front().imagesPerS -
                                     trainS / counted);
    if (finished)
        startup += std::max(0.0, finished->timeS - epochs.back().timeS - m.epochOverheadS);
    m.startupS = startup;
    if (gpuMemMaxMb > 0 && m.batch > 0)
        m.gpuMemPerImageMb = gpuMemMaxMb / m.batch; // an upper bound: the fixed part is not separated
    return m;
}

Status recordFinishedRun(const std::filesystem::path& runDir, const std::filesystem::path& file) {
    auto point = measurementFromEvents(run::RunFolder(runDir).events(), machineId());
    if (!point)
        return point.error().code == "incomplete" ? Status{} : Status{fail(point.error())};
    return recordMeasurement(file.empty() ? measurementsPath() : file, *point);
}

} // namespace osprey::planner
