// osprey-cli plan project=P model=yolov8s epochs=100 imgsz=640 [batch=16] [json=true]: which GPU, how long,
// how much (core/planner). Also `plan gpus` (list, set, remove catalogue entries) and `plan breakeven`.
// `plan calibrate` lives in plan_calibrate.cpp.
#include "cli/verb.h"
#include "common/strings.h"
#include "planner/break_even.h"
#include "planner/estimate_plan.h"
#include "planner/planner_options.h"
#include "planner/planner_paths.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

namespace osprey::cli {
namespace {

int runPlan(const Args& args) {
    const auto catalogue = planner::loadCatalogue(planner::userCataloguePath());
    if (!catalogue) {
        std::cerr << "error: " << catalogue.message() << "\n";
        return 1;
    }
    planner::PlanInputs in;
    in.catalogue = *catalogue;
    planner::Workload& w = in.workload;
    if (auto status = planner::setModel(w, args.str("model")); !status) {
        std::cerr << "error: " << status.message() << "\n";
        return 2;
    }
    if (args.has("project")) {
        if (auto status = planner::readProjectDataset(args.str("project"), w); !status) {
            std::cerr << "error: " << status.message() << "\n";
            return 1;
        }
    }
    if (args.given("images"))
        w.trainImages = args.integer("images");
    if (args.given("val_images"))
        w.valImages = args.integer("val_images");
    if (!args.has("project") && !args.given("images")) {
        std::cerr << "error: give project=P or images=N (train images; val_images=M for validation)\n";
        return 2;
    }
    w.epochs = static_cast<int>(args.integer("epochs"));
    w.imgsz = static_cast<int>(args.integer("imgsz"));
    w.batch = static_cast<int>(args.integer("batch"));
    if (w.epochs < 1 || w.imgsz < 32 || w.imgsz % 32 != 0 || w.batch < 1) {
        std::cerr << "error: epochs and batch must be >= 1 and imgsz a multiple of 32\n";
        return 2;
    }
    const auto points = planner::loadMeasurements(planner::measurementsPath());
    if (!points)
        std::cerr << "warning: " << points.message() << "\n";
    else
        in.measurements = *points;
    in.machine = planner::machineId();
    in.thisDevice = args.str("device");
    in.thisMachinePowerPerHour = args.number("power");
    const planner::Plan plan = planner::makePlan(in);
    std::cout << (args.flag("json") ? planner::planToJson(plan) + "\n" : planner::formatPlan(plan));
    return 0;
}

OSPREY_REGISTER_VERB(Verb{
    "plan", "Which GPU, how long and how much: time and cost of a run on this machine and each catalogue GPU",
    [] { return planner::planOptions(); }, runPlan});

// ---- plan gpus ------------------------------------------------------------------------------------

void printGpus(const planner::Catalogue& catalogue, bool json) {
    if (json) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& gpu : catalogue.gpus) {
            auto entry = nlohmann::json::parse(planner::gpuToJson(gpu));
            entry["user_edited"] = gpu.userEdited;
            list.push_back(entry);
        }
        std::cout << nlohmann::json{{"version", catalogue.version},
                                    {"updated", catalogue.updated},
                                    {"gpus", list}}
                         .dump(2)
                  << "\n";
        return;
    }
    std::printf("%-14s %-13s %-9s %6s %8s %8s %8s %8s  %s\n", "GPU", "architecture", "tier", "VRAM", "FP32",
                "BF16", "GB/s", "$/h", "price source");
    for (const auto& gpu : catalogue.gpus) {
        char price[32] = "-";
        if (gpu.pricePerHour)
            std::snprintf(price, sizeof price, "%.2f", *gpu.pricePerHour);
        std::printf("%-14s %-13s %-9s %4.0f GB %8.1f %8.1f %8.0f %8s  %s%s\n", gpu.name.c_str(),
                    gpu.architecture.c_str(), planner::toString(gpu.tier), gpu.vramGb, gpu.fp32Tflops,
                    gpu.bf16Tflops, gpu.bandwidthGbs, price, gpu.userEdited ? "[edited] " : "",
                    gpu.priceDate.empty() ? gpu.priceSource.c_str()
                                          : (gpu.priceDate + ": " + gpu.priceSource).c_str());
    }
    std::printf("\nFigures are dense (no sparsity), TFLOP/s. Your edits: %s\n",
                planner::userCataloguePath().c_str());
}

