#include "remote/run_reporter.h"

#include "common/log.h"
#include "remote/event_mapper.h"
#include "remote/outbox.h"
#include "run/run_curves.h"
#include "run/run_folder.h"
#include "run/train_events.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

namespace osprey::remote {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

} // namespace

const char* toString(ReporterStatus::State state) {
    switch (state) {
    case ReporterStatus::State::Connecting:
        return "connecting";
    case ReporterStatus::State::Connected:
        return "connected";
    case ReporterStatus::State::Retrying:
        return "retrying";
    case ReporterStatus::State::Unauthorized:
        return "unauthorized";
    case ReporterStatus::State::Finished:
        return "finished";
    }
    return "connecting";
}

struct RunReporter::Impl {
    ReporterOptions options;
    PlatformSettings settings;
    std::string project, name, runUid;

    // Producer side: the mapper, the producer's own connection and upload scheduling.
    mutable std::mutex producerMutex;
    std::unique_ptr<Outbox> producer;
    EventMapper mapper;
    Clock::time_point lastUploadStart = Clock::now();
    std::atomic<bool> uploadInFlight{false};
    bool finishing = false;
    std::optional<Status> finishResult;

    // Shared with the sender threads.
    std::atomic<bool> cancelled{false}, unauthorized{false}, stop{false};
    std::atomic<std::uint64_t> uploadSent{0}, uploadTotal{0};
    std::atomic<bool> uploading{false};
    mutable std::mutex stateMutex;
    ReporterStatus::State state = ReporterStatus::State::Connecting;
    std::string lastError, dashboard;

    std::mutex wakeMutex;
    std::condition_variable wake;
    std::uint64_t generation = 0;
    std::thread eventThread, uploadThread;

    void notify() {
        {
            std::lock_guard lock(wakeMutex);
            ++generation;
        }
        wake.notify_all();
    }

    void setState(ReporterStatus::State next, const std::string& error, bool replaceError) {
        std::lock_guard lock(stateMutex);
        if (state != ReporterStatus::State::Unauthorized && state != ReporterStatus::State::Finished)
            state = next;
        if (replaceError)
            lastError = error;
    }

    SenderHooks hooks() {
        SenderHooks h;
        h.cancelled = [this] {
            if (!cancelled.exchange(true))
                log::info(
                    "remote: the platform cancelled this run; training stops at the next epoch boundary");
        };
        h.unauthorized = [this](const std::string& reason) {
            unauthorized = true;
            std::lock_guard lock(stateMutex);
            state = ReporterStatus::State::Unauthorized;
            lastError = reason;
        };
        h.error = [this](const std::string& error) {
            setState(ReporterStatus::State::Retrying, error, true);
        };
        h.registered = [this](const std::string& slug) {
            std::lock_guard lock(stateMutex);
            if (!slug.empty())
                dashboard = dashboardUrl(settings.baseUrl, project, slug);
        };
        h.uploadProgress = [this](std::uint64_t sent, std::uint64_t total) {
            uploading = true;
            uploadSent = sent;
            uploadTotal = total;
            return !stop.load();
        };
        h.uploadFinished = [this](bool) {
            uploading = false;
            uploadInFlight = false;
        };
        return h;
    }

    void senderLoop(Lane lane) {
        auto outbox = Outbox::open(options.projectFolder);
        if (!outbox) {
            setState(ReporterStatus::State::Retrying, outbox.message(), true);
            return;
        }
        PlatformClient client(settings, options.client);
        OutboxSender sender(**outbox, client, options.retry, hooks());
        while (!stop) {
            std::uint64_t seen;
            bool flush;
            {
                std::lock_guard lock(wakeMutex);
                seen = generation;
            }
            {
                std::lock_guard lock(producerMutex);
                flush = finishing;
            }
            const Step step = sender.deliverNext(
                runUid, lane, flush ? OutboxSender::FlushConsole::Now : OutboxSender::FlushConsole::WhenDue);
            if (step.result == StepResult::Unauthorized)
                return;
            if (step.result == StepResult::Delivered) {
                setState(ReporterStatus::State::Connected, {}, true);
                continue;
            }
            if (step.result == StepResult::Rejected)
                continue;
            std::unique_lock lock(wakeMutex);
            if (step.result == StepResult::RetryLater || step.result == StepResult::StoreError)
                wake.wait_for(lock, step.wait, [&] { return stop.load(); });
            else
                wake.wait_for(lock, step.result == StepResult::Idle ? milliseconds(1000) : step.wait,
                              [&] { return stop.load() || generation != seen; });
        }
    }

