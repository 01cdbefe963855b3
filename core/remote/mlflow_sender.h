#pragma once
// MlflowSender: delivers the queued rows of one MLflow run (Outbox service "mlflow"), oldest first, one
// REST call per row (an artifact row: one PUT), with the platform sender's retry policy. Rows and what
// they become:
//   create_run  {experiment, runName, startTime, tags}  the experiment is found by name or created; the
//               run is looked up by its `osprey.run_uid` tag before it is created, so a replay after a
//               lost answer never makes a second run
//   log_batch   {metrics, params, tags}                 runs/log-batch; each metric carries the timestamp
//               fixed when it was queued, so a replay is a duplicate MLflow's store ignores
//   log_inputs  {datasets}                              runs/log-inputs
//   artifact    {path, artifactPath}                    PUT through the artifact proxy (idempotent)
//   update_run  {status, endTime}                       runs/update
// A refused login (401/403) or an address that is not an MLflow server stops the run (RunState
// Unauthorized, the reason in last_error; its rows stay queued); another 4xx fails that row and goes on;
// 5xx, timeouts and connection errors are retried.
//
// Thread affinity: one object per thread; it borrows an Outbox and owns its client.

#include "remote/mlflow_client.h"
#include "remote/outbox_sender.h"

#include <functional>
#include <string>

namespace osprey::remote {

class MlflowSender : public RowSender {
public:
    MlflowSender(Outbox& outbox, MlflowClient& client, RetryPolicy policy = {});

    /// Only Lane::Event carries MLflow rows; `flush` does not apply.
    Step deliverNext(const std::string& runUid, Lane lane,
                     FlushConsole flush = FlushConsole::WhenDue) override;

private:
    Step createRun(const RemoteRun& run, const OutboxRow& row);
    Step uploadArtifact(const RemoteRun& run, const OutboxRow& row);
    /// The step for an answer that is not a success.
    Step failure(const RemoteRun& run, const OutboxRow& row, const HttpResponse& response,
                 const std::string& what);

    Outbox& m_outbox;
    MlflowClient& m_client;
    Backoff m_backoff;
    int m_failures = 0;
    std::string m_artifactRunId, m_artifactRoot; ///< the run whose artifact URI was asked, and its proxy path
};

/// The link to a run in the MLflow UI.
std::string mlflowRunUrl(const std::string& uri, const std::string& experimentId, const std::string& runId);

} // namespace osprey::remote
