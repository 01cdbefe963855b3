// osprey-cli: the headless tool. Verbs live in app/cli/<verb>.cpp and register themselves.
#include "cli/verb.h"
#include "malloc_policy.h"
#include "openmp_wait.h"

#include <cstring>

namespace {

/// The verbs that run long batch work on OpenMP threads, allocating the same large tensors again and again.
/// Not `predict` (and not the GUI's suggestions): single-image work keeps the defaults.
bool runsBatchWork(const char* verb) {
    for (const char* name : {"train", "val", "autolabel"})
        if (std::strcmp(verb, name) == 0)
            return true;
    return false;
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1 && runsBatchWork(argv[1])) {
        osprey::app::chooseOpenMpWait(argv);
        osprey::app::keepFreedMemory();
    }
    return osprey::cli::runCli(argc, argv);
}
