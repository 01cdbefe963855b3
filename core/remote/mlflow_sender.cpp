#include "remote/mlflow_sender.h"

#include "common/log.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

namespace osprey::remote {
namespace {

using nlohmann::json;
using std::chrono::milliseconds;

constexpr const char* kRunUidTag = "osprey.run_uid";

json parseObject(const std::string& text) {
    auto value = json::parse(text, nullptr, false);
    return value.is_object() ? value : json::object();
}

std::string nestedString(const json& object, std::initializer_list<const char*> keys) {
    const json* at = &object;
    for (const char* key : keys) {
        if (!at->is_object() || !at->contains(key))
            return {};
        at = &(*at)[key];
    }
    return at->is_string() ? at->get<std::string>() : std::string();
}

} // namespace

std::string mlflowRunUrl(const std::string& uri, const std::string& experimentId, const std::string& runId) {
    return uri + "/#/experiments/" + experimentId + "/runs/" + runId;
}

MlflowSender::MlflowSender(Outbox& outbox, MlflowClient& client, RetryPolicy policy)
    : m_outbox(outbox), m_client(client), m_backoff(policy) {}

Step MlflowSender::failure(const RemoteRun& run, const OutboxRow& row, const HttpResponse& response,
                           const std::string& what) {
    const std::string detail = describe(response);
    switch (classifyMlflow(response)) {
    case MlflowOutcome::Refused:
    case MlflowOutcome::NotMlflow: {
        const bool refused = classifyMlflow(response) == MlflowOutcome::Refused;
        const std::string reason =
            refused ? "the MLflow server at " + m_client.uri() + " refused the login (HTTP " +
                          std::to_string(response.status) +
                          "); set MLFLOW_TRACKING_USERNAME and MLFLOW_TRACKING_PASSWORD (or "
                          "MLFLOW_TRACKING_TOKEN) "
                          "and send the run again with `osprey-cli runs push`; its records stay queued"
                    : m_client.uri() + " is not an MLflow tracking server (" + what + " answered " + detail +
                          "); its records stay queued: send them with `osprey-cli runs push RUN project=P "
                          "mlflow=URI`";
        (void)m_outbox.noteAttempt(row.id, static_cast<int>(response.status), detail);
        (void)m_outbox.setRunState(run.runUid, RunState::Unauthorized, reason);
        return {StepResult::Unauthorized, milliseconds(0), reason};
    }
    case MlflowOutcome::Reject: {
        const std::string message = "MLflow " + what + " rejected: " + detail;
        (void)m_outbox.markFailed(row.id, static_cast<int>(response.status), message);
        (void)m_outbox.setLastError(run.runUid, message);
        return {StepResult::Rejected, milliseconds(0), message};
    }
    case MlflowOutcome::Retry:
    case MlflowOutcome::Success:
        break;
    }
    ++m_failures;
    milliseconds wait = m_backoff.delay(m_failures);
    if (response.retryAfterS)
        wait = std::min(milliseconds(static_cast<long long>(*response.retryAfterS * 1000.0)),
                        m_backoff.policy().retryAfterCap);
    const std::string message = "MLflow server " + m_client.uri() + ": " + detail + " (attempt " +
                                std::to_string(m_failures) + ", retrying in " + std::to_string(wait.count()) +
                                " ms)";
    (void)m_outbox.noteAttempt(row.id, static_cast<int>(response.status), detail);
    (void)m_outbox.setLastError(run.runUid, message);
    return {StepResult::RetryLater, wait, message};
}

Step MlflowSender::deliverNext(const std::string& runUid, Lane lane, FlushConsole) {
    if (lane != Lane::Event)
        return {StepResult::Idle, milliseconds(0), {}};
    RemoteRun run;
    if (auto step = loadRun(m_outbox, runUid, run))
        return *step;
    auto rows = m_outbox.pending(runUid, Lane::Event, 1);
    if (!rows)
        return storeError(rows.error());
    if (rows->empty())
        return {StepResult::Idle, milliseconds(0), {}};
    const OutboxRow& row = rows->front();
    if (row.event == "create_run")
        return createRun(run, row);
    if (run.remoteRunId.empty()) {
        // Only possible when the create_run row failed for good: nothing can be logged to no run.
        const std::string message = "MLflow " + row.event + ": the run was never created on the server";
        (void)m_outbox.markFailed(row.id, 0, message);
        return {StepResult::Rejected, milliseconds(0), message};
    }
    if (row.event == "artifact")
        return uploadArtifact(run, row);

    json body = parseObject(row.dataJson);
    body["run_id"] = run.remoteRunId;
    std::string endpoint;
    if (row.event == "log_batch") {
        endpoint = "runs/log-batch";
    } else if (row.event == "log_inputs") {
        endpoint = "runs/log-inputs";
    } else if (row.event == "update_run") {
        endpoint = "runs/update";
        if (body.contains("endTime")) // none while a resumed run is RUNNING again
            body["end_time"] = body["endTime"];
        body.erase("endTime");
    } else {
        const std::string message = "MLflow: unknown queued call '" + row.event + "'";
        (void)m_outbox.markFailed(row.id, 0, message);
        return {StepResult::Rejected, milliseconds(0), message};
    }
    const auto response = m_client.post(endpoint, body.dump());
    if (classifyMlflow(response) != MlflowOutcome::Success)
        return failure(run, row, response, endpoint);
    m_failures = 0;
    if (auto marked = m_outbox.markSent(row.id, response.body.substr(0, 4096)); !marked)
        return storeError(marked.error());
    return {StepResult::Delivered, milliseconds(0), {}};
}

Step MlflowSender::createRun(const RemoteRun& run, const OutboxRow& row) {
    const json data = parseObject(row.dataJson);
    std::string experimentId = run.modelId;
    if (experimentId.empty()) {
        const std::string name = data.value("experiment", std::string("Default"));
        auto found = m_client.get("experiments/get-by-name?experiment_name=" + urlEncode(name));
        if (classifyMlflow(found) == MlflowOutcome::Success) {
            const json answer = parseObject(found.body);
            experimentId = nestedString(answer, {"experiment", "experiment_id"});
            if (nestedString(answer, {"experiment", "lifecycle_stage"}) == "deleted") {
                // MLflow refuses runs in a deleted experiment; the user restores it or picks another.
                const std::string reason =
                    "the experiment '" + name + "' was deleted on " + m_client.uri() +
                    "; restore it there (MLflow UI, or `mlflow experiments restore --experiment-id " +
                    experimentId +
                    "`) and send the run with `osprey-cli runs push`, or train with another "
                    "mlflow_experiment=; the run's records stay queued";
                (void)m_outbox.noteAttempt(row.id, static_cast<int>(found.status), "experiment deleted");
                (void)m_outbox.setRunState(run.runUid, RunState::Unauthorized, reason);
                return {StepResult::Unauthorized, milliseconds(0), reason};
            }
        } else if (found.status == 404 && mlflowErrorCode(found) == "RESOURCE_DOES_NOT_EXIST") {
            auto created = m_client.post("experiments/create", json{{"name", name}}.dump());
            if (classifyMlflow(created) != MlflowOutcome::Success)
                return failure(run, row, created, "creating the experiment '" + name + "'");
            experimentId = nestedString(parseObject(created.body), {"experiment_id"});
        } else {
            return failure(run, row, found, "looking up the experiment '" + name + "'");
        }
        if (experimentId.empty())
            return failure(run, row, {Transport::Ok, 404, {}, {}, {}}, "the experiment answer");
        if (auto stored = m_outbox.setRunIds(run.runUid, experimentId, {}, {}); !stored)
            return storeError(stored.error());
    }
    std::string runId = run.remoteRunId;
    if (runId.empty()) {
        const json search = {{"experiment_ids", {experimentId}},
                             {"filter", std::string("tags.`") + kRunUidTag + "` = '" + run.runUid + "'"},
                             {"max_results", 1}};
        auto existing = m_client.post("runs/search", search.dump());
        if (classifyMlflow(existing) != MlflowOutcome::Success)
            return failure(run, row, existing, "runs/search");
        const json found = parseObject(existing.body);
        if (found.contains("runs") && found["runs"].is_array() && !found["runs"].empty())
            runId = nestedString(found["runs"][0], {"info", "run_id"});
    }
    if (runId.empty()) {
        json tags = data.value("tags", json::array());
        tags.push_back({{"key", kRunUidTag}, {"value", run.runUid}});
        const json request = {{"experiment_id", experimentId},
                              {"run_name", data.value("runName", run.name)},
                              {"start_time", data.value("startTime", json(0))},
                              {"tags", tags}};
        auto created = m_client.post("runs/create", request.dump());
        if (classifyMlflow(created) != MlflowOutcome::Success)
            return failure(run, row, created, "runs/create");
        runId = nestedString(parseObject(created.body), {"run", "info", "run_id"});
        if (runId.empty())
            return failure(run, row, {Transport::Ok, 404, {}, {}, {}}, "the runs/create answer");
    }
    m_failures = 0;
    auto committed = m_outbox.transaction([&]() -> Status {
        if (auto stored = m_outbox.setRunIds(run.runUid, experimentId, runId, {}); !stored)
            return stored;
        return m_outbox.markSent(row.id, json{{"experiment_id", experimentId}, {"run_id", runId}}.dump());
    });
    if (!committed)
        return storeError(committed.error());
    return {StepResult::Delivered, milliseconds(0), {}};
}

Step MlflowSender::uploadArtifact(const RemoteRun& run, const OutboxRow& row) {
    const json data = parseObject(row.dataJson);
    const std::filesystem::path file = data.value("path", std::string());
    const std::string artifactPath = data.value("artifactPath", file.filename().string());
    std::error_code ec;
    if (file.empty() || !std::filesystem::is_regular_file(file, ec)) {
        const std::string message = "MLflow artifact " + file.string() + ": the file does not exist";
        (void)m_outbox.markFailed(row.id, 0, message);
        (void)m_outbox.setLastError(run.runUid, message);
        return {StepResult::Rejected, milliseconds(0), message};
    }
    if (m_artifactRunId != run.remoteRunId) {
        auto got = m_client.get("runs/get?run_id=" + urlEncode(run.remoteRunId));
        if (classifyMlflow(got) != MlflowOutcome::Success)
            return failure(run, row, got, "runs/get");
        const std::string uri = nestedString(parseObject(got.body), {"run", "info", "artifact_uri"});
        constexpr std::string_view kProxy = "mlflow-artifacts:";
        if (uri.rfind(kProxy, 0) != 0) {
            const std::string message =
                "MLflow artifact " + artifactPath + ": the server keeps this run's artifacts at " + uri +
                ", which only its own clients write; start the server with artifact serving (the default of "
                "`mlflow server` since 2.0, --artifacts-destination) to receive artifacts from Osprey";
            (void)m_outbox.markFailed(row.id, 0, message);
            (void)m_outbox.setLastError(run.runUid, message);
            return {StepResult::Rejected, milliseconds(0), message};
        }
        std::string root = uri.substr(kProxy.size());
        // mlflow-artifacts:/1/abc/artifacts or mlflow-artifacts://host/1/abc/artifacts
        if (root.rfind("//", 0) == 0)
            root = root.substr(std::min(root.size(), root.find('/', 2)));
        while (!root.empty() && root.front() == '/')
            root.erase(root.begin());
        m_artifactRunId = run.remoteRunId;
        m_artifactRoot = root;
    }
    const auto put = m_client.putArtifact(m_artifactRoot + "/" + artifactPath, file);
    if (classifyMlflow(put.response) != MlflowOutcome::Success)
        return failure(run, row, put.response, "artifact upload of " + artifactPath);
    m_failures = 0;
    const json result = {{"artifactPath", artifactPath}, {"sha256", put.sha256}, {"size", put.sizeBytes}};
    if (auto marked = m_outbox.markSent(row.id, result.dump()); !marked)
        return storeError(marked.error());
    return {StepResult::Delivered, milliseconds(0), {}};
}

} // namespace osprey::remote
