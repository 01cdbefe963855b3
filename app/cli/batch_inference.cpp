#include "cli/batch_inference.h"

#include "assist/inference_threads.h"

#include <algorithm>
#include <atomic>
#include <csignal>

namespace osprey::cli {

namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void onBatchInterrupt(int) {
    g_interrupted = true;
}

} // namespace

int setUpInferenceWorkers(const Args& args, const assist::BoxPredictor* predictor) {
    const int workers = args.integer("workers") > 0
                            ? static_cast<int>(args.integer("workers"))
                            : assist::defaultInferenceWorkers(predictor, args.str("device"));
    assist::setInferenceThreads(args.integer("threads") > 0 ? static_cast<int>(args.integer("threads"))
                                                            : std::max(1, assist::machineCores() / workers));
    return workers;
}

InterruptScope::InterruptScope() {
    g_interrupted = false;
    std::signal(SIGINT, onBatchInterrupt);
}

InterruptScope::~InterruptScope() {
    std::signal(SIGINT, SIG_DFL);
}

bool InterruptScope::requested() const {
    return g_interrupted.load();
}

} // namespace osprey::cli
