#pragma once
// What the batch inference verbs (autolabel, select) share: workers= and threads= turned into inference
// workers and compute threads, and a run under a progress bar that Ctrl+C stops after the current batch.

#include "cli/progress.h"
#include "cli/verb.h"
#include "common/expected.h"

#include <functional>
#include <iostream>
#include <string>

namespace osprey::assist {
class BoxPredictor;
}

namespace osprey::cli {

/// Sets up the workers (workers=, or the predictor's default where it is 0; `predictor` may be null) and
/// each one's compute threads (threads=, or the machine's cores shared out), process-wide. Returns the
/// workers.
int setUpInferenceWorkers(const Args& args, const assist::BoxPredictor* predictor);

/// While it lives, Ctrl+C sets requested() instead of ending the program; the default comes back after.
class InterruptScope {
public:
    InterruptScope();
    ~InterruptScope();
    InterruptScope(const InterruptScope&) = delete;
    InterruptScope& operator=(const InterruptScope&) = delete;
    bool requested() const;
};

/// (done, total) -> whether to go on.
using BatchProgress = std::function<bool(int done, int total)>;

/// Runs `work` under a progress bar labelled `label`; Ctrl+C asks it to stop after the current batch. Ends
/// the bar ("failed", "interrupted" or "done") and prints the error, or the report's warnings, on stderr.
template <typename Report, typename Work>
Expected<Report> runInterruptible(const std::string& label, Work&& work) {
    ProgressBar bar(label);
    Expected<Report> report = [&] {
        InterruptScope interrupt;
        return work(BatchProgress([&](int done, int total) {
            bar.update(done, total);
            return !interrupt.requested();
        }));
    }();
    if (!report) {
        bar.finish("failed");
        std::cerr << "error: " << report.message() << "\n";
        return report;
    }
    bar.finish(report->cancelled ? "interrupted" : "done");
    for (const auto& warning : report->warnings)
        std::cerr << "warning: " << warning << "\n";
    return report;
}

} // namespace osprey::cli
