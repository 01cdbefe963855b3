#include "remote/mlflow_tracker.h"

#include "common/log.h"
#include "remote/mlflow_client.h"
#include "remote/mlflow_mapper.h"
#include "remote/mlflow_sender.h"
#include "remote/outbox.h"
#include "run/train_events.h"

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <thread>

namespace osprey::remote {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

} // namespace

std::string resolveExperiment(const std::string& given, const std::filesystem::path& projectFolder) {
    if (!given.empty())
        return given;
    if (const char* env = std::getenv(kMlflowExperimentEnv); env && *env)
        return env;
    const auto name = std::filesystem::absolute(projectFolder).lexically_normal().filename().string();
    return name.empty() ? std::string("Default") : name;
}

std::string resolveTrackingUri(const std::string& given) {
    if (given == "none")
        return {};
    if (!given.empty())
        return given;
    const char* env = std::getenv(kMlflowUriEnv);
    return env ? std::string(env) : std::string();
}

struct MlflowTracker::Impl {
    TrackerOptions options;
    std::string uri, experiment;

    mutable std::mutex producerMutex; // guards producer, mapper, runUid, finishResult
    std::unique_ptr<Outbox> producer;
    std::optional<MlflowMapper> mapper;
    std::string runUid;
    std::optional<Status> finishResult;

    std::atomic<bool> stop{false}, refused{false};
    mutable std::mutex stateMutex;
    std::string lastError;
    bool retrying = false;
    bool toldRejected = false;

    std::mutex wakeMutex;
    std::condition_variable wake;
    std::uint64_t generation = 0;
    std::thread thread;

    void notify() {
        {
            std::lock_guard lock(wakeMutex);
            ++generation;
        }
        wake.notify_all();
    }

    void say(bool problem, const std::string& line) {
        if (options.note)
            options.note(problem, line);
        else
            (problem ? log::warn : log::info)(line);
    }

    std::string currentRun() {
        std::lock_guard lock(producerMutex);
        return runUid;
    }

    void senderLoop() {
        auto outbox = Outbox::open(options.projectFolder);
        if (!outbox) {
            say(true, "MLflow: " + outbox.message());
            return;
        }
        MlflowClient client(uri, options.client);
        MlflowSender sender(**outbox, client, options.retry);
        while (!stop) {
            std::uint64_t seen;
            {
                std::lock_guard lock(wakeMutex);
                seen = generation;
            }
            const std::string uid = currentRun();
            Step step{StepResult::Idle, milliseconds(0), {}};
            if (!uid.empty())
                step = sender.deliverNext(uid, Lane::Event);
            switch (step.result) {
            case StepResult::Delivered: {
                std::lock_guard lock(stateMutex);
                if (retrying)
                    say(false, "MLflow: " + uri + " is reachable again; sending the queued records");
                retrying = false;
                lastError.clear();
                continue;
            }
            case StepResult::Rejected: {
                std::lock_guard lock(stateMutex);
                lastError = step.message;
                if (!toldRejected)
                    say(true, step.message);
                toldRejected = true;
                continue;
            }
            case StepResult::Unauthorized:
                refused = true;
                {
                    std::lock_guard lock(stateMutex);
                    lastError = step.message;
                }
                say(true, "MLflow: " + step.message + "; training goes on");
                return;
            case StepResult::RetryLater: {
                std::lock_guard lock(stateMutex);
                if (!retrying)
                    say(true,
                        "MLflow: cannot reach " + uri + " (" + step.message +
                            "); the run's records wait in the project and are sent when it is back; training "
                            "goes on");
                retrying = true;
                lastError = step.message;
                break;
            }
            default:
                break;
            }
            std::unique_lock lock(wakeMutex);
            if (step.result == StepResult::RetryLater || step.result == StepResult::StoreError)
                wake.wait_for(lock, step.wait, [&] { return stop.load(); });
            else
                wake.wait_for(lock, milliseconds(1000), [&] { return stop.load() || generation != seen; });
        }
    }

    // With producerMutex held.
    void enqueue(const std::vector<MlflowCall>& calls) {
        for (const auto& call : calls)
            if (auto id = producer->enqueue(runUid, Lane::Event, call.event, call.dataJson); !id) {
                std::lock_guard lock(stateMutex);
                lastError = id.message();
                log::warn("mlflow: " + id.message());
            }
    }

    /// A resumed training's earlier MLflow run: the newest outbox run of this run folder, server and
    /// experiment (with producerMutex held).
    std::string earlierRun(const std::string& runDir) {
        const auto resumed = producer->runs();
        if (!resumed)
            return {};
        std::error_code ec;
        const auto folder = std::filesystem::weakly_canonical(runDir, ec);
        std::string found;
        for (const auto& run : *resumed)
            if (run.service == Service::Mlflow && run.baseUrl == uri && run.project == experiment &&
                std::filesystem::weakly_canonical(run.localRun, ec) == folder)
                found = run.runUid;
        return found;
    }

    std::int64_t pendingCount() const {
        std::lock_guard lock(producerMutex);
        if (runUid.empty())
            return 0;
        auto counts = producer->counts(runUid);
        return counts ? counts->pending : -1;
    }
};

