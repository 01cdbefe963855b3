// osprey-cli runs push RUN project=P [mlflow=URI] [mlflow_experiment=NAME] [again=false]: logs a finished
// (or older) run to an MLflow tracking server afterwards, from its run folder: events.jsonl replayed
// through the same tracker a live run uses (remote/mlflow_tracker.h), then its weights and files. A run
// whose earlier push (or live logging) left records queued is completed instead of logged twice.
#include "cli/progress.h"
#include "cli/verb.h"
#include "project/run_info.h"
#include "remote/mlflow_client.h"
#include "remote/mlflow_sender.h"
#include "remote/mlflow_tracker.h"
#include "remote/outbox.h"
#include "remote/outbox_sync.h"
#include "remote/remote_options.h"
#include "run/events_tail.h"
#include "run/run_folder.h"
#include "run/train_events.h"

#include <atomic>
#include <iostream>
#include <thread>

namespace osprey::cli {
namespace {

namespace fs = std::filesystem;

fs::path comparable(const fs::path& path) {
    std::error_code ec;
    auto resolved = fs::weakly_canonical(path, ec);
    return ec ? fs::absolute(path).lexically_normal() : resolved;
}

int runRunsPush(const Args& args) {
    if (args.positional().size() != 1) {
        std::cerr << "error: give the run: osprey-cli runs push RUN project=P mlflow=URI\n";
        return 2;
    }
    const fs::path projectFolder = args.str("project");
    auto dir = project::findRunFolder(projectFolder, args.positional().front());
    if (!dir) {
        std::cerr << "error: " << dir.message() << "\n";
        return 2;
    }
    const std::string given = remote::resolveTrackingUri(args.str("mlflow"));
    if (given.empty()) {
        std::cerr << "error: mlflow: give the tracking server as mlflow=http://host:port (or set "
                  << remote::kMlflowUriEnv << ")\n";
        return 2;
    }
    auto uri = remote::checkTrackingUri(given);
    if (!uri) {
        std::cerr << "error: " << uri.message() << "\n";
        return 2;
    }
    const fs::path events = run::RunFolder(*dir).events();
    auto lines = run::EventsTail(events).read(run::EventsTail::Partial::Take);
    if (!lines) {
        std::cerr << "error: " << events.string() << ": cannot read the run's events\n";
        return 1;
    }

    // An earlier push or live logging of this run to this server: finish it rather than log it twice.
    auto outbox = remote::Outbox::open(projectFolder);
    if (!outbox) {
        std::cerr << "error: " << outbox.message() << "\n";
        return 1;
    }
    auto known = (*outbox)->runs();
    if (!known) {
        std::cerr << "error: " << known.message() << "\n";
        return 1;
    }
    // Records still queued come first; a run logged completely is not logged a second time.
    const remote::RemoteRun* queued = nullptr;
    const remote::RemoteRun* logged = nullptr;
    for (const auto& earlier : *known) {
        if (earlier.service != remote::Service::Mlflow || earlier.baseUrl != *uri ||
            comparable(earlier.localRun) != comparable(*dir))
            continue;
        auto counts = (*outbox)->counts(earlier.runUid);
        if (!counts)
            continue;
        if (counts->pending > 0 && !queued)
            queued = &earlier;
        else if (counts->pending == 0 && counts->sent > 0 && !earlier.remoteRunId.empty())
            logged = &earlier;
    }
    if (queued) {
        std::cerr << "Sending what is still queued of this run's earlier logging to " << *uri << "...\n";
        remote::SyncOptions options;
        options.runUid = queued->runUid;
        options.timeout = std::chrono::milliseconds(static_cast<long long>(args.number("timeout") * 1000));
        ProgressBar bar("MLflow");
        options.progress = [&bar](std::int64_t done, std::int64_t left) { bar.update(done, done + left); };
        auto report = remote::syncOutbox(projectFolder, options);
        if (!report) {
            std::cerr << "error: " << report.message() << "\n";
            return 1;
        }
        bar.finish();
        for (const auto& problem : report->problems)
            std::cerr << "error: " << problem << "\n";
        auto after = (*outbox)->run(queued->runUid);
        const bool complete = report->problems.empty() && report->remaining == 0;
        if (complete && after && *after)
            std::cout << "Logged: " << remote::mlflowRunUrl(*uri, (*after)->modelId, (*after)->remoteRunId)
                      << "\n";
        else if (!complete)
            std::cerr << "error: " << report->remaining << " record(s) are still queued; run this again when "
                      << *uri << " answers\n";
        return complete ? 0 : 1;
    }
    if (logged && !args.flag("again")) {
        std::cout << "Already logged to " << *uri << ": "
                  << remote::mlflowRunUrl(*uri, logged->modelId, logged->remoteRunId)
                  << " (again=true logs it as a new MLflow run)\n";
        return 0;
    }

    remote::TrackerOptions options;
    options.projectFolder = projectFolder;
    options.uri = *uri;
    options.experiment = args.str("mlflow_experiment");
    options.fallbackStatus = "KILLED"; // a run without a finished or failed event ended without saying so
    options.finishTimeout = std::chrono::milliseconds(static_cast<long long>(args.number("timeout") * 1000));
    options.note = [](bool problem, const std::string& line) {
        std::cerr << (problem ? "warning: " : "") << line << "\n";
    };
    auto tracker = remote::MlflowTracker::start(std::move(options));
    if (!tracker) {
        std::cerr << "error: " << tracker.message() << "\n";
        return 1;
    }
    int replayed = 0;
    for (const auto& line : *lines) {
        if (line.text.empty())
            continue;
        if (!line.event) {
            if (line.error.code != "unknown_type")
                std::cerr << "warning: " << events.string() << ":" << line.number
                          << ": skipped: " << line.error.message << "\n";
            continue;
        }
        (*tracker)->handleEvent(*line.event);
        ++replayed;
    }
    if ((*tracker)->runUid().empty()) {
        std::cerr << "error: " << events.string() << ": no run_started event, so there is no run to log\n";
        return 1;
    }
    std::atomic<bool> done{false};
    std::thread progress([&] {
        ProgressBar bar("MLflow");
        while (!done) {
            const auto status = (*tracker)->status();
            bar.update(status.delivered + status.failed, status.delivered + status.failed + status.queued);
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
        const auto status = (*tracker)->status();
        bar.update(status.delivered + status.failed, status.delivered + status.failed + status.queued);
        bar.finish();
    });
    const Status finished = (*tracker)->finish();
    done = true;
    progress.join();
    if (!finished) {
        std::cerr << "error: " << finished.message() << "\n";
        return 1;
    }
    const auto status = (*tracker)->status();
    std::cout << "Logged " << replayed << " events (" << status.delivered << " records";
    if (status.failed > 0)
        std::cout << ", " << status.failed << " rejected: " << status.lastError;
    std::cout << "): " << status.runUrl << "\n";
    return status.failed == 0 ? 0 : 1;
}

OSPREY_REGISTER_VERB(Verb{
    "runs push",
    "Log a finished or older run to an MLflow tracking server: runs push RUN project=P mlflow=URI",
    [] { return remote::runsPushOptions(); }, runRunsPush, 1});

} // namespace
} // namespace osprey::cli
