#include "planner/estimate_plan.h"

#include "planner/model_figures.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace osprey::planner {

namespace {

constexpr double kMeasuredSpread = 0.15;
constexpr double kScaledSpread = 0.35;
constexpr double kMeasuredGpuSpread = 0.10;

TimeRange spread(double midS, double relative) {
    return {midS / (1.0 + relative), midS, midS * (1.0 + relative)};
}

TimeRange costOf(const TimeRange& time, double pricePerHour) {
    return {time.lowS * pricePerHour / 3600.0, time.midS * pricePerHour / 3600.0,
            time.highS * pricePerHour / 3600.0};
}

void finishRow(PlanRow& row, const Workload& w, double trainS, double valS, double overheadS, double startupS,
               double relative) {
    const double mid = runSeconds(w, trainS, valS, overheadS, startupS);
    row.time = spread(mid, relative);
    row.secondsPerEpoch = w.epochs > 0 ? (mid - startupS) / w.epochs : 0;
    if (row.pricePerHour) {
        row.cost = costOf(*row.time, *row.pricePerHour);
        row.costPerEpoch = row.secondsPerEpoch * *row.pricePerHour / 3600.0;
    }
}

double flopsAt(const std::string& model, int imgsz) {
    const auto figures = findModelFigures(model);
    const double side = imgsz / 640.0;
    return figures ? figures->gflops * side * side : 0;
}

/// The measured points on catalogue GPUs, as timing points for the fit.
std::vector<TimingPoint> measuredGpuTimings(const PlanInputs& in) {
    std::vector<TimingPoint> out;
    for (const auto& m : in.measurements) {
        const GpuSpec* gpu = m.device == "cpu" ? nullptr : gpuForDevice(in.catalogue, m.device);
        Workload w;
        if (!gpu || !setModel(w, m.model) || !(m.trainImagesPerS > 0))
            continue;
        w.imgsz = m.imgsz;
        out.push_back({*gpu, w, 1.0 / m.trainImagesPerS, 4.0});
    }
    return out;
}

/// The activation memory per image of `w` measured on a GPU run of the same model (the newest such
/// point), scaled to w's imgsz by pixel count; 0 when there is none (the estimate is used). A run's
/// point holds its peak memory per image, which includes the fixed part: an upper bound by a few per cent
/// (20 bytes per parameter over the batch), so the fit errs on the safe side.
double measuredActivationGb(const PlanInputs& in, const Workload& w) {
    const Measurement* newest = nullptr;
    for (const auto& m : in.measurements)
        if (m.device != "cpu" && m.model == w.model && m.gpuMemPerImageMb > 0 && m.imgsz > 0 &&
            (!newest || m.date > newest->date))
            newest = &m;
    if (!newest)
        return 0;
    const double side = static_cast<double>(w.imgsz) / newest->imgsz;
    return newest->gpuMemPerImageMb / 1024.0 * side * side;
}

PlanRow gpuRow(const GpuSpec& gpu, const PlanInputs& in, const Workload& w, const ScalingFit& fit) {
    PlanRow row;
    row.name = gpu.name;
    row.tier = gpu.tier;
    row.vramGb = gpu.vramGb;
    row.pricePerHour = gpu.pricePerHour;
    row.priceSource = gpu.priceSource;
    row.priceDate = gpu.priceDate;
    const VramFit vram = fitVram(gpu, w, measuredActivationGb(in, w));
    row.maxBatch = vram.maxBatch;
    row.batchFits = vram.fits;
    for (const auto& m : in.measurements) {
        if (m.device == "cpu" || m.model != w.model || m.imgsz != w.imgsz ||
            gpuForDevice(in.catalogue, m.device) != &gpu)
            continue;
        row.basis = Basis::Measured;
        row.basisDetail = std::string(m.source == MeasurementSource::Run ? "run" : "calibration") + " on " +
                          m.device + " at batch " + std::to_string(m.batch);
        const double train = 1.0 / m.trainImagesPerS;
        finishRow(row, w, train, m.valImagesPerS > 0 ? 1.0 / m.valImagesPerS : train * kValidationShare,
                  m.epochOverheadS, m.startupS, kMeasuredGpuSpread);
        return row;
    }
    row.basis = Basis::Modelled;
    char detail[96];
    std::snprintf(detail, sizeof detail, "model fitted to %d points, e=%.3f k=%.1f", fit.points,
                  fit.computeEfficiency, fit.memoryTrafficFactor);
    row.basisDetail = detail;
    const double train = modelSecondsPerImage(gpu, w, fit);
    finishRow(row, w, train, train * kValidationShare, 0, 0, std::clamp(2.0 * fit.relativeError, 0.25, 0.6));
    return row;
}

PlanRow machineRow(const PlanInputs& in, const Workload& w) {
    PlanRow row;
    row.thisMachine = true;
    row.name = in.thisDevice == "cpu" ? "This machine (CPU)" : "This machine (" + in.thisDevice + ")";
    row.pricePerHour = in.thisMachinePowerPerHour;
    row.priceSource = "electricity while training";
    if (const GpuSpec* gpu = in.thisDevice == "cpu" ? nullptr : gpuForDevice(in.catalogue, in.thisDevice)) {
        const VramFit vram = fitVram(*gpu, w, measuredActivationGb(in, w));
        row.vramGb = gpu->vramGb;
        row.maxBatch = vram.maxBatch;
        row.batchFits = vram.fits;
    }
    const auto exact = findMeasurement(in.measurements, in.machine, in.thisDevice, w.model, w.imgsz, w.batch);
    const auto pick = [&](const Measurement& m, double scale, Basis basis, double relative) {
        row.basis = basis;
        row.basisDetail = std::string(m.source == MeasurementSource::Run ? "run" : "calibration") + " of " +
                          m.model + " at imgsz " + std::to_string(m.imgsz) + ", batch " +
                          std::to_string(m.batch) + (m.date.empty() ? "" : ", " + m.date.substr(0, 10));
        const double train = scale / m.trainImagesPerS;
        const double val = m.valImagesPerS > 0 ? scale / m.valImagesPerS : train * kValidationShare;
        finishRow(row, w, train, val, m.epochOverheadS, m.startupS, relative);
    };
    if (exact) {
        pick(*exact, 1.0, Basis::Measured, kMeasuredSpread);
        return row;
    }
    const auto others = measurementsOf(in.measurements, in.machine, in.thisDevice);
    for (const auto& m : others) {
        const double measured = flopsAt(m.model, m.imgsz);
        if (measured > 0 && w.gflops() > 0) {
            pick(m, w.gflops() / measured, Basis::Scaled, kScaledSpread);
            return row;
        }
    }
    row.basis = Basis::NotCalibrated;
    row.basisDetail = "run: osprey-cli plan calibrate model=" + w.model + " imgsz=" + std::to_string(w.imgsz);
    return row;
}

Tier datasetTier(std::int64_t images) {
    if (images < 1000)
        return Tier::Light;
    return images <= 10000 ? Tier::Balanced : Tier::Heavy;
}

const char* bandReason(Tier tier) {
    switch (tier) {
    case Tier::Light:
        return "under about 1,000 images a light GPU is usually enough";
    case Tier::Balanced:
        return "1,000 to 10,000 images suit an RTX 4090 or RTX A6000 class GPU";
    case Tier::Heavy:
        return "more than 10,000 images suit an H100 class GPU";
    }
    return "";
}

Recommendation recommend(const Plan& plan, const Workload& w) {
    const Tier wanted = std::max(datasetTier(w.trainImages + w.valImages),
                                 modelScale(w.model) == 'm' ? Tier::Balanced : Tier::Light);
    const char scale = modelScale(w.model);
    const bool bigModel = scale == 'l' || scale == 'x' || w.imgsz > 640;
    const double minVram = bigModel ? 48 : 0;
    // The guidance names the lightest class that is enough: the cheapest GPU of the lowest priced tier
    // from `wanted` up, so a small job does not go to a data-centre GPU only because it is a little faster.
    const auto cheapestOf = [&](std::optional<Tier> tier, bool byVram) -> const PlanRow* {
        const PlanRow* best = nullptr;
        for (const auto& row : plan.rows) {
            if (row.thisMachine || !row.cost || !row.batchFits || (tier && row.tier != *tier) ||
                (byVram && row.vramGb < minVram))
                continue;
            if (!best || row.cost->midS < best->cost->midS ||
                (row.cost->midS == best->cost->midS && row.time->midS < best->time->midS))
                best = &row;
        }
        return best;
    };
    const auto choose = [&](bool byTier, bool byVram) -> const PlanRow* {
        if (!byTier)
            return cheapestOf(std::nullopt, byVram);
        for (Tier tier = wanted;; tier = static_cast<Tier>(static_cast<int>(tier) + 1)) {
            if (const PlanRow* row = cheapestOf(tier, byVram))
                return row;
            if (tier == Tier::Heavy)
                return nullptr;
        }
    };
    Recommendation out;
    const PlanRow& local = plan.rows.front();
    if (local.time && local.batchFits && local.time->highS <= 30 * 60) {
        out.gpu = local.name;
        out.reason = "The run takes about " + formatDuration(local.time->midS) +
                     " here, so a quick local run costs only power and no cloud GPU is needed.";
        return out;
    }
    const PlanRow* pick = choose(true, true);
    bool relaxed = false;
    if (!pick) {
        pick = choose(false, true);
        relaxed = true;
    }
    if (!pick)
        pick = choose(false, false);
    if (!pick) {
        out.reason = "No priced GPU in the catalogue fits batch " + std::to_string(w.batch) +
                     ": lower the batch or add prices with osprey-cli plan gpus set.";
        return out;
    }
    out.gpu = pick->name;
    std::string why = bandReason(wanted);
    if (bigModel)
        why +=
            std::string(why.empty() ? "" : ", and ") + "large models and high resolutions want 48 GB or more";
    out.reason = pick->name + " is the cheapest " + (relaxed ? "priced" : "suitable priced") +
                 " GPU here at " + formatMoney(pick->cost->midS) + " for the run (" +
                 formatDuration(pick->time->midS) + "): " + why + ", and batch " + std::to_string(w.batch) +
                 " fits its " + std::to_string(static_cast<int>(pick->vramGb)) + " GB.";
    return out;
}

} // namespace

