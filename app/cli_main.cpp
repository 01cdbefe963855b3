// osprey-cli: the headless tool. Verbs live in app/cli/<verb>.cpp and register themselves.
#include "cli/verb.h"
#include "openmp_wait.h"

#include <cstring>

namespace {

/// The verbs that run long batch work on OpenMP threads. Not `predict` (and not the GUI's suggestions):
/// single-image latency is 20-35% worse with passive waits on an idle machine (bench_suggest).
bool runsBatchWork(const char* verb) {
    for (const char* name : {"train", "val", "autolabel"})
        if (std::strcmp(verb, name) == 0)
            return true;
    return false;
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1 && runsBatchWork(argv[1]))
        osprey::app::ensurePassiveOpenMpWait(argv);
    return osprey::cli::runCli(argc, argv);
}