int runGpus(const Args& args) {
    const std::string action = args.positional().empty() ? "list" : args.positional().front();
    const auto path = planner::userCataloguePath();
    auto catalogue = planner::loadCatalogue(path);
    if (!catalogue) {
        std::cerr << "error: " << catalogue.message() << "\n";
        return 1;
    }
    if (action == "list") {
        printGpus(*catalogue, args.flag("json"));
        return 0;
    }
    const std::string name = args.str("name");
    if (name.empty()) {
        std::cerr << "error: plan gpus " << action << " needs name=\"GPU name\"\n";
        return 2;
    }
    if (action == "remove") {
        const auto removed = planner::removeUserGpu(path, name);
        if (!removed) {
            std::cerr << "error: " << removed.message() << "\n";
            return 1;
        }
        std::cout << (*removed ? "removed your entry for " + name + " (the shipped one applies again)\n"
                               : "you have no entry named " + name + " in " + path.string() + "\n");
        return *removed ? 0 : 1;
    }
    if (action != "set") {
        std::cerr << "error: unknown action '" << action << "': use list, set or remove\n";
        return 2;
    }
    planner::GpuSpec gpu;
    if (const planner::GpuSpec* existing = catalogue->find(name))
        gpu = *existing;
    else
        gpu.name = name;
    const auto number = [&](const char* key, double& out) {
        if (args.given(key))
            out = args.number(key);
    };
    number("vram_gb", gpu.vramGb);
    number("fp32_tflops", gpu.fp32Tflops);
    number("bf16_tflops", gpu.bf16Tflops);
    number("bandwidth_gbs", gpu.bandwidthGbs);
    if (args.given("architecture"))
        gpu.architecture = args.str("architecture");
    if (args.given("tier")) {
        const std::string tier = args.str("tier");
        gpu.tier = tier == "light"   ? planner::Tier::Light
                   : tier == "heavy" ? planner::Tier::Heavy
                                     : planner::Tier::Balanced;
    }
    if (args.given("price")) {
        gpu.pricePerHour = args.number("price");
        gpu.priceSource = args.has("price_source") ? args.str("price_source") : "entered by the user";
        gpu.priceDate = args.has("price_date") ? args.str("price_date") : utcNowIso8601().substr(0, 10);
    }
    if (args.given("purchase_price"))
        gpu.purchasePrice = args.number("purchase_price");
    // Validate through the one parser before writing, so a bad value is named like in the file.
    const std::string check = std::string(R"({"version": 1, "gpus": [)") + planner::gpuToJson(gpu) + "]}";
    if (const auto parsed = planner::parseCatalogue(check, "plan gpus set"); !parsed) {
        std::cerr << "error: " << parsed.message() << "\n";
        return 2;
    }
    if (auto status = planner::saveUserGpu(path, gpu); !status) {
        std::cerr << "error: " << status.message() << "\n";
        return 1;
    }
    std::cout << "saved " << gpu.name << " in " << path.string() << "\n";
    return 0;
}

OSPREY_REGISTER_VERB(Verb{
    "plan gpus",
    "List the GPU catalogue, or set/remove your own entries: plan gpus [list|set|remove] name=...",
    [] { return planner::planGpusOptions(); }, runGpus, 1});

// ---- plan breakeven -------------------------------------------------------------------------------

int runBreakEven(const Args& args) {
    planner::BreakEvenInputs in{.hardwareCost = args.number("hardware"),
                                .powerPerHour = args.number("power"),
                                .cloudPerHour = args.number("cloud"),
                                .hoursPerDay = args.number("hours_per_day")};
    const auto result = planner::breakEven(in);
    if (!result) {
        std::cerr << "error: " << result.message() << "\n";
        return 2;
    }
    const auto allDay = planner::breakEven({in.hardwareCost, in.powerPerHour, in.cloudPerHour, 24});
    if (args.flag("json")) {
        nlohmann::json j = {{"hardware", in.hardwareCost},
                            {"power_per_hour", in.powerPerHour},
                            {"cloud_per_hour", in.cloudPerHour},
                            {"hours_per_day", in.hoursPerDay},
                            {"hours", result->hours},
                            {"hours_rounded", result->roundedHours},
                            {"months", result->months},
                            {"months_rounded", result->roundedMonths},
                            {"months_at_24h", allDay->months},
                            {"caveats", planner::breakEvenCaveats()}};
        std::cout << j.dump(2) << "\n";
        return 0;
    }
    std::printf("Break-even: $%.0f / ($%.2f/h cloud - $%.2f/h power) = %.1f h, about %.0f h of training\n",
                in.hardwareCost, in.cloudPerHour, in.powerPerHour, result->hours, result->roundedHours);
    std::printf("  at %g h/day: %.1f months; at 24 h/day: %.1f months (30-day months)\n", in.hoursPerDay,
                result->roundedMonths, allDay->roundedMonths);
    for (const auto& caveat : planner::breakEvenCaveats())
        std::printf("  - %s\n", caveat.c_str());
    return 0;
}

OSPREY_REGISTER_VERB(Verb{"plan breakeven",
                          "When buying a GPU pays off against renting one (hours and months of training)",
                          [] { return planner::planBreakEvenOptions(); }, runBreakEven});

} // namespace
} // namespace osprey::cli