const char* toString(Basis basis) {
    switch (basis) {
    case Basis::Measured:
        return "measured";
    case Basis::Scaled:
        return "scaled";
    case Basis::Modelled:
        return "modelled";
    case Basis::NotCalibrated:
        return "not calibrated";
    }
    return "modelled";
}

double runSeconds(const Workload& w, double trainSecondsPerImage, double valSecondsPerImage,
                  double epochOverheadS, double startupS) {
    const double epoch = static_cast<double>(w.trainImages) * trainSecondsPerImage +
                         static_cast<double>(w.valImages) * valSecondsPerImage + epochOverheadS;
    return startupS + w.epochs * epoch;
}

Plan makePlan(const PlanInputs& in) {
    Plan plan;
    plan.workload = in.workload;
    std::vector<TimingPoint> points = referenceTimings(in.catalogue);
    for (auto& p : measuredGpuTimings(in))
        points.push_back(std::move(p));
    plan.fit = fitScaling(points);
    plan.rows.push_back(machineRow(in, in.workload));
    for (const auto& gpu : in.catalogue.gpus)
        plan.rows.push_back(gpuRow(gpu, in, in.workload, plan.fit));

    const PlanRow* cheapest = nullptr;
    const PlanRow* fastest = nullptr;
    std::string tooSmall;
    for (const auto& row : plan.rows) {
        if (!row.batchFits) {
            tooSmall +=
                (tooSmall.empty() ? "" : ", ") + row.name + " (max " + std::to_string(row.maxBatch) + ")";
            continue;
        }
        if (row.cost && (!cheapest || row.cost->midS < cheapest->cost->midS))
            cheapest = &row;
        if (row.time && (!fastest || row.time->midS < fastest->time->midS))
            fastest = &row;
    }
    plan.cheapest = cheapest ? cheapest->name : "";
    plan.fastest = fastest ? fastest->name : "";
    if (!tooSmall.empty())
        plan.warnings.push_back("batch " + std::to_string(in.workload.batch) + " will not fit on " +
                                tooSmall + ": use a smaller batch there");
    if (plan.rows.front().basis == Basis::NotCalibrated)
        plan.warnings.push_back("this machine has no measured throughput yet: " +
                                plan.rows.front().basisDetail);
    plan.recommendation = recommend(plan, in.workload);

    StartSmall& small = plan.startSmall;
    const Workload& w = in.workload;
    Workload first = w;
    small.model = withScale(w.model, 'n');
    if (setModel(first, small.model)) {
        small.epochs = std::clamp(w.epochs / 4, std::min(w.epochs, 10), 30);
        small.fraction = w.trainImages > 10000 ? 0.1 : 1.0;
        first.epochs = small.epochs;
        first.trainImages = static_cast<std::int64_t>(std::llround(w.trainImages * small.fraction));
        first.valImages = static_cast<std::int64_t>(std::llround(w.valImages * small.fraction));
        small.gpu = plan.recommendation.gpu.empty() ? plan.rows.front().name : plan.recommendation.gpu;
        PlanRow row = plan.rows.front().name == small.gpu ? machineRow(in, first) : PlanRow{};
        if (!row.thisMachine)
            if (const GpuSpec* gpu = in.catalogue.find(small.gpu))
                row = gpuRow(*gpu, in, first, plan.fit);
        small.time = row.time;
        small.cost = row.cost;
        const bool alreadySmall = small.model == w.model && small.epochs == w.epochs && small.fraction == 1.0;
        small.note =
            alreadySmall
                ? "This is already a small first run; scale up once it looks right, and "
                  "remember that patience stops a run early when mAP stops improving."
                : "Start with " + small.model + " for " + std::to_string(small.epochs) + " epochs" +
                      (small.fraction < 1 ? " on 10 % of the train images" : "") +
                      " to check the data and the settings, then scale up; patience stops a run early when "
                      "mAP stops improving.";
    }
    return plan;
}

} // namespace osprey::planner
