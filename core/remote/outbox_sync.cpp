#include "remote/outbox_sync.h"

#include "remote/mlflow_sender.h"
#include "remote/outbox.h"

#include <algorithm>
#include <thread>

namespace osprey::remote {

Expected<SyncReport> syncOutbox(const std::filesystem::path& projectFolder, const SyncOptions& options) {
    const auto deadline = std::chrono::steady_clock::now() + options.timeout;
    const PlatformSettings resolved = options.settings ? *options.settings : resolveSettings();
    auto outbox = Outbox::open(projectFolder);
    if (!outbox)
        return fail(outbox.error());
    auto runs = (*outbox)->runs();
    if (!runs)
        return fail(runs.error());
    SyncReport report;
    std::int64_t done = 0;
    for (const auto& run : *runs) {
        if (!options.runUid.empty() && run.runUid != options.runUid)
            continue;
        auto counts = (*outbox)->counts(run.runUid);
        if (!counts)
            return fail(counts.error());
        if (counts->pending == 0)
            continue;
        if (run.service == Service::Platform && resolved.apiKey.empty()) {
            report.problems.push_back(run.project + "/" + run.name + " (" + run.runUid +
                                      "): no platform API key: run `osprey-cli remote login key=...` or set "
                                      "ULTRALYTICS_API_KEY");
            continue;
        }
        if (run.state == RunState::Unauthorized)
            (void)(*outbox)->setRunState(run.runUid, RunState::Active, {});
        // Each run goes where it was recorded for: the platform, or an MLflow server.
        PlatformSettings settings = resolved;
        settings.baseUrl = run.baseUrl;
        PlatformClient client(settings, options.client);
        MlflowClient mlflow(run.baseUrl, options.client);
        OutboxSender platformSender(**outbox, client, options.retry);
        MlflowSender mlflowSender(**outbox, mlflow, options.retry);
        RowSender& sender = run.service == Service::Mlflow ? static_cast<RowSender&>(mlflowSender)
                                                           : static_cast<RowSender&>(platformSender);
        std::int64_t queued = counts->pending;
        std::string problem;
        while (problem.empty()) {
            if (std::chrono::steady_clock::now() >= deadline) {
                problem = "timed out";
                break;
            }
            // Round-robin: an upload may wait for earlier events, and training_complete for the upload.
            std::chrono::milliseconds wait{0};
            bool idle = true, progressed = false;
            for (Lane lane : {Lane::Event, Lane::Upload}) {
                const Step step = sender.deliverNext(run.runUid, lane, OutboxSender::FlushConsole::Now);
                switch (step.result) {
                case StepResult::Delivered:
                case StepResult::Rejected:
                    (step.result == StepResult::Delivered ? report.delivered : report.rejected) += 1;
                    progressed = true;
                    idle = false;
                    --queued;
                    ++done;
                    if (options.progress)
                        options.progress(done, std::max<std::int64_t>(queued, 0));
                    break;
                case StepResult::Unauthorized:
                    problem = step.message;
                    break;
                case StepResult::Idle:
                    break;
                default:
                    idle = false;
                    wait = wait.count() == 0 ? step.wait : std::min(wait, step.wait);
                    break;
                }
                if (!problem.empty())
                    break;
            }
            if (idle)
                break;
            if (!progressed && wait.count() > 0) {
                const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now());
                std::this_thread::sleep_for(std::min(wait, std::max(left, std::chrono::milliseconds(0))));
            }
        }
        if (!problem.empty())
            report.problems.push_back(run.project + "/" + run.name + " (" + run.runUid + "): " + problem);
        else
            (void)(*outbox)->setRunState(run.runUid, RunState::Closed, {});
    }
    auto counts = (*outbox)->counts(options.runUid);
    if (!counts)
        return fail(counts.error());
    report.remaining = counts->pending;
    return report;
}

} // namespace osprey::remote
