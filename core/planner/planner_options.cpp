#include "planner/planner_options.h"

#include <string>

namespace osprey::planner {

using run::OptionSpec;
using run::OptionType;

namespace {

/// The electricity cost of this machine, which the plan and the break-even share.
OptionSpec powerOption(std::string help) {
    return {.key = "power", .type = OptionType::Number, .defaultValue = "0.10", .help = std::move(help)};
}

/// The break-even's power row: the shared default, drawn in the GUI's break-even box.
OptionSpec breakEvenPower() {
    OptionSpec power =
        powerOption(OSPREY_TRANSLATE_NOOP("osprey::run::Options", "electricity per training hour, USD"));
    power.label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Power");
    power.shownIn = run::FrontEnd::Both;
    power.minimum = 0;
    power.maximum = 100;
    power.unit = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "USD/h");
    return power;
}

} // namespace

const std::vector<OptionSpec>& planOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "project",
         .type = OptionType::Path,
         .help = "project folder (train/val image counts, image size, classes)"},
        {.key = "images",
         .type = OptionType::Integer,
         .help = "train images (instead of, or overriding, the project's)"},
        {.key = "val_images", .type = OptionType::Integer, .help = "validation images (with images=)"},
        {.key = "model",
         .type = OptionType::Text,
         .defaultValue = "yolov8n",
         .help = "yolov8n|s|m|l|x or yolo11n|s|m|l|x"},
        {.key = "epochs", .type = OptionType::Integer, .defaultValue = "100", .help = "epochs"},
        {.key = "imgsz",
         .type = OptionType::Integer,
         .defaultValue = "640",
         .help = "training image side in pixels"},
        {.key = "batch",
         .type = OptionType::Integer,
         .defaultValue = "16",
         .help = "images per batch (checked against each GPU's memory)"},
        {.key = "device",
         .type = OptionType::Text,
         .defaultValue = "cpu",
         .help = "this machine's training device: cpu or its GPU's name"},
        powerOption("this machine's electricity cost per training hour, USD"),
        {.key = "json",
         .type = OptionType::Flag,
         .defaultValue = "false",
         .help = "print JSON instead of a table"},
    };
    return options;
}

const std::vector<OptionSpec>& planGpusOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "name", .type = OptionType::Text, .help = "GPU name (set, remove)"},
        {.key = "architecture", .type = OptionType::Text, .help = "architecture (set)"},
        {.key = "tier", .type = OptionType::Text, .help = "light, balanced or heavy (set)"},
        {.key = "vram_gb", .type = OptionType::Number, .help = "memory, GB (set)"},
        {.key = "fp32_tflops", .type = OptionType::Number, .help = "dense FP32 TFLOP/s (set)"},
        {.key = "bf16_tflops", .type = OptionType::Number, .help = "dense BF16 tensor TFLOP/s (set)"},
        {.key = "bandwidth_gbs", .type = OptionType::Number, .help = "memory bandwidth, GB/s (set)"},
        {.key = "price", .type = OptionType::Number, .help = "cloud price per GPU-hour, USD (set)"},
        {.key = "price_source", .type = OptionType::Text, .help = "where the price comes from (set)"},
        {.key = "price_date",
         .type = OptionType::Text,
         .help = "when it was read, YYYY-MM-DD (set; default today)"},
        {.key = "purchase_price", .type = OptionType::Number, .help = "price to buy it, USD (set)"},
        {.key = "json", .type = OptionType::Flag, .defaultValue = "false", .help = "list as JSON"},
    };
    return options;
}

const std::vector<OptionSpec>& planBreakEvenOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "hardware",
         .type = OptionType::Number,
         .defaultValue = "3000",
         .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Hardware"),
         .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "price of the machine, USD"),
         .shownIn = run::FrontEnd::Both,
         .minimum = 0,
         .maximum = 1e7,
         .unit = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "USD")},
        breakEvenPower(),
        {.key = "cloud",
         .type = OptionType::Number,
         .defaultValue = "0.89",
         .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Cloud GPU"),
         .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "cloud price per GPU-hour, USD"),
         .shownIn = run::FrontEnd::Both,
         .minimum = 0,
         .maximum = 1000,
         .unit = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "USD/h")},
        {.key = "hours_per_day",
         .type = OptionType::Number,
         .defaultValue = "8",
         .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Training"),
         .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "training hours per day"),
         .shownIn = run::FrontEnd::Both,
         .minimum = 0.5,
         .maximum = 24,
         .unit = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "h/day")},
        {.key = "json", .type = OptionType::Flag, .defaultValue = "false", .help = "print JSON"},
    };
    return options;
}

const std::vector<OptionSpec>& planCalibrateOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "model",
         .type = OptionType::Text,
         .defaultValue = "yolov8n",
         .help = "yolov8n|s|m|l|x or yolo11n|s|m|l|x"},
        {.key = "imgsz",
         .type = OptionType::Integer,
         .defaultValue = "640",
         .help = "training image side in pixels"},
        {.key = "batch", .type = OptionType::Integer, .defaultValue = "16", .help = "images per batch"},
        {.key = "device",
         .type = OptionType::Text,
         .defaultValue = "cpu",
         .help = "cpu, or a CUDA device index"},
        {.key = "workers", .type = OptionType::Integer, .defaultValue = "2", .help = "loader threads"},
        {.key = "batches",
         .type = OptionType::Integer,
         .defaultValue = "4",
         .help = "batches per epoch (two epochs run; the first warms up)"},
        {.key = "image_px",
         .type = OptionType::Integer,
         .help = "side of the generated images (default imgsz)"},
        {.key = "budget_s",
         .type = OptionType::Number,
         .defaultValue = "60",
         .help = "stop after this many seconds"},
    };
    return options;
}

} // namespace osprey::planner
