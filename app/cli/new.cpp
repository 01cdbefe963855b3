// osprey-cli new path=DIR: creates an empty project.
#include "cli/verb.h"
#include "project/project.h"
#include "project/project_options.h"

#include <iostream>

namespace osprey::cli {
namespace {

int runNew(const Args& args) {
    auto project = project::Project::create(args.str("path"));
    if (!project) {
        std::cerr << "error: " << project.message() << "\n";
        return 1;
    }
    std::cout << "Created project " << (*project)->folder().string() << "\n";
    return 0;
}

OSPREY_REGISTER_VERB(Verb{"new", "Create an empty project folder",
                          [] { return project::newProjectOptions(); }, runNew});

} // namespace
} // namespace osprey::cli