MlflowTracker::MlflowTracker(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

Expected<std::unique_ptr<MlflowTracker>> MlflowTracker::start(TrackerOptions options) {
    auto impl = std::make_unique<Impl>();
    auto uri = checkTrackingUri(options.uri);
    if (!uri)
        return fail(uri.error());
    impl->uri = *uri;
    impl->experiment = resolveExperiment(options.experiment, options.projectFolder);
    auto producer = Outbox::open(options.projectFolder);
    if (!producer)
        return fail(producer.error());
    impl->producer = std::move(*producer);
    impl->mapper.emplace(impl->experiment,
                         std::filesystem::absolute(options.projectFolder).lexically_normal().string());
    impl->options = std::move(options);
    Impl* raw = impl.get();
    impl->thread = std::thread([raw] { raw->senderLoop(); });
    return std::unique_ptr<MlflowTracker>(new MlflowTracker(std::move(impl)));
}

MlflowTracker::~MlflowTracker() {
    m_impl->stop = true;
    m_impl->notify();
    if (m_impl->thread.joinable())
        m_impl->thread.join();
}

void MlflowTracker::handleEvent(const run::TrainEvent& event) {
    if (event.type == run::TrainEvent::Type::Batch || event.type == run::TrainEvent::Type::Log ||
        event.type == run::TrainEvent::Type::Remote || event.type == run::TrainEvent::Type::Advice)
        return;
    auto& impl = *m_impl;
    {
        std::lock_guard lock(impl.producerMutex);
        if (impl.finishResult)
            return;
        const bool first = !impl.mapper->started() && event.type == run::TrainEvent::Type::RunStarted;
        std::string earlier;
        // Only a resumed training continues; a new run in a reused folder name gets its own MLflow run.
        if (const auto resume = event.config.find("resume");
            first && resume != event.config.end() && resume->second == "true") {
            earlier = impl.earlierRun(event.runDir);
            impl.mapper->setContinuing(!earlier.empty());
        }
        const auto calls = impl.mapper->map(event);
        if (first && !earlier.empty()) {
            impl.runUid = earlier;
            (void)impl.producer->setRunState(earlier, RunState::Active, {});
            impl.say(false, "MLflow: the resumed run goes on in its MLflow run at " + impl.uri +
                                ", experiment '" + impl.experiment + "'");
        } else if (first && impl.mapper->started()) {
            auto uid = impl.producer->createRun(impl.experiment, impl.mapper->runName(), impl.uri,
                                                impl.mapper->runDir(), Service::Mlflow);
            if (!uid) {
                impl.say(true, "MLflow: this run is NOT logged (" + uid.message() + "); training goes on");
                impl.finishResult = fail(uid.error());
                return;
            }
            impl.runUid = *uid;
            impl.say(false, "MLflow: logging run " + impl.mapper->runName() + " to " + impl.uri +
                                ", experiment '" + impl.experiment + "'");
        }
        if (calls.empty() || impl.runUid.empty())
            return;
        impl.enqueue(calls);
    }
    impl.notify();
}

std::string MlflowTracker::runUid() const {
    return m_impl->currentRun();
}

Status MlflowTracker::finish() {
    auto& impl = *m_impl;
    const auto deadline = Clock::now() + impl.options.finishTimeout;
    {
        std::lock_guard lock(impl.producerMutex);
        if (impl.finishResult)
            return *impl.finishResult;
        if (impl.runUid.empty()) {
            impl.finishResult = Status();
            return *impl.finishResult;
        }
        impl.enqueue(impl.mapper->finish(impl.options.fallbackStatus));
    }
    impl.notify();
    while (impl.pendingCount() != 0 && !impl.refused && Clock::now() < deadline)
        std::this_thread::sleep_for(milliseconds(20));
    impl.stop = true;
    impl.notify();
    if (impl.thread.joinable())
        impl.thread.join();

    const auto left = impl.pendingCount();
    const TrackerStatus now = status();
    Status result;
    if (impl.refused) {
        result = fail(now.lastError, "refused");
    } else if (left != 0) {
        result = fail(std::to_string(left) + " MLflow record(s) of this run are still queued" +
                          (now.lastError.empty() ? std::string() : " (last error: " + now.lastError + ")") +
                          "; send them with `osprey-cli runs push " + impl.mapper->runName() +
                          " project=" + impl.options.projectFolder.string() + " mlflow=" + impl.uri + "`",
                      "queued");
    } else {
        std::lock_guard lock(impl.producerMutex);
        (void)impl.producer->setRunState(impl.runUid, RunState::Closed, {});
    }
    std::lock_guard lock(impl.producerMutex);
    impl.finishResult = result;
    return result;
}

TrackerStatus MlflowTracker::status() const {
    auto& impl = *m_impl;
    TrackerStatus status;
    {
        std::lock_guard lock(impl.producerMutex);
        if (!impl.runUid.empty()) {
            if (auto counts = impl.producer->counts(impl.runUid)) {
                status.queued = counts->pending;
                status.delivered = counts->sent;
                status.failed = counts->failed;
            }
            if (auto run = impl.producer->run(impl.runUid); run && *run && !(*run)->remoteRunId.empty())
                status.runUrl = mlflowRunUrl(impl.uri, (*run)->modelId, (*run)->remoteRunId);
        }
    }
    std::lock_guard lock(impl.stateMutex);
    status.refused = impl.refused;
    status.lastError = impl.lastError;
    return status;
}

} // namespace osprey::remote
