// osprey-cli runs list project=P [json=false]
// osprey-cli runs diff project=P a=RUN b=RUN|current [json=false] [limit=20]
#include "cli/runs_diff_output.h"
#include "cli/verb.h"
#include "project/run_info.h"
#include "quality/quality_options.h"
#include "quality/run_snapshot.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <ctime>
#include <iostream>

namespace osprey::cli {
namespace {

std::string startedText(std::int64_t seconds) {
    if (seconds <= 0)
        return "-";
    const std::time_t time = static_cast<std::time_t>(seconds);
    std::tm local{};
    localtime_r(&time, &local);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &local);
    return text;
}

std::string mapText(const std::optional<double>& value) {
    if (!value)
        return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", *value);
    return text;
}

int runRunsList(const Args& args) {
    auto project = project::Project::open(args.str("project"));
    if (!project) {
        std::cerr << "error: " << project.message() << "\n";
        return 1;
    }
    auto runs = project::listRuns(**project);
    if (!runs) {
        std::cerr << "error: " << runs.message() << "\n";
        return 1;
    }
    if (args.flag("json")) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& run : runs.value()) {
            const auto& r = run.record;
            list.push_back(
                {{"name", r.name},
                 {"status", project::toString(r.status)},
                 {"model", run.model()},
                 {"epochs", run.epochs()},
                 {"best_map50_95", r.bestFitness ? nlohmann::json(*r.bestFitness) : nlohmann::json()},
                 {"best_epoch", r.bestEpoch ? nlohmann::json(*r.bestEpoch) : nlohmann::json()},
                 {"dataset_snapshot", run.snapshotHash},
                 {"started_at", r.startedAt},
                 {"finished_at", r.finishedAt ? nlohmann::json(*r.finishedAt) : nlohmann::json()}});
        }
        std::cout << list.dump(2) << "\n";
        return 0;
    }
    if (runs->empty()) {
        std::cout << "No runs yet in " << args.str("project") << "\n";
        return 0;
    }
    std::vector<std::vector<std::string>> rows{
        {"NAME", "STATUS", "MODEL", "EPOCHS", "BEST mAP50-95", "SNAPSHOT", "STARTED"}};
    for (const auto& run : runs.value()) {
        const auto& r = run.record;
        rows.push_back({r.name, std::string(project::toString(r.status)), run.model(), run.epochs(),
                        mapText(r.bestFitness),
                        run.snapshotHash.empty() ? "-" : quality::shortHash(run.snapshotHash),
                        startedText(r.startedAt)});
    }
    printTable(rows);
    return 0;
}

/// One side of a diff: a run's snapshot and arguments, or the project now.
struct Side {
    std::string label;
    quality::DatasetSnapshot snapshot;
    std::optional<std::map<std::string, std::string>> args; ///< none for the project now
};

Expected<Side> loadSide(const project::Project& project, const std::string& name) {
    Side side;
    side.label = name;
    if (name == "current") {
        auto snapshot = quality::takeSnapshot(project);
        if (!snapshot)
            return fail(snapshot.error());
        side.snapshot = std::move(*snapshot);
        return side;
    }
    auto run = project::findRun(project, name);
    if (!run)
        return fail(run.error());
    auto snapshot = quality::loadRunSnapshot(*run);
    if (!snapshot)
        return fail(snapshot.error());
    side.snapshot = std::move(*snapshot);
    side.args = run->args;
    return side;
}

int runRunsDiff(const Args& args) {
    auto project = project::Project::open(args.str("project"));
    if (!project) {
        std::cerr << "error: " << project.message() << "\n";
        return 1;
    }
    if (args.str("a") == "current") {
        std::cerr << "error: a: give a run name (b=current compares a run with the project now)\n";
        return 1;
    }
    auto a = loadSide(**project, args.str("a"));
    if (!a) {
        std::cerr << "error: a: " << a.message() << "\n";
        return 1;
    }
    auto b = loadSide(**project, args.str("b"));
    if (!b) {
        std::cerr << "error: b: " << b.message() << "\n";
        return 1;
    }
    RunsDiff diff;
    diff.a = a->label;
    diff.b = b->label;
    diff.data = quality::diffSnapshots(a->snapshot, b->snapshot, args.number("iou"));
    diff.argsCompared = b->args.has_value();
    if (b->args) {
        // Every run has its own name: listing it would only be noise.
        a->args->erase("name");
        b->args->erase("name");
        diff.args = quality::diffArgs(*a->args, *b->args);
    }
    if (args.flag("json"))
        std::cout << diffJson(diff).dump(2) << "\n";
    else
        std::cout << diffText(diff, static_cast<int>(args.integer("limit")));
    return 0;
}

OSPREY_REGISTER_VERB(Verb{"runs list",
                          "List the project's training runs with their best mAP50-95 and dataset snapshot",
                          [] { return quality::runsListOptions(); }, runRunsList});

OSPREY_REGISTER_VERB(Verb{
    "runs diff",
    "What changed between two runs: images, boxes and classes of their dataset snapshots, and arguments",
    [] { return quality::runsDiffOptions(); }, runRunsDiff});

} // namespace
} // namespace osprey::cli
