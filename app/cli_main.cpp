// osprey-cli: the headless tool. Verbs live in app/cli/<verb>.cpp and register themselves.
#include "cli/verb.h"
#include "openmp_wait.h"

#include <cstring>

namespace {

/// The verbs that run networks on OpenMP threads.
bool runsNetworks(const char* verb) {
    for (const char* name : {"train", "val", "predict", "autolabel"})
        if (std::strcmp(verb, name) == 0)
            return true;
    return false;
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1 && runsNetworks(argv[1]))
        osprey::app::ensurePassiveOpenMpWait(argv);
    return osprey::cli::runCli(argc, argv);
}
