#include "remote/outbox_sender.h"

#include "common/log.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

namespace osprey::remote {
namespace {

using nlohmann::json;
using std::chrono::milliseconds;

constexpr int kConsoleBatchLines = 5;
constexpr double kConsoleBatchS = 5.0;

double nowS() {
    using namespace std::chrono;
    return duration<double>(system_clock::now().time_since_epoch()).count();
}

json parseObject(const std::string& text) {
    auto value = json::parse(text, nullptr, false);
    return value.is_object() ? value : json::object();
}

std::string stringField(const json& object, const char* key) {
    auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return {};
    return it->is_string() ? it->get<std::string>() : it->dump();
}

} // namespace

const char* toString(StepResult result) {
    switch (result) {
    case StepResult::Idle:
        return "idle";
    case StepResult::Delivered:
        return "delivered";
    case StepResult::Rejected:
        return "rejected";
    case StepResult::RetryLater:
        return "retry";
    case StepResult::Blocked:
        return "blocked";
    case StepResult::Unauthorized:
        return "unauthorized";
    case StepResult::StoreError:
        return "store error";
    }
    return "idle";
}

Backoff::Backoff(RetryPolicy policy) : m_policy(policy), m_random(std::random_device{}()) {}

milliseconds Backoff::delay(int failures) {
    const double base = double(m_policy.initialBackoff.count()) * std::pow(2.0, std::max(0, failures - 1));
    const double capped = std::min(base, double(m_policy.maxBackoff.count()));
    std::uniform_real_distribution<double> jitter(0.5, 1.0);
    return milliseconds(static_cast<long long>(capped * jitter(m_random)));
}

OutboxSender::OutboxSender(Outbox& outbox, PlatformClient& client, RetryPolicy policy, SenderHooks hooks)
    : m_outbox(outbox), m_client(client), m_backoff(policy), m_hooks(std::move(hooks)) {}

Step RowSender::storeError(const Error& error) {
    log::warn("outbox: " + error.message);
    return {StepResult::StoreError, milliseconds(1000), error.message};
}

std::optional<Step> RowSender::loadRun(Outbox& outbox, const std::string& runUid, RemoteRun& run) {
    auto found = outbox.run(runUid);
    if (!found)
        return storeError(found.error());
    if (!*found)
        return Step{StepResult::Idle, milliseconds(0), "unknown run " + runUid};
    if ((*found)->state == RunState::Unauthorized)
        return Step{StepResult::Unauthorized, milliseconds(0), (*found)->lastError};
    run = std::move(**found);
    return std::nullopt;
}

Step OutboxSender::deliverNext(const std::string& runUid, Lane lane, FlushConsole flush) {
    RemoteRun run;
    if (auto step = loadRun(m_outbox, runUid, run))
        return *step;
    return lane == Lane::Event ? deliverEvent(run, flush) : deliverUpload(run);
}

Step OutboxSender::retry(Lane lane, std::int64_t rowId, const std::string& runUid,
                         const HttpResponse& response) {
    int& failures = m_failures[lane == Lane::Event ? 0 : 1];
    ++failures;
    milliseconds wait = backoff(failures);
    if (response.retryAfterS) {
        const auto asked = milliseconds(static_cast<long long>(*response.retryAfterS * 1000.0));
        wait = std::min(asked, m_backoff.policy().retryAfterCap);
    }
    const std::string message = describe(response) + " (attempt " + std::to_string(failures) +
                                ", retrying in " + std::to_string(wait.count()) + " ms)";
    (void)m_outbox.noteAttempt(rowId, static_cast<int>(response.status), describe(response));
    (void)m_outbox.setLastError(runUid, message);
    if (m_hooks.error)
        m_hooks.error(message);
    return {StepResult::RetryLater, wait, message};
}

Step OutboxSender::unauthorized(std::int64_t rowId, const std::string& runUid, const HttpResponse& response) {
    const std::string reason =
        "the platform rejected the API key (HTTP 401); reporting stopped and the events stay "
        "queued. Run `osprey-cli remote login key=...` with a valid key, then "
        "`osprey-cli remote sync`.";
    (void)m_outbox.noteAttempt(rowId, static_cast<int>(response.status), "HTTP 401");
    (void)m_outbox.setRunState(runUid, RunState::Unauthorized, reason);
    log::warn("remote: " + reason);
    if (m_hooks.unauthorized)
        m_hooks.unauthorized(reason);
    return {StepResult::Unauthorized, milliseconds(0), reason};
}

Step OutboxSender::reject(std::int64_t rowId, const std::string& runUid, const HttpResponse& response,
                          const std::string& what) {
    const std::string message = what + " rejected: " + describe(response);
    (void)m_outbox.markFailed(rowId, static_cast<int>(response.status), message);
    (void)m_outbox.setLastError(runUid, message);
    log::warn("remote: " + message);
    if (m_hooks.error)
        m_hooks.error(message);
    return {StepResult::Rejected, milliseconds(0), message};
}

Step OutboxSender::deliverEvent(const RemoteRun& run, FlushConsole flush) {
    auto rows = m_outbox.pending(run.runUid, Lane::Event, kConsoleBatchLines + 1);
    if (!rows)
        return storeError(rows.error());
    if (rows->empty())
        return {StepResult::Idle, milliseconds(0), {}};
    OutboxRow head = rows->front();
    json data = parseObject(head.dataJson);

    if (head.event == "console_line") {
        size_t lines = 0;
        while (lines < rows->size() && lines < size_t(kConsoleBatchLines) &&
               (*rows)[lines].event == "console_line")
            ++lines;
        const double ageS = nowS() - head.createdAt;
        const bool due = lines == size_t(kConsoleBatchLines) || lines < rows->size() ||
                         ageS >= kConsoleBatchS || flush == FlushConsole::Now;
        if (!due)
            return {StepResult::Blocked,
                    milliseconds(static_cast<long long>((kConsoleBatchS - ageS) * 1000) + 1),
                    {}};
        std::string content;
        std::vector<std::int64_t> merged;
        for (size_t i = 0; i < lines; ++i) {
            content += stringField(parseObject((*rows)[i].dataJson), "line");
            content += '\n';
            if (i > 0)
                merged.push_back((*rows)[i].id);
        }
        auto chunk = m_outbox.countEvents(run.runUid, "console_output");
        if (!chunk)
            return storeError(chunk.error());
        data = {{"chunkId", *chunk}, {"content", content}, {"lineCount", lines}};
        // Sealed durably before sending, so a retry (or a sync after a crash) sends the same chunk.
        if (auto sealed = m_outbox.merge(head.id, "console_output", data.dump(), merged); !sealed)
            return storeError(sealed.error());
        head.event = "console_output";
    }

    if (auto upload = data.find("_finalUpload"); upload != data.end()) {
        auto row = m_outbox.row(upload->get<std::int64_t>());
        if (!row)
            return storeError(row.error());
        auto pendingUpload =
            m_outbox.hasPendingBefore(run.runUid, Lane::Upload, upload->get<std::int64_t>() + 1);
        if (!pendingUpload)
            return storeError(pendingUpload.error());
        if (*pendingUpload)
            return {StepResult::Blocked, milliseconds(200), "waiting for the final upload"};
        const json result = *row ? parseObject((*row)->resultJson) : json::object();
        // As Ultralytics 8.4.190: the stored model's path and size go in results, only when it was stored.
        if (result.contains("gcsPath") && result["gcsPath"].is_string() && data["results"].is_object()) {
            data["results"]["modelPath"] = result["gcsPath"];
            data["results"]["modelSize"] = result.contains("size") ? result["size"] : json(nullptr);
        }
        data.erase("_finalUpload");
    }
    if (data.contains("runId") && data["runId"].is_null() && !run.remoteRunId.empty())
        data["runId"] = run.remoteRunId;

    json envelope = {{"event", head.event}, {"data", data}, {"eventId", head.eventId()}};
    if (!run.modelId.empty()) {
        envelope["modelId"] = run.modelId;
    } else {
        envelope["project"] = run.project;
        envelope["name"] = run.name;
    }
    const auto response = m_client.postMetrics(envelope.dump(), head.eventId());
    switch (classify(response)) {
    case Outcome::Success: {
        m_failures[0] = 0;
        const json answer = parseObject(response.body);
        if (head.event == "training_started") {
            const auto slug = stringField(answer, "modelSlug");
            (void)m_outbox.setRunIds(run.runUid, stringField(answer, "modelId"), stringField(answer, "runId"),
                                     slug);
            if (m_hooks.registered)
                m_hooks.registered(slug);
        }
        if (answer.value("cancelled", false)) {
            (void)m_outbox.setCancelled(run.runUid);
            if (m_hooks.cancelled)
                m_hooks.cancelled();
        }
        if (auto marked = m_outbox.markSent(head.id, response.body.substr(0, 4096)); !marked)
            return storeError(marked.error());
        return {StepResult::Delivered, milliseconds(0), {}};
    }
    case Outcome::Unauthorized:
        return unauthorized(head.id, run.runUid, response);
    case Outcome::Reject:
        return reject(head.id, run.runUid, response, head.event + " " + head.eventId());
    case Outcome::Retry:
        break;
    }
    return retry(Lane::Event, head.id, run.runUid, response);
}

Step OutboxSender::deliverUpload(const RemoteRun& run) {
    auto rows = m_outbox.pending(run.runUid, Lane::Upload, 1);
    if (!rows)
        return storeError(rows.error());
    if (rows->empty())
        return {StepResult::Idle, milliseconds(0), {}};
    const OutboxRow row = rows->front();
    // Weights follow the events queued before them, so the platform has registered the run first.
    auto earlier = m_outbox.hasPendingBefore(run.runUid, Lane::Event, row.id);
    if (!earlier)
        return storeError(earlier.error());
    if (*earlier)
        return {StepResult::Blocked, milliseconds(200), "waiting for earlier events"};

    const json data = parseObject(row.dataJson);
    const std::filesystem::path file = stringField(data, "path");
    std::error_code ec;
    if (file.empty() || !std::filesystem::is_regular_file(file, ec)) {
        const std::string message = "upload of " + file.string() + " failed: the file does not exist";
        (void)m_outbox.markFailed(row.id, 0, message);
        (void)m_outbox.setLastError(run.runUid, message);
        if (m_hooks.uploadFinished)
            m_hooks.uploadFinished(false);
        return {StepResult::Rejected, milliseconds(0), message};
    }
    json request = {{"filename", file.filename().string()}, {"runId", run.remoteRunId}};
    if (!run.modelId.empty()) {
        request["modelId"] = run.modelId;
    } else {
        request["project"] = run.project;
        request["name"] = run.name;
    }
    const auto urlResponse = m_client.requestUploadUrl(request.dump());
    switch (classify(urlResponse)) {
    case Outcome::Success:
        break;
    case Outcome::Unauthorized:
        return unauthorized(row.id, run.runUid, urlResponse);
    case Outcome::Reject: {
        auto step =
            reject(row.id, run.runUid, urlResponse, "upload URL request for " + file.filename().string());
        if (m_hooks.uploadFinished)
            m_hooks.uploadFinished(false);
        return step;
    }
    case Outcome::Retry:
        return retry(Lane::Upload, row.id, run.runUid, urlResponse);
    }
    const json answer = parseObject(urlResponse.body);
    const std::string uploadUrl = stringField(answer, "uploadUrl");
    if (uploadUrl.empty()) {
        auto step = reject(row.id, run.runUid, urlResponse, "upload URL answer without uploadUrl");
        if (m_hooks.uploadFinished)
            m_hooks.uploadFinished(false);
        return step;
    }
    const auto put = m_client.putFile(uploadUrl, file, m_hooks.uploadProgress);
    const auto outcome = classify(put.response);
    if (outcome == Outcome::Retry)
        return retry(Lane::Upload, row.id, run.runUid, put.response);
    if (outcome != Outcome::Success) {
        auto step = reject(row.id, run.runUid, put.response, "upload of " + file.filename().string());
        if (m_hooks.uploadFinished)
            m_hooks.uploadFinished(false);
        return step;
    }
    m_failures[1] = 0;
    const json result = {{"gcsPath", answer.value("gcsPath", json(nullptr))},
                         {"uploadPath", answer.value("uploadPath", json(nullptr))},
                         {"sha256", put.sha256},
                         {"size", put.sizeBytes}};
    const json saved = {{"modelPath", result["gcsPath"]},
                        {"runId", run.remoteRunId.empty() ? json(nullptr) : json(run.remoteRunId)},
                        {"uploadPath", result["uploadPath"]},
                        {"kind", data.value("kind", json("last"))},
                        {"sha256", put.sha256},
                        {"size", put.sizeBytes}};
    // Marking the upload done and queueing checkpoint_saved commit together: neither is lost or doubled.
    auto committed = m_outbox.transaction([&]() -> Status {
        if (auto marked = m_outbox.markSent(row.id, result.dump()); !marked)
            return marked;
        auto queued = m_outbox.enqueue(run.runUid, Lane::Event, "checkpoint_saved", saved.dump());
        if (!queued)
            return fail(queued.error());
        // A training_complete already queued behind this upload (finish() timed out, or a sync) moves
        // after checkpoint_saved. It has never been sent (it waits for this upload), so its id is free.
        auto waiting = m_outbox.pending(run.runUid, Lane::Event, 1000000);
        if (!waiting)
            return fail(waiting.error());
        for (const auto& other : *waiting) {
            if (other.event != "training_complete" || other.id > *queued)
                continue;
            const json otherData = parseObject(other.dataJson);
            if (otherData.value("_finalUpload", std::int64_t(0)) != row.id)
                continue;
            if (auto removed = m_outbox.remove(other.id); !removed)
                return removed;
            if (auto again = m_outbox.enqueue(run.runUid, Lane::Event, other.event, other.dataJson); !again)
                return fail(again.error());
        }
        return {};
    });
    if (!committed)
        return storeError(committed.error());
    if (m_hooks.uploadFinished)
        m_hooks.uploadFinished(true);
    return {StepResult::Delivered, milliseconds(0), {}};
}

} // namespace osprey::remote
