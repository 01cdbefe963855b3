#include "cli/remote_stream.h"

#include "project/project.h"
#include "remote/platform_settings.h"
#include "remote/run_reporter.h"

#include <cstdio>
#include <optional>

namespace osprey::cli {
namespace {

using run::TrainEvent;

constexpr auto kPollInterval = std::chrono::milliseconds(500); // the contract: at most 2 lines a second
constexpr std::size_t kMaxEarlyEvents = 1000;

/// The `remote` status line's event (EVENTS.md), written by run::toJson like every other line.
TrainEvent statusEvent(const std::string& state, const remote::ReporterStatus& status,
                       const std::string& error) {
    TrainEvent event;
    event.type = TrainEvent::Type::Remote;
    event.remoteState = state;
    event.queued = status.queued;
    event.delivered = status.delivered;
    event.remoteFailed = status.failed;
    event.message = error;
    event.dashboardUrl = status.dashboardUrl;
    event.uploading = status.uploading;
    event.uploadSent = static_cast<std::int64_t>(status.uploadSentBytes);
    event.uploadTotal = static_cast<std::int64_t>(status.uploadTotalBytes);
    event.cancelled = status.cancelled;
    return event;
}

std::string megabytes(std::uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / (1024.0 * 1024.0));
    return text;
}

} // namespace

RemoteStream::RemoteStream(run::EventSink& output, RemoteStreamOptions options)
    : m_output(output), m_options(std::move(options)) {
    if (!m_options.note)
        m_options.note = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
}

RemoteStream::~RemoteStream() {
    {
        std::lock_guard lock(m_pollMutex);
        m_pollStop = true;
    }
    m_pollWake.notify_all();
    if (m_poll.joinable())
        m_poll.join();
    // The reporter's destructor stops its senders; anything undelivered stays queued for `remote sync`.
}

double RemoteStream::secondsSinceStart() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
}

void RemoteStream::onEvent(const TrainEvent& event) {
    m_output.onEvent(event);
    if (event.type == TrainEvent::Type::Batch) // the platform takes no batch progress
        return;
    std::lock_guard lock(m_eventMutex);
    if (!m_runStarted) {
        if (event.type != TrainEvent::Type::RunStarted) {
            if (m_early.size() < kMaxEarlyEvents)
                m_early.push_back(event);
            return;
        }
        m_runStarted = true;
        startReporter(event);
        if (m_reporter) {
            forward(event);
            for (const auto& early : m_early)
                forward(early);
        }
        m_early.clear();
        return;
    }
    if (!m_reporter)
        return;
    forward(event);
    // The epoch is validated and its checkpoint follows; the trainer checks the flag right after, so the
    // run ends at this boundary. A cancel during the last epoch changes nothing: the run ends anyway.
    if (event.type == TrainEvent::Type::Epoch && event.epoch < event.epochs && !m_stopRequested &&
        m_options.stop && m_reporter->cancelRequested()) {
        m_stopRequested = true;
        m_options.stop->store(true);
        m_options.note("Platform: the run was cancelled on the platform; training stops after epoch " +
                       std::to_string(event.epoch) + " of " + std::to_string(event.epochs) +
                       ", then uploads its weights");
    }
}

void RemoteStream::forward(const TrainEvent& event) {
    m_reporter->handleEvent(event);
}

void RemoteStream::startReporter(const TrainEvent& runStarted) {
    // Status lines share the trainer's clock (`t` of run_started is seconds since its start).
    m_start =
        std::chrono::steady_clock::now() - std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                               std::chrono::duration<double>(runStarted.timeS));
    const std::filesystem::path runDir = runStarted.runDir;
    const std::string runName = runDir.filename().string();

    // Remember the platform project as this project's default (the GUI's switch reads it).
    if (auto project = project::Project::open(m_options.projectFolder); project) {
        if (auto saved = (*project)->settings().set(remote::kRemoteProjectSetting, m_options.remote); !saved)
            m_options.note("warning: cannot remember remote=" + m_options.remote +
                           " as the project's default: " + saved.message());
    }

    remote::ReporterOptions options;
    options.projectFolder = m_options.projectFolder;
    options.remote = m_options.remote;
    options.name = runName;
    options.localRun = runDir.string();
    options.command = m_options.command;
    options.finishTimeout = m_options.finishTimeout;
    auto reporter = remote::RunReporter::start(std::move(options));
    if (!reporter) {
        const std::string why = reporter.message();
        m_options.note("warning: this run is NOT streamed to the platform project " + m_options.remote +
                       " (" + why + "); training goes on locally");
        if (m_options.format == RemoteStatusFormat::JsonLines && m_options.writeLine) {
            remote::ReporterStatus none;
            TrainEvent off = statusEvent("off", none, why);
            off.timeS = secondsSinceStart();
            m_options.writeLine(run::toJson(off));
        }
        return;
    }
    m_reporter = std::move(*reporter);
    if (m_options.format == RemoteStatusFormat::Terminal)
        m_options.note("Platform: streaming run " + remote::normalizeName(runName) + " to " +
                       remote::normalizeProject(m_options.remote) +
                       "; events are queued in the project and sent in the background");
    publish(m_reporter->status(), true);
    m_poll = std::thread([this] { pollLoop(); });
}