    // Called with producerMutex held.
    std::int64_t enqueue(Lane lane, const std::string& event, const json& data) {
        auto id = producer->enqueue(runUid, lane, event, data.dump());
        if (!id) {
            log::warn("remote: " + id.message());
            setState(ReporterStatus::State::Retrying, id.message(), true);
            return 0;
        }
        return *id;
    }

    // Called with producerMutex held.
    void maybeScheduleUpload() {
        const bool best = !mapper.bestCheckpoint().empty();
        const std::string& path = best ? mapper.bestCheckpoint() : mapper.lastCheckpoint();
        if (finishing || path.empty() || uploadInFlight ||
            Clock::now() - lastUploadStart < options.checkpointInterval)
            return;
        if (enqueue(Lane::Upload, "upload",
                    {{"path", path}, {"kind", best ? "best" : "last"}, {"final", false}}) == 0)
            return;
        uploadInFlight = true;
        lastUploadStart = Clock::now();
        notify();
    }

    bool rowPending(std::int64_t id) {
        std::lock_guard lock(producerMutex);
        auto row = producer->pending(runUid, Lane::Upload, 1000);
        if (!row)
            return false;
        for (const auto& r : *row)
            if (r.id == id)
                return true;
        return false;
    }

    std::int64_t pendingCount() {
        std::lock_guard lock(producerMutex);
        auto counts = producer->counts(runUid);
        return counts ? counts->pending : -1;
    }
};

