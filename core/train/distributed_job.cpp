#include "train/distributed_job.h"

#include "common/version.h"
#include "run/run_files.h"
#include "train/dataset_info.h"
#include "train/device_choice.h"
#include "train/warning_forwarder.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <functional>
#include <mutex>

namespace osprey::train {

namespace {

constexpr double kJoinTimeoutS = 300;        // every rank in the store, like torchrun's rendezvous
constexpr double kCollectiveTimeoutS = 1800; // c10d's default; rank 0 validates while the others wait
constexpr double kRunTimeoutS = 3600;        // rank 0 reads the project and writes the snapshot first

// Options that may differ between ranks: where a rank computes, not what the job trains.
bool rankLocal(const std::string& key) {
    return key == "device" || key == "workers" || key == "threads";
}

/// A rank's log, <run>/rank<N>.log: one line per event except batches (those are in rank 0's events).
class RankLogSink : public run::EventSink {
public:
    RankLogSink(std::FILE* file, run::EventSink& forward) : m_file(file), m_forward(forward) {}
    ~RankLogSink() override {
        if (m_file)
            std::fclose(m_file);
    }
    void onEvent(const run::TrainEvent& event) override {
        using Type = run::TrainEvent::Type;
        if (event.type == Type::Failed)
            m_forward.onEvent(event);
        if (!m_file || event.type == Type::Batch || event.type == Type::System)
            return;
        std::string text;
        switch (event.type) {
        case Type::RunStarted:
            text = "run started: " + event.modelName + ", epochs " + std::to_string(event.startEpoch) + "-" +
                   std::to_string(event.epochs);
            break;
        case Type::Log:
        case Type::Advice:
            text = (event.level.empty() || event.level == "info" ? "" : event.level + ": ") + event.message;
            break;
        case Type::Failed:
            text = "failed: " + event.message;
            break;
        case Type::Finished:
            text = "finished (" + event.status + "): " + event.message;
            break;
        default:
            return;
        }
        std::lock_guard lock(m_mutex);
        std::fprintf(m_file, "[%9.2f s] %s\n", event.timeS, text.c_str());
        std::fflush(m_file);
    }

private:
    std::mutex m_mutex;
    std::FILE* m_file;
    run::EventSink& m_forward;
};

} // namespace

Expected<std::unique_ptr<DistributedJob>> DistributedJob::join(const run::TrainConfig& config) {
    auto info = rankInfoFromEnvironment();
    if (!info)
        return fail(info.error());
    if (!info.value()) // a launcher's job of one process still gets its group: the 1-rank NCCL check
        return std::unique_ptr<DistributedJob>();
    const RankInfo& rank = **info;
    if (config.batch < 1)
        return fail("batch: AutoBatch (-1 or a fraction) chooses the batch of one process; give the batch of "
                    "all " +
                    std::to_string(rank.worldSize) +
                    " ranks together, e.g. batch=" + std::to_string(16 * rank.worldSize));
    auto devices = chooseDevices(config.device, probeDevices());
    if (!devices)
        return fail("rank " + std::to_string(rank.rank) + ": " + devices.message());
    int cudaDevice = -1;
    if (devices->cuda)
        cudaDevice = devices->indices[static_cast<size_t>(rank.localRank) % devices->indices.size()];

    auto context = DistributedContext::connect(rank, kJoinTimeoutS);
    if (!context)
        return fail(context.error());
    std::string description = std::string("osprey ") + kVersion + "\n";
    for (const auto& [key, value] : config.toMap())
        if (!rankLocal(key))
            description += key + "=" + value + "\n";
    if (auto status = (*context)->checkSameOnAllRanks("configuration", description, kJoinTimeoutS); !status)
        return fail(status.error());
    if (auto status = (*context)->startGroup(devices->cuda ? CommBackend::Nccl : CommBackend::Gloo,
                                             cudaDevice, kCollectiveTimeoutS);
        !status)
        return fail(status.error());
    auto job = std::make_unique<DistributedJob>();
    job->m_context = std::move(context.value());
    return job;
}

void DistributedJob::publishRun(const std::filesystem::path& runDir, const run::TrainConfig& config) {
    nlohmann::json run = {{"dir", std::filesystem::absolute(runDir).string()}, {"config", config.toMap()}};
    if (auto status = m_context->set("run", run.dump()); !status)
        return; // the other ranks then report that they waited in vain
    m_published = true;
}

void DistributedJob::publishFailure(const std::string& message) {
    if (m_published)
        return;
    m_published = true;
    (void)m_context->set("run", nlohmann::json{{"error", message}}.dump());
}

LoaderOptions DistributedJob::trainLoader(const run::TrainConfig& config) const {
    auto options = LoaderOptions::fromConfig(config, LoaderMode::Train);
    options.rank = m_context->rank();
    options.worldSize = m_context->worldSize();
    options.batch = std::max(1, config.batch / options.worldSize);
    return options;
}

Expected<TrainResult> trainProjectRank(const std::function<Expected<ProjectData>()>& readData,
                                       run::TrainConfig config, run::EventSink& events,
                                       const std::atomic<bool>* stop, DistributedJob& job) {
    const std::string self = "rank " + std::to_string(job.rank());
    const auto failHere = [&](const std::string& message) -> Expected<TrainResult> {
        run::TrainEvent event;
        event.type = run::TrainEvent::Type::Failed;
        event.message = message;
        events.onEvent(event);
        return fail(message);
    };
    auto published = job.context().get("run", kRunTimeoutS);
    if (!published)
        return failHere(published.message() + " (rank 0 did not start the run)");
    const auto run = nlohmann::json::parse(published.value(), nullptr, false);
    if (run.is_discarded() || !run.is_object())
        return failHere(self + ": rank 0 published an unreadable run description");
    if (run.contains("error"))
        return failHere(self + ": rank 0 could not start the run: " + run.value("error", std::string()));
    const std::filesystem::path runDir = run.value("dir", std::string());
    run::TrainConfig shared;
    if (auto status = run::applyArgs(shared, run.at("config").get<std::map<std::string, std::string>>());
        !status)
        return failHere(self + ": rank 0's configuration: " + status.message());
    shared.device = config.device;
    shared.workers = config.workers;
    shared.threads = config.threads;
    config = shared;

    std::error_code error;
    std::filesystem::create_directories(runDir, error);
    const auto logPath = runDir / ("rank" + std::to_string(job.rank()) + ".log");
    std::FILE* file = std::fopen(logPath.c_str(), config.resume ? "a" : "w");
    if (!file)
        return failHere(self + ": cannot write " + logPath.string());
    RankLogSink log(file, events);

    auto data = readData();
    if (!data) {
        run::TrainEvent failed;
        failed.type = run::TrainEvent::Type::Failed;
        failed.message = self + ": " + data.message();
        log.onEvent(failed);
        return fail(failed.message);
    }
    WarningForwarder warn(log);
    DataLoader train(data->train.samples, job.trainLoader(config), std::ref(warn));
    TrainInputs inputs;
    inputs.train = &train;
    inputs.dataset = datasetInfoOf(*data);
    inputs.runDir = runDir;
    inputs.events = &log;
    inputs.stop = stop;
    inputs.distributed = &job.context();
    return runTraining(config, inputs);
}

} // namespace osprey::train
