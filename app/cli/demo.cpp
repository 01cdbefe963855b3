// osprey-cli demo path=DIR: generates the built-in synthetic shapes dataset as a new project.
#include "cli/progress.h"
#include "cli/verb.h"
#include "demo/demo_dataset.h"
#include "demo/demo_options.h"

#include <chrono>
#include <iostream>

namespace osprey::cli {
namespace {

int runDemo(const Args& args) {
    demo::DemoOptions options;
    options.images = static_cast<int>(args.integer("images"));
    options.imageSizePx = static_cast<int>(args.integer("imgsz"));
    options.seed = static_cast<std::uint64_t>(args.integer("seed"));
    ProgressBar bar("Generating demo");
    const auto start = std::chrono::steady_clock::now();
    const auto status = demo::createDemoProject(args.str("path"), options, [&](int done, int total) {
        bar.update(done, total);
        return true;
    });
    if (!status) {
        std::cerr << "\nerror: " << status.message() << "\n";
        return 1;
    }
    bar.finish();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "Created demo project " << args.str("path") << ": " << options.images << " images of "
              << options.imageSizePx << " px, 4 classes, 80/20 train/val split, in " << seconds << " s\n";
    return 0;
}

OSPREY_REGISTER_VERB(Verb{"demo", "Generate the built-in demo project (synthetic shapes dataset)",
                          [] { return demo::demoOptions(); }, runDemo});

} // namespace
} // namespace osprey::cli