RunReporter::RunReporter(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

Expected<std::unique_ptr<RunReporter>> RunReporter::start(ReporterOptions options) {
    auto impl = std::make_unique<Impl>();
    impl->settings = options.settings ? *options.settings : resolveSettings();
    if (impl->settings.apiKey.empty())
        return fail("no platform API key: run `osprey-cli remote login key=...` or set ULTRALYTICS_API_KEY",
                    "no-key");
    impl->project = normalizeProject(options.remote);
    if (impl->project.empty())
        return fail("remote=: give the platform project as user/project", "remote");
    impl->name = normalizeName(options.name);
    impl->mapper = EventMapper(options.command);
    auto producer = Outbox::open(options.projectFolder);
    if (!producer)
        return fail(producer.error());
    impl->producer = std::move(*producer);
    auto uid = impl->producer->createRun(impl->project, impl->name, impl->settings.baseUrl, options.localRun);
    if (!uid)
        return fail(uid.error());
    impl->runUid = *uid;
    impl->options = std::move(options);
    Impl* raw = impl.get();
    impl->eventThread = std::thread([raw] { raw->senderLoop(Lane::Event); });
    impl->uploadThread = std::thread([raw] { raw->senderLoop(Lane::Upload); });
    log::info("remote: streaming to " + raw->settings.baseUrl + " project " + raw->project + " name " +
              raw->name + " (key " + maskKey(raw->settings.apiKey) + ")");
    return std::unique_ptr<RunReporter>(new RunReporter(std::move(impl)));
}

RunReporter::~RunReporter() {
    m_impl->stop = true;
    m_impl->notify();
    if (m_impl->eventThread.joinable())
        m_impl->eventThread.join();
    if (m_impl->uploadThread.joinable())
        m_impl->uploadThread.join();
}

void RunReporter::handleEvent(const run::TrainEvent& trainerEvent) {
    bool queued = false;
    {
        std::lock_guard lock(m_impl->producerMutex);
        if (m_impl->finishResult)
            return;
        for (auto& event : m_impl->mapper.map(trainerEvent)) {
            m_impl->enqueue(Lane::Event, event.event, event.data);
            queued = true;
        }
        if (trainerEvent.type == run::TrainEvent::Type::Checkpoint ||
            trainerEvent.type == run::TrainEvent::Type::Epoch)
            m_impl->maybeScheduleUpload();
    }
    if (queued)
        m_impl->notify();
}

bool RunReporter::handleEventLine(std::string_view jsonLine) {
    auto event = run::parseEvent(jsonLine);
    if (!event)
        return false;
    handleEvent(event.value());
    return true;
}

bool RunReporter::cancelRequested() const {
    return m_impl->cancelled.load();
}

const std::string& RunReporter::runUid() const {
    return m_impl->runUid;
}

Status RunReporter::finish() {
    auto& impl = *m_impl;
    const auto deadline = Clock::now() + impl.options.finishTimeout;
    std::int64_t finalUpload = 0;
    bool failedRun = false;
    {
        std::lock_guard lock(impl.producerMutex);
        if (impl.finishResult)
            return *impl.finishResult;
        impl.finishing = true;
        failedRun = impl.mapper.failed();
        const bool best = !impl.mapper.bestCheckpoint().empty();
        const std::string path = best ? impl.mapper.bestCheckpoint() : impl.mapper.lastCheckpoint();
        std::error_code ec;
        if (!failedRun && !path.empty() && std::filesystem::is_regular_file(path, ec))
            finalUpload = impl.enqueue(Lane::Upload, "upload",
                                       {{"path", path}, {"kind", best ? "best" : "last"}, {"final", true}});
    }
    impl.notify();
    auto waitUntil = [&](const std::function<bool()>& done) {
        while (!done() && !impl.unauthorized && Clock::now() < deadline)
            std::this_thread::sleep_for(milliseconds(20));
    };
    // Any earlier upload goes first (same lane, in order), then the final one.
    if (finalUpload > 0)
        waitUntil([&] { return !impl.rowPending(finalUpload); });
    if (!failedRun) {
        std::lock_guard lock(impl.producerMutex);
        // The best model's curves (<run>/curves.json, written by the trainer) give the plots and the
        // per-image rows; a run without them (no validation) still completes, without plots.
        std::optional<run::RunCurves> curves;
        if (!impl.mapper.runDir().empty()) {
            const auto file = run::RunFolder(impl.mapper.runDir()).curves();
            std::error_code ec;
            if (std::filesystem::exists(file, ec)) {
                if (auto read = run::readRunCurves(file))
                    curves = std::move(read.value());
                else
                    log::warn("remote: training_complete without plots: " + read.message());
            }
        }
        json data = impl.mapper.completeData(curves ? &*curves : nullptr);
        if (finalUpload > 0)
            data["_finalUpload"] = finalUpload;
        impl.enqueue(Lane::Event, "training_complete", data);
    }
    impl.notify();
    waitUntil([&] { return impl.pendingCount() == 0; });
    impl.stop = true;
    impl.notify();
    impl.eventThread.join();
    impl.uploadThread.join();

    const auto left = impl.pendingCount();
    Status result;
    if (impl.unauthorized) {
        std::lock_guard lock(impl.stateMutex);
        result = fail(impl.lastError, "unauthorized");
    } else if (left != 0) {
        std::string last;
        {
            std::lock_guard lock(impl.stateMutex);
            last = impl.lastError;
        }
        result = fail(std::to_string(left) + " platform event(s) are still queued" +
                          (last.empty() ? std::string() : " (last error: " + last + ")") +
                          "; send them later with `osprey-cli remote sync project=" +
                          impl.options.projectFolder.string() + "`",
                      "queued");
    } else {
        std::lock_guard lock(impl.producerMutex);
        (void)impl.producer->setRunState(impl.runUid, RunState::Closed, {});
        std::lock_guard stateLock(impl.stateMutex);
        impl.state = ReporterStatus::State::Finished;
    }
    std::lock_guard lock(impl.producerMutex);
    impl.finishResult = result;
    return result;
}

ReporterStatus RunReporter::status() const {
    auto& impl = *m_impl;
    ReporterStatus status;
    {
        std::lock_guard lock(impl.producerMutex);
        if (auto counts = impl.producer->counts(impl.runUid)) {
            status.queued = counts->pending;
            status.delivered = counts->sent;
            status.failed = counts->failed;
        }
    }
    {
        std::lock_guard lock(impl.stateMutex);
        status.state = impl.state;
        status.lastError = impl.lastError;
        status.dashboardUrl = impl.dashboard;
    }
    status.cancelled = impl.cancelled;
    status.uploading = impl.uploading;
    status.uploadSentBytes = impl.uploadSent;
    status.uploadTotalBytes = impl.uploadTotal;
    return status;
}

} // namespace osprey::remote
