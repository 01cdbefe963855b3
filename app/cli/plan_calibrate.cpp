// osprey-cli plan calibrate model=yolov8n imgsz=640 batch=16 [device=cpu] [workers=2] [budget_s=60]:
// measures this machine's real training throughput for the planner. It trains the chosen model for two
// short epochs on a generated demo project (real decode, augmentation, forward, backward, optimiser step,
// validation and checkpoints, through the same engine as `train`), reads the throughput from the run's
// events like for any finished run, and remembers it per machine and model in the user's cache dir. The
// training runs as a child `osprey-cli train` process, exactly like a user's run.
#include "cli/verb.h"
#include "demo/demo_dataset.h"
#include "planner/estimate_plan.h"
#include "planner/planner_options.h"
#include "planner/planner_paths.h"
#include "run/events_tail.h"
#include "run/run_folder.h"
#include "run/train_config.h"
#include "run/train_events.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <iostream>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace osprey::cli {
namespace {

/// Runs `osprey-cli train ...` (this executable) as a child with stdout and stderr to /dev/null, so that
/// the calibration measures a run exactly as a user's runs happen (process start, libraries, threads).
/// After `budgetS` the child is asked to stop (SIGTERM: it finishes the batch and saves). Returns the
/// wall seconds, or a negative value when the child could not start or failed.
double runChild(const std::vector<std::string>& arguments, double budgetS) {
    std::vector<char*> argv;
    for (const auto& argument : arguments)
        argv.push_back(const_cast<char*>(argument.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    ::setenv("OSPREY_PLANNER_CALIBRATING", "1", 1);
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::unsetenv("OSPREY_PLANNER_CALIBRATING");
    if (spawned != 0)
        return -1;
    bool signalled = false;
    int status = 0;
    while (::waitpid(pid, &status, WNOHANG) == 0) {
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!signalled && elapsed > budgetS) {
            ::kill(pid, SIGTERM);
            signalled = true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const double wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? wallS : -1;
}

/// The time of the last event of a run (its `finished` line).
double lastEventS(const std::filesystem::path& eventsJsonl) {
    double last = 0;
    if (const auto lines = run::EventsTail(eventsJsonl).read(run::EventsTail::Partial::Take))
        for (const auto& line : *lines)
            if (line.event && std::isfinite(line.event->timeS))
                last = std::max(last, line.event->timeS);
    return last;
}

int runCalibrate(const Args& args) {
    run::TrainConfig config;
    config.model = args.str("model");
    config.imgsz = static_cast<int>(args.integer("imgsz"));
    config.batch = static_cast<int>(args.integer("batch"));
    config.device = args.str("device");
    config.workers = static_cast<int>(args.integer("workers"));
    config.epochs = 2;
    const int batches = std::max(1, static_cast<int>(args.integer("batches")));
    const double budgetS = args.number("budget_s");
    if (auto status = config.check(); !status) {
        std::cerr << "error: " << status.message() << "\n";
        return 2;
    }
    // Two epochs of `batches` batches each (the first warms up), plus a quarter as many val images.
    demo::DemoOptions demo;
    const int train = config.batch * batches;
    const int val = std::max(config.batch, train / 4);
    demo.images = train + val;
    demo.trainFraction = static_cast<double>(train) / demo.images;
    demo.imageSizePx = args.has("image_px") ? static_cast<int>(args.integer("image_px")) : config.imgsz;
    const auto folder = planner::plannerCacheDir() / ("calibration-" + std::to_string(::getpid()));
    std::error_code ignored;
    std::filesystem::remove_all(folder, ignored);
    if (auto status = demo::createDemoProject(folder, demo); !status) {
        std::cerr << "error: " << status.message() << "\n";
        return 1;
    }
    std::fprintf(stderr,
                 "Calibrating %s at imgsz %d, batch %d on %s: 2 epochs of %d images (budget %.0f s)\n",
                 config.model.c_str(), config.imgsz, config.batch, config.device.c_str(), train, budgetS);
    const double wallS =
        runChild({"osprey-cli", "train", "project=" + folder.string(), "model=" + config.model, "epochs=2",
                  "imgsz=" + std::to_string(config.imgsz), "batch=" + std::to_string(config.batch),
                  "device=" + config.device, "workers=" + std::to_string(config.workers), "name=calibrate",
                  "events=jsonl"},
                 budgetS);
    const auto events = run::RunFolder(folder / "runs" / "calibrate").events();
    auto point = planner::measurementFromEvents(events, planner::machineId());
    const double runClockS = lastEventS(events);
    std::filesystem::remove_all(folder, ignored);
    if (wallS < 0 || !point) {
        std::cerr << "error: the calibration run failed" << (point ? "" : ": " + point.message())
                  << " (give a larger budget_s= or a smaller batch= if it ran out of time)\n";
        return 1;
    }
    point->source = planner::MeasurementSource::Calibration;
    // What the run's own clock does not see: the process start before it, the exit after it.
    point->startupS += std::max(0.0, wallS - runClockS);
    point->note =
        "plan calibrate, " + std::to_string(train) + " train / " + std::to_string(val) + " val images";
    if (auto status = planner::recordMeasurement(planner::measurementsPath(), *point); !status) {
        std::cerr << "error: " << status.message() << "\n";
        return 1;
    }
    std::printf("%s on %s (%s), imgsz %d, batch %d: %.2f train images/s, %.2f val images/s, %.2f s per epoch "
                "besides, %.2f s start-up (calibration took %.0f s)\nRemembered in %s\n",
                point->model.c_str(), point->device.c_str(), point->machine.c_str(), point->imgsz,
                point->batch, point->trainImagesPerS, point->valImagesPerS, point->epochOverheadS,
                point->startupS, wallS, planner::measurementsPath().c_str());
    return 0;
}

OSPREY_REGISTER_VERB(Verb{
    "plan calibrate",
    "Measure this machine's training throughput for the planner (a few real training steps, <= 60 s)",
    [] { return planner::planCalibrateOptions(); }, runCalibrate});

} // namespace
} // namespace osprey::cli