void RemoteStream::pollLoop() {
    // Waits first: the start line was just printed, and lines stay at least kPollInterval apart.
    std::unique_lock lock(m_pollMutex);
    while (!m_pollWake.wait_for(lock, kPollInterval, [this] { return m_pollStop; })) {
        lock.unlock();
        publish(m_reporter->status(), false);
        lock.lock();
    }
}

void RemoteStream::publish(const remote::ReporterStatus& status, bool force, const std::string& stateOverride,
                           const std::string& errorOverride) {
    const std::string state = stateOverride.empty() ? remote::toString(status.state) : stateOverride;
    const std::string error = errorOverride.empty() ? status.lastError : errorOverride;
    TrainEvent event = statusEvent(state, status, error);
    std::lock_guard lock(m_publishMutex);
    // The line without its time says whether anything changed.
    const std::string key = run::toJson(event);
    if (m_options.format == RemoteStatusFormat::JsonLines) {
        if ((force || key != m_lastLine) && m_options.writeLine) {
            event.timeS = secondsSinceStart();
            m_options.writeLine(run::toJson(event));
        }
    } else {
        // Terminal: only the transitions a user acts on.
        if (!status.dashboardUrl.empty() && status.dashboardUrl != m_lastDashboard)
            m_options.note("Platform dashboard: " + status.dashboardUrl);
        if (state != m_lastState) {
            if (state == "retrying" && m_lastState != "retrying")
                m_options.note("Platform: unreachable" +
                               (error.empty() ? std::string() : " (" + error + ")") +
                               "; events stay queued in the project and are retried");
            else if (state == "connected" && m_lastState == "retrying")
                m_options.note("Platform: reachable again; sending the queued events");
            else if (state == "unauthorized")
                m_options.note("Platform: reporting stopped (the API key was rejected, HTTP 401); training "
                               "goes on locally");
        }
    }
    m_lastLine = key;
    m_lastState = state;
    m_lastDashboard = status.dashboardUrl;
}

bool RemoteStream::finish() {
    {
        std::lock_guard lock(m_eventMutex);
        if (!m_reporter)
            return true;
    }
    if (m_options.format == RemoteStatusFormat::Terminal)
        m_options.note("Platform: uploading the weights and completing the run...");
    const Status result = m_reporter->finish();
    {
        std::lock_guard lock(m_pollMutex);
        m_pollStop = true;
    }
    m_pollWake.notify_all();
    if (m_poll.joinable())
        m_poll.join();

    const auto status = m_reporter->status();
    const bool unauthorized = status.state == remote::ReporterStatus::State::Unauthorized;
    // The final line says "finished" (reporting is over for this run) with what is left in `queued`;
    // a rejected key keeps "unauthorized".
    publish(status, true, unauthorized ? "unauthorized" : "finished",
            result ? std::string() : result.message());
    if (unauthorized) {
        m_options.note("warning: platform: the API key was rejected (HTTP 401), so reporting stopped; " +
                       std::to_string(status.queued) +
                       " event(s) of this run stay queued. Log in with a valid key (`osprey-cli remote login "
                       "key=...`), then send them with `osprey-cli remote sync project=" +
                       m_options.projectFolder.string() + "`");
        return false;
    }
    if (!result) {
        m_options.note("warning: platform: " + result.message());
        return false;
    }
    if (m_options.format == RemoteStatusFormat::Terminal) {
        std::string summary =
            "Platform: run complete; " + std::to_string(status.delivered) + " event(s) delivered";
        if (status.uploadTotalBytes > 0)
            summary += ", weights uploaded (" + megabytes(status.uploadTotalBytes) + ")";
        if (!status.dashboardUrl.empty())
            summary += "; dashboard " + status.dashboardUrl;
        m_options.note(summary);
    }
    return true;
}

} // namespace osprey::cli
