#include "job/project_training.h"

#include "common/log.h"
#include "job/project_data.h"
#include "planner/run_advice.h"
#include "planner/run_estimate.h"
#include "plot/run_plots.h"
#include "project/project.h"
#include "quality/dataset_stats.h"
#include "quality/run_snapshot.h"
#include "run/run_files.h"
#include "run/run_folder.h"
#include "system/gpu_monitor.h"
#include "system/machine_monitor.h"
#include "train/auto_batch.h"
#include "train/batch_pictures.h"
#include "train/data_loader.h"
#include "train/dataset_info.h"
#include "train/distributed_job.h"
#include "train/train_dataset.h"
#include "train/ultralytics_scorer.h"
#include "train/validation_chain.h"
#include "train/warning_forwarder.h"

#include <chrono>
#include <ctime>

namespace osprey::job {

using namespace osprey::train;

namespace {

// The driver's name of a GPU run's first device ("NVIDIA GeForce RTX 4090"), for the planner's estimate;
// empty on the CPU or when NVML does not answer.
std::string firstGpuName(const std::string& device) {
    if (device.empty() || device == "cpu")
        return {};
    std::string first = device.substr(0, device.find(','));
    if (first.rfind("cuda:", 0) == 0)
        first = first.substr(5);
    if (first.empty() || first.find_first_not_of("0123456789") != std::string::npos || first.size() > 3)
        return {};
    const system::GpuMonitor monitor;
    const auto sample = monitor.sample(std::stoi(first));
    return sample ? sample->name : std::string();
}

/// Mirrors the run into the project's runs table. Project calls happen on the training thread only: the
/// events it handles (epoch, finished, failed) are emitted there.
class RunRecorder : public run::EventSink {
public:
    RunRecorder(project::Project& project, project::RunRecord record)
        : m_project(project), m_record(std::move(record)) {}
    void onEvent(const run::TrainEvent& event) override {
        switch (event.type) {
        case run::TrainEvent::Type::Epoch: {
            const auto& m = event.metrics;
            if (event.best) {
                m_record.bestEpoch = m.epoch;
                m_record.bestFitness = m.fitness;
            }
            report(m_project.runs().update(m_record));
            break;
        }
        case run::TrainEvent::Type::Checkpoint:
            if (event.kind == "best") {
                m_record.weightsPath = event.path;
                report(m_project.runs().update(m_record));
            }
            break;
        case run::TrainEvent::Type::Finished:
            m_record.status =
                event.status == "stopped" ? project::RunStatus::Stopped : project::RunStatus::Finished;
            m_record.finishedAt = std::time(nullptr);
            if (!event.bestPath.empty())
                m_record.weightsPath = event.bestPath;
            report(m_project.runs().update(m_record));
            break;
        case run::TrainEvent::Type::Failed:
            m_record.status = project::RunStatus::Failed;
            m_record.finishedAt = std::time(nullptr);
            report(m_project.runs().update(m_record));
            break;
        default:
            break;
        }
    }

private:
    static void report(const Status& status) {
        if (!status)
            log::warn("runs table: " + status.message());
    }
    project::Project& m_project;
    project::RunRecord m_record;
};

/// Adds the dataset snapshot's hash to run_started's config, so the events file, the GUI and the platform
/// (its trainArgs) see which data the run trained on.
class SnapshotTaggingSink : public run::FanOutSink {
public:
    explicit SnapshotTaggingSink(std::string hash) : m_hash(std::move(hash)) {}
    void onEvent(const run::TrainEvent& event) override {
        if (event.type != run::TrainEvent::Type::RunStarted)
            return run::FanOutSink::onEvent(event);
        run::TrainEvent tagged = event;
        tagged.config[run::kSnapshotConfigKey] = m_hash;
        run::FanOutSink::onEvent(tagged);
    }

private:
    std::string m_hash;
};

/// The pixel sizes of the train split's images (labels.jpg normalises the boxes with them).
using ImageSizes = std::map<std::int64_t, std::pair<int, int>>;

Expected<ImageSizes> trainImageSizes(const project::Project& project) {
    auto images = project.images().list({.split = project::Split::Train, .limit = 0});
    if (!images)
        return fail(images.error());
    ImageSizes sizes;
    for (const auto& image : *images)
        sizes[image.id] = {image.width, image.height};
    return sizes;
}

/// The run folder's pictures (results.png, the curves, the confusion matrices, labels.jpg of the train
/// split), as Ultralytics leaves them; a picture that cannot be drawn is a warning, never a failed run.
void writeRunPictures(const ImageSizes& sizes, const ProjectData& data, const std::filesystem::path& runDir) {
    const auto started = std::chrono::steady_clock::now();
    std::vector<LabelBox> labels;
    for (const auto& sample : data.train.samples) {
        const auto size = sizes.find(sample.imageId);
        if (size == sizes.end() || size->second.first <= 0 || size->second.second <= 0)
            continue;
        const double w = size->second.first, h = size->second.second;
        for (const auto& box : sample.boxes)
            labels.push_back({box.classId, (box.x1 + box.x2) / 2 / w, (box.y1 + box.y2) / 2 / h,
                              (box.x2 - box.x1) / w, (box.y2 - box.y1) / h});
    }
    auto written = plot::writeRunPlots(runDir, data.classNames, &labels);
    if (!written) {
        log::warn("plots: " + written.message());
        return;
    }
    log::info(
        "plots: " + std::to_string(written->size()) + " pictures in " +
        std::to_string(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()) +
        " s");
}

/// cache=ram keeps this much more RAM free than the cache takes, as Ultralytics' cache=ram does.
constexpr double kRamCacheMargin = 0.5;

/// cache=ram: says up front what the cache will hold, or trains without it (a warning) when the RAM
/// available now cannot hold it with kRamCacheMargin to spare.
void checkRamCache(run::TrainConfig& config, const std::vector<train::Sample>& samples, run::EventSink& sink,
                   WarningForwarder& warn) {
    const double neededGb = static_cast<double>(train::ramCacheBytes(samples, config.imgsz)) / 1e9;
    system::MachineMonitor machine;
    const auto ram = machine.sample();
    const double availableGb = (ram.ramTotalMb - ram.ramUsedMb) * 1024 * 1024 / 1e9; // MiB to GB
    char text[320];
    if (ram.ramTotalMb > 0 && neededGb * (1 + kRamCacheMargin) > availableGb) {
        std::snprintf(
            text, sizeof text,
            "cache=ram: the %zu training images at imgsz=%d need about %.2f GB of RAM and %.2f GB are "
            "available; training without the cache (decoding as needed)",
            samples.size(), config.imgsz, neededGb, availableGb);
        warn(text);
        config.cacheRam = false;
        return;
    }
    std::snprintf(
        text, sizeof text,
        "cache=ram: the %zu training images are kept in RAM once decoded and resized (about %.2f GB "
        "at imgsz=%d, of %.2f GB available); epochs after the first decode nothing",
        samples.size(), neededGb, config.imgsz, availableGb);
    run::TrainEvent line;
    line.type = run::TrainEvent::Type::Log;
    line.message = text;
    sink.onEvent(line);
}

} // namespace

Expected<std::filesystem::path> chooseRunDir(const std::filesystem::path& projectFolder,
                                             const std::string& name, bool resume) {
    const auto runs = run::RunFolder::runsDir(projectFolder);
    if (!name.empty()) {
        if (name.find('/') != std::string::npos || name.find('\\') != std::string::npos || name == "." ||
            name == "..")
            return fail("name: '" + name + "' must be a plain folder name");
        if (resume)
            return run::RunFolder::inProject(projectFolder, name).dir();
        return run::claimRunDir(runs, name); // name, name2, ...: created here, so one writer per folder
    }
    if (resume) {
        const auto latest = run::RunFolder::latestResumable(projectFolder);
        if (!latest)
            return fail("resume: no run with weights/last.pt under " + runs.string() + "; give name=RUN");
        return latest->dir();
    }
    return run::claimRunDir(runs, "train");
}

Expected<run::TrainConfig> readRunConfig(const std::filesystem::path& argsYaml) {
    auto args = run::readArgsYaml(argsYaml);
    if (!args)
        return fail(args.error());
    run::TrainConfig config;
    if (auto status = run::applyArgs(config, args.value()); !status)
        return fail(argsYaml.string() + ": " + status.message());
    return config;
}

Expected<ValidationReport> validateProject(const std::filesystem::path& projectFolder,
                                           const std::filesystem::path& weights,
                                           const run::TrainConfig& config,
                                           const std::filesystem::path& plotsDir,
                                           ValidationPictures* pictures) {
    auto data = readProjectData(projectFolder);
    if (!data)
        return fail(data.error());
    if (data->val.samples.empty())
        return fail(projectFolder.string() + ": the val split is empty; assign some labeled images to val");
    if (config.batch < 1)
        return fail("batch: AutoBatch (-1 or a fraction) is for training; give val a batch size such as 32");
    if (!plotsDir.empty())
        return validateWithPictures(weights, data->val.samples, data->classNames, config, plotsDir, pictures);
    DataLoader val(data->val.samples, LoaderOptions::fromConfig(config, LoaderMode::Val),
                   [](const std::string& message) { log::warn(message); });
    const auto scorer = makeUltralyticsScorer(static_cast<int>(data->classNames.size()));
    return validateWeights(weights, val, scorer.get(), static_cast<int>(data->classNames.size()), config);
}

Expected<TrainResult> trainProject(const std::filesystem::path& projectFolder, run::TrainConfig config,
                                   run::EventSink& events, const std::atomic<bool>* stop) {
    std::unique_ptr<DistributedJob> job; // data parallel: this process's rank
    const auto failEarly = [&](const Error& error) -> Expected<TrainResult> {
        if (job)
            job->publishFailure(error.message);
        run::TrainEvent event;
        event.type = run::TrainEvent::Type::Failed;
        event.message = error.message;
        events.onEvent(event);
        return fail(error);
    };
    auto joined = DistributedJob::join(config);
    if (!joined)
        return failEarly(joined.error());
    job = std::move(joined.value());
    if (job && !job->isMain())
        return trainProjectRank([&] { return readProjectData(projectFolder); }, config, events, stop, *job);
    // A configuration that cannot train claims no run folder (a resumed one is checked once read back).
    if (!config.resume)
        if (auto status = config.check(); !status)
            return failEarly(status.error());
    auto runDir = chooseRunDir(projectFolder, config.name, config.resume);
    if (!runDir)
        return failEarly(runDir.error());
    if (config.resume) {
        auto saved = readRunConfig(run::RunFolder(*runDir).args());
        if (!saved)
            return failEarly(Error{"resume: " + saved.message()});
        run::TrainConfig resumed = saved.value();
        resumed.resume = true;
        resumed.device = config.device;
        resumed.workers = config.workers;
        resumed.threads = config.threads;
        config = resumed;
    } else if (std::filesystem::exists(run::RunFolder(*runDir).lastWeights())) {
        return failEarly(Error{"run folder " + runDir->string() +
                               " already holds a run; choose another name= or continue it with resume=true"});
    }
    config.name = runDir->filename().string();
    if (auto status = config.check(); !status)
        return failEarly(status.error());

    auto opened = project::Project::open(projectFolder);
    if (!opened)
        return failEarly(opened.error());
    auto& project = *opened.value();
    // The project read once, in one read transaction: the splits, this run's row when resuming and the
    // train images' sizes for labels.jpg describe one state of the database. The dataset snapshot
    // (<run>/snapshot.bin, its hash goes to the runs table's config JSON) is read meanwhile, on
    // core/quality's own connection and cache.
    Expected<ProjectData> data = fail("the project was not read");
    Expected<quality::RecordedSnapshot> snapshot = fail("the project was not read");
    Expected<ImageSizes> sizes = fail("the project was not read");
    project::RunRecord record;
    const Status read = project.readTransaction([&]() -> Status {
        if (data = readProjectData(project); !data)
            return fail(data.error());
        if (snapshot = quality::recordRunSnapshot(project, runDir.value()); !snapshot)
            return fail(snapshot.error());
        if (sizes = trainImageSizes(project); !sizes)
            return fail(sizes.error());
        if (config.resume)
            if (auto runs = project.runs().list())
                for (const auto& run : runs.value())
                    if (run.name == config.name)
                        record = run;
        return {};
    });
    if (!read)
        return failEarly(read.error());

    auto file = run::JsonlFileSink::open(run::RunFolder(*runDir).events());
    if (!file)
        return failEarly(file.error());

    auto args = config.toMap();
    args[run::kSnapshotConfigKey] = snapshot->summary.hash;
    const std::string configJson = run::writeRunConfigJson(args);
    if (record.id == 0) {
        auto id = project.runs().add(config.name, configJson);
        if (!id)
            return failEarly(id.error());
        record.id = id.value();
        record.name = config.name;
        record.config = configJson;
        record.startedAt = std::time(nullptr);
    } else {
        // Resumed: the row keeps the arguments of the start, and learns the snapshot's hash if it was
        // started before snapshots existed (snapshot.bin is written now), so that listings show it.
        auto recorded = run::readRunConfigJson(record.config);
        if (recorded.emplace(run::kSnapshotConfigKey, snapshot->summary.hash).second)
            record.config = run::writeRunConfigJson(recorded);
    }
    record.status = project::RunStatus::Running;
    record.finishedAt.reset();
    if (auto status = project.runs().update(record); !status)
        log::warn("runs table: " + status.message());
    RunRecorder recorder(project, record);

    SnapshotTaggingSink sink(snapshot->summary.hash);
    sink.add(file->get());
    sink.add(&recorder);
    sink.add(&events);
    WarningForwarder warn(sink);
    for (const auto& warning : data->warnings)
        warn(warning);
    if (!snapshot->warning.empty())
        warn(snapshot->warning);
    // Retraining (weights= another run's best.pt or last.pt): what the new data is, at the start.
    if (!config.resume && !config.weights.empty())
        if (const auto since = quality::dataSinceWeightsRun(config.weights, snapshot->file)) {
            run::TrainEvent line;
            line.type = run::TrainEvent::Type::Log;
            line.message = *since;
            sink.onEvent(line);
        }

    if (config.batch < 1) {
        // AutoBatch: the loaders need the batch size, so it is measured here, before they are built.
        auto plan = planAutoBatch(config, static_cast<int>(data->classNames.size()));
        if (!plan) {
            run::TrainEvent failed;
            failed.type = run::TrainEvent::Type::Failed;
            failed.message = plan.message();
            sink.onEvent(failed);
            return fail(plan.error());
        }
        run::TrainEvent line;
        line.type = run::TrainEvent::Type::Log;
        line.message = plan->message;
        sink.onEvent(line);
        config.batch = plan->batch;
        config.batchFraction = 0;
    }
    if (config.cacheRam)
        checkRamCache(config, data->train.samples, sink, warn);
    DataLoader train(data->train.samples,
                     job ? job->trainLoader(config) : LoaderOptions::fromConfig(config, LoaderMode::Train),
                     std::ref(warn));
    DataLoader val(data->val.samples, LoaderOptions::fromConfig(config, LoaderMode::Val), std::ref(warn));
    // Per-image results of every validation (<run>/validation.jsonl: runs errors, the worst images), the
    // curves of the best model so far (<run>/curves.json: the platform's training_complete plots) and the
    // first validation batches with their labels and the best model's detections (val_batch0..2_*.jpg).
    ValidationChain validation(val, data->val.samples, data->classNames, config.imgsz, *runDir,
                               std::ref(warn));
    sink.add(&validation);
    // The planner's estimate of this run, for "estimated X, took Y" afterwards: <run>/estimate.json.
    planner::EstimateRecorder estimateRecorder({}, firstGpuName(config.device));
    sink.add(&estimateRecorder);

    // The first batches as the network sees them: <run>/train_batch0..2.jpg (not again on resume).
    BatchPictures pictured(train, *runDir, data->classNames, std::ref(warn));
    TrainInputs inputs;
    inputs.train = config.resume ? static_cast<BatchSource*>(&train) : &pictured;
    inputs.val = data->val.samples.empty() ? nullptr : &validation.source();
    inputs.scorer = &validation.scorer();
    inputs.dataset = datasetInfoOf(*data);
    inputs.runDir = runDir.value();
    // The run advice (core/planner) watches the stream and adds `advice` events to it.
    planner::AdvisingSink advised(sink);
    inputs.events = &advised;
    inputs.stop = stop;
    if (data->val.samples.empty())
        warn("the project has no val images: epochs are not validated and best.pt follows the first epoch");
    if (job) {
        job->publishRun(runDir.value(), config);
        inputs.distributed = &job->context();
    }
    auto result = runTraining(config, inputs);
    writeRunPictures(*sizes, *data, runDir.value());
    return result;
}

} // namespace osprey::job
