// osprey-cli: the headless tool. Verbs live in app/cli/<verb>.cpp and register themselves.
#include "cli/verb.h"

int main(int argc, char** argv) {
    return osprey::cli::runCli(argc, argv);
}
