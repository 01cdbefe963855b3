#include "run/train_options.h"

#include "common/strings.h"
#include "run/detection_options.h"
#include "run/train_config.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <sstream>

namespace osprey::run {

namespace {

/// How one option reaches its TrainConfig field. The value handed to `set` has passed
/// normalizeOptionValue, so it parses.
struct Binding {
    std::function<void(TrainConfig&, const std::string&)> set;
    std::function<std::string(const TrainConfig&)> get;
};

std::string number(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

Binding field(std::string TrainConfig::*member) {
    return {[member](TrainConfig& c, const std::string& v) { c.*member = v; },
            [member](const TrainConfig& c) { return c.*member; }};
}
Binding field(int TrainConfig::*member) {
    return {[member](TrainConfig& c, const std::string& v) { c.*member = static_cast<int>(*parseInt(v)); },
            [member](const TrainConfig& c) { return std::to_string(c.*member); }};
}
Binding field(std::uint64_t TrainConfig::*member) {
    return {[member](TrainConfig& c, const std::string& v) {
                c.*member = static_cast<std::uint64_t>(*parseInt(v));
            },
            [member](const TrainConfig& c) { return std::to_string(c.*member); }};
}
Binding field(double TrainConfig::*member) {
    return {[member](TrainConfig& c, const std::string& v) { c.*member = *parseDouble(v); },
            [member](const TrainConfig& c) { return number(c.*member); }};
}
Binding field(bool TrainConfig::*member) {
    return {[member](TrainConfig& c, const std::string& v) { c.*member = *parseBool(v); },
            [member](const TrainConfig& c) { return std::string(c.*member ? "true" : "false"); }};
}

// batch: a whole number of images, or AutoBatch: -1 (the default fraction) or a fraction in (0, 1).
// Anything else is stored as batch 0 with the value in batchFraction, for TrainConfig::check to name.
Binding batchField() {
    return {
        [](TrainConfig& c, const std::string& v) {
            const double value = *parseDouble(v);
            if (value == -1 || (value > 0 && value < 1)) {
                c.batch = -1;
                c.batchFraction = value == -1 ? kAutoBatchFraction : value;
            } else if (value >= 1 && value == std::floor(value)) {
                c.batch = static_cast<int>(value);
                c.batchFraction = 0;
            } else {
                c.batch = 0;
                c.batchFraction = value;
            }
        },
        [](const TrainConfig& c) {
            if (c.batch == -1)
                return c.batchFraction == kAutoBatchFraction ? std::string("-1") : number(c.batchFraction);
            return c.batch >= 1 || c.batchFraction == 0 ? std::to_string(c.batch) : number(c.batchFraction);
        }};
}

std::vector<std::string> modelNames() {
    std::vector<std::string> names;
    for (const char* family : {"yolov8", "yolo11", "yolo26"})
        for (const char scale : std::string("nsmlx"))
            names.push_back(std::string(family) + scale);
    return names;
}

struct Table {
    std::vector<OptionSpec> specs;
    std::vector<Binding> bindings; ///< parallel to specs; empty functions for options kept in `extra`

    void add(OptionSpec spec, Binding binding) {
        specs.push_back(std::move(spec));
        bindings.push_back(std::move(binding));
    }
};

using T = OptionType;
using F = FrontEnd;

// The one declaration of every training option: Ultralytics 8.4's names and defaults (the recipe).
// Rows shown in the GUI come first, in form order.
void addFormOptions(Table& t) {
    // ---- run ---------------------------------------------------------------------------------------------
    t.add({.key = "model",
           .type = T::Choice,
           .defaultValue = "yolov8n",
           .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Model"),
           .help = OSPREY_TRANSLATE_NOOP(
               "osprey::run::Options",
               "Network: yolov8n/s/m/l/x, yolo11n/s/m/l/x or yolo26n/s/m/l/x (NMS-free head, trained "
               "with both head branches). n (nano) is fastest; s, m, l and x are larger, slower and "
               "usually more accurate."),
           .shownIn = F::Both,
           .choices = modelNames(),
           .openChoices = true},
          field(&TrainConfig::model));
    t.add({.key = "weights",
           .type = T::Path,
           .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Pretrained weights"),
           .help = OSPREY_TRANSLATE_NOOP(
               "osprey::run::Options",
               "Start from this checkpoint: an Osprey or Ultralytics .pt such as yolov8n.pt; class outputs "
               "reset when nc differs. Empty trains from scratch."),
           .shownIn = F::Both,
           .placeholder = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "none"),
           .ultralyticsKey = false},
          field(&TrainConfig::weights));
    t.add({.key = "epochs",
           .type = T::Integer,
           .defaultValue = "100",
           .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Epochs"),
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                         "Training epochs: passes over the training images."),
           .shownIn = F::Both,
           .minimum = 1,
           .maximum = 10000,
           .unit = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "epochs")},
          field(&TrainConfig::epochs));
    t.add({.key = "imgsz",
           .type = T::Integer,
           .defaultValue = "640",
           .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Image size"),
           .help = OSPREY_TRANSLATE_NOOP(
               "osprey::run::Options",
               "Image side in pixels (a multiple of 32). Larger finds smaller objects but trains "
               "slower."),
           .shownIn = F::Both,
           .minimum = 32,
           .maximum = 4096,
           .unit = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "px")},
          field(&TrainConfig::imgsz));
    t.add({.key = "batch",
           .type = T::Number,
           .defaultValue = "16",
           .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Batch size"),
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                         "Images per batch. Lower it if memory runs out. -1: AutoBatch "
                                         "(60% of free GPU memory); 0.7: AutoBatch for that fraction."),
           .shownIn = F::Both,
           .minimum = -1,
           .maximum = 1024,
           .unit = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "images")},
          batchField());
    t.add({.key = "device",
           .type = T::Choice,
           .defaultValue = "cpu",
           .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Device"),
           .help = OSPREY_TRANSLATE_NOOP(
               "osprey::run::Options",
               "cpu, or a CUDA device index such as 0. A GPU needs an osprey-cli built with CUDA "
               "LibTorch."),
           .shownIn = F::Both,
           .choices = {"cpu"},
           .openChoices = true},
          field(&TrainConfig::device));
}

void addFormTrainingOptions(Table& t) {
    // ---- optimiser, augmentation and the run's bookkeeping, still in the form -----------------------
    t.add({.key = "optimizer",
           .type = T::Choice,
           .defaultValue = "auto",
           .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Optimiser"),
           .help = OSPREY_TRANSLATE_NOOP(
               "osprey::run::Options",
               "auto, SGD, AdamW or MuSGD. auto picks AdamW for short runs and, for long ones, SGD "
               "(YOLO26: MuSGD), with its own learning rate."),
           .shownIn = F::Both,
           .choices = {"auto", "SGD", "AdamW", "MuSGD"}},
          {[](TrainConfig& c, const std::string& v) { c.optimizer = *parseOptimizer(v); },
           [](const TrainConfig& c) { return toString(c.optimizer); }});
    t.add({.key = "lr0",
           .type = T::Number,
           .defaultValue = "0.01",
           .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Initial learning rate"),
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                         "Initial learning rate (ignored by optimizer=auto)."),
           .shownIn = F::Both,
           .minimum = 0.00001,
           .maximum = 1},
          field(&TrainConfig::lr0));
    t.add({.key = "patience",
           .type = T::Integer,
           .defaultValue = "100",
           .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Patience"),
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                         "Stop after this many epochs without a better mAP50-95."),
           .shownIn = F::Both,
           .minimum = 1,
           .maximum = 10000,
           .unit = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "epochs")},
          field(&TrainConfig::patience));
    t.add({.key = "mosaic",
           .type = T::Number,
           .defaultValue = "1.0",
           .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Mosaic probability"),
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                         "Chance of combining four images into one training image."),
           .shownIn = F::Both,
           .minimum = 0,
           .maximum = 1},
          field(&TrainConfig::mosaic));
    t.add({.key = "close_mosaic",
           .type = T::Integer,
           .defaultValue = "10",
           .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Close mosaic"),
           .help =
               OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Switch mosaic off for this many final epochs."),
           .shownIn = F::Both,
           .minimum = 0,
           .maximum = 10000,
           .unit = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "epochs")},
          field(&TrainConfig::closeMosaic));
    t.add(
        {.key = "fliplr",
         .type = T::Number,
         .defaultValue = "0.5",
         .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Horizontal flip probability"),
         .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Chance of mirroring an image left to right."),
         .shownIn = F::Both,
         .minimum = 0,
         .maximum = 1},
        field(&TrainConfig::fliplr));
    t.add({.key = "workers",
           .type = T::Integer,
           .defaultValue = "-1",
           .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Loader threads"),
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                         "Data loader threads that decode and augment images; -1 = from the "
                                         "CPU count (GPU: cores - 1, up to 8; CPU: 1 per 4 cores)."),
           .shownIn = F::Both,
           .minimum = -1,
           .maximum = 64},
          field(&TrainConfig::workers));
    t.add({.key = "cache",
           .type = T::Choice,
           .defaultValue = "false",
           .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Image cache"),
           .help = OSPREY_TRANSLATE_NOOP(
               "osprey::run::Options",
               "ram: keep every decoded, resized training image in RAM, so epochs after the first decode "
               "nothing (about imgsz x imgsz x 3 bytes per image; the run says how much and trains without "
               "it when the RAM is short); false: decode as needed."),
           .shownIn = F::Both,
           .choices = {"false", "ram"}},
          {[](TrainConfig& c, const std::string& v) { c.cacheRam = v == "ram"; },
           [](const TrainConfig& c) { return std::string(c.cacheRam ? "ram" : "false"); }});
    t.add({.key = "name",
           .type = T::Text,
           .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Run name"),
           .help = OSPREY_TRANSLATE_NOOP(
               "osprey::run::Options",
               "Run folder name under <project>/runs (default train, train2, ...); the run's name on "
               "the platform."),
           .shownIn = F::Both,
           .placeholder = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "automatic")},
          field(&TrainConfig::name));
    t.add({.key = "seed",
           .type = T::Integer,
           .defaultValue = "0",
           .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Seed"),
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                         "Random seed; the same seed repeats the same run."),
           .shownIn = F::Both,
           .minimum = 0,
           .maximum = 2147483647},
          field(&TrainConfig::seed));
}

void addCommandLineOptions(Table& t) {
    // ---- command line only ---------------------------------------------------------------------------
    t.add({.key = "lrf",
           .type = T::Number,
           .defaultValue = "0.01",
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Final learning rate as a fraction of lr0."),
           .minimum = 0.00001,
           .maximum = 1},
          field(&TrainConfig::lrf));
    t.add({.key = "momentum",
           .type = T::Number,
           .defaultValue = "0.937",
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "SGD momentum / AdamW beta1."),
           .minimum = 0,
           .maximum = 0.999},
          field(&TrainConfig::momentum));
    t.add({.key = "weight_decay",
           .type = T::Number,
           .defaultValue = "0.0005",
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                         "Weight decay (scaled by batch x accumulate / 64)."),
           .minimum = 0,
           .maximum = 1},
          field(&TrainConfig::weightDecay));
    t.add({.key = "warmup_epochs",
           .type = T::Number,
           .defaultValue = "3",
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                         "Warmup length in epochs (at least 100 iterations)."),
           .minimum = 0,
           .maximum = 10000,
           .unit = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "epochs")},
          field(&TrainConfig::warmupEpochs));
    t.add({.key = "cos_lr",
           .type = T::Flag,
           .defaultValue = "false",
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                         "Cosine learning-rate schedule instead of linear.")},
          {[](TrainConfig& c, const std::string& v) {
               c.schedule = *parseBool(v) ? LrSchedule::Cosine : LrSchedule::Linear;
           },
           [](const TrainConfig& c) {
               return std::string(c.schedule == LrSchedule::Cosine ? "true" : "false");
           }});
    t.add({.key = "hsv_h",
           .type = T::Number,
           .defaultValue = "0.015",
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Hue jitter gain."),
           .minimum = 0,
           .maximum = 1},
          field(&TrainConfig::hsvH));
    t.add({.key = "hsv_s",
           .type = T::Number,
           .defaultValue = "0.7",
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Saturation jitter gain."),
           .minimum = 0,
           .maximum = 1},
          field(&TrainConfig::hsvS));
    t.add({.key = "hsv_v",
           .type = T::Number,
           .defaultValue = "0.4",
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Value jitter gain."),
           .minimum = 0,
           .maximum = 1},
          field(&TrainConfig::hsvV));
    t.add({.key = "translate",
           .type = T::Number,
           .defaultValue = "0.1",
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Random translation fraction."),
           .minimum = 0,
           .maximum = 0.5},
          field(&TrainConfig::translate));
    t.add({.key = "scale",
           .type = T::Number,
           .defaultValue = "0.5",
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Random scale gain."),
           .minimum = 0,
           .maximum = 0.99},
          field(&TrainConfig::scale));
    t.add({.key = "resume",
           .type = T::Flag,
           .defaultValue = "false",
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                         "Continue the run name= (or the latest run) from weights/last.pt.")},
          field(&TrainConfig::resume));
    t.add({.key = "threads",
           .type = T::Integer,
           .defaultValue = "0",
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Torch CPU threads; 0 = all cores."),
           .minimum = 0,
           .maximum = 1024,
           .ultralyticsKey = false},
          field(&TrainConfig::threads));
    t.add({.key = "workers_per_node",
           .type = T::Integer,
           .defaultValue = "0",
           .help = OSPREY_TRANSLATE_NOOP(
               "osprey::run::Options",
               "Data-parallel training processes on this machine: 0 = one per GPU listed in device (one "
               "process on the CPU); 2 or more with device=cpu train together over Gloo."),
           .minimum = 0,
           .maximum = 256,
           .ultralyticsKey = false},
          field(&TrainConfig::workersPerNode));
    t.add({.key = "sync_bn",
           .type = T::Flag,
           .defaultValue = "false",
           .help = OSPREY_TRANSLATE_NOOP(
               "osprey::run::Options",
               "Data-parallel training: BatchNorm normalises with the statistics of all ranks' images "
               "(SyncBN) instead of each rank's own; no effect with one process."),
           .ultralyticsKey = false},
          field(&TrainConfig::syncBn));
    t.add({.key = "amp",
           .type = T::Flag,
           .defaultValue = "true",
           .help = OSPREY_TRANSLATE_NOOP(
               "osprey::run::Options", "Mixed precision: bf16 on GPUs that support it, else fp16 with a loss "
                                       "scaler; bf16 on CPUs with AMX or AVX512-BF16 (LibTorch 2.x).")},
          field(&TrainConfig::amp));
    t.add({.key = "nbs",
           .type = T::Integer,
           .defaultValue = "64",
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                         "Nominal batch: gradients accumulate to this many images per step."),
           .minimum = 1,
           .maximum = 1024,
           .unit = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "images")},
          field(&TrainConfig::nominalBatch));
}

void addRecordedOptions(Table& t) {
    // ---- recorded in args.yaml, set through the table (val's thresholds), not offered for training ----
    t.add({.key = "warmup_momentum",
           .type = T::Number,
           .defaultValue = "0.8",
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Momentum at the start of warmup."),
           .shownIn = F::None,
           .minimum = 0,
           .maximum = 1},
          field(&TrainConfig::warmupMomentum));
    t.add(
        {.key = "warmup_bias_lr",
         .type = T::Number,
         .defaultValue = "0.1",
         .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Bias learning rate at the start of warmup."),
         .shownIn = F::None,
         .minimum = 0,
         .maximum = 1},
        field(&TrainConfig::warmupBiasLr));
    t.add({.key = "box",
           .type = T::Number,
           .defaultValue = "7.5",
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Box (CIoU) loss gain."),
           .shownIn = F::None,
           .minimum = 0,
           .maximum = 100},
          field(&TrainConfig::boxGain));
    t.add({.key = "cls",
           .type = T::Number,
           .defaultValue = "0.5",
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Classification loss gain."),
           .shownIn = F::None,
           .minimum = 0,
           .maximum = 100},
          field(&TrainConfig::clsGain));
    t.add({.key = "dfl",
           .type = T::Number,
           .defaultValue = "1.5",
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Distribution focal loss gain."),
           .shownIn = F::None,
           .minimum = 0,
           .maximum = 100},
          field(&TrainConfig::dflGain));
    t.add({.key = "conf",
           .type = T::Number,
           .defaultValue = "0.001",
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "NMS confidence threshold."),
           .shownIn = F::None,
           .minimum = 0,
           .maximum = 1},
          field(&TrainConfig::valConf));
    // The validation's NMS: the same rows as predict's and val's (run/detection_options.h), command line
    // only here; `nms` is no key of Ultralytics' train arguments.
    const auto validation = [](std::string_view key) {
        OptionSpec spec = detectionThresholdOption(key);
        spec.shownIn = F::None;
        spec.ultralyticsKey = key != "nms";
        return spec;
    };
    t.add(validation("iou"), field(&TrainConfig::valIou));
    t.add(validation("max_det"), field(&TrainConfig::valMaxDet));
    t.add(validation("nms"), field(&TrainConfig::valNms));
    t.add({.key = "val",
           .type = T::Flag,
           .defaultValue = "true",
           .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                         "Validate after each epoch (the fitness needs it)."),
           .shownIn = F::None},
          field(&TrainConfig::validate));
}

Table buildTable() {
    Table t;
    addFormOptions(t);
    addFormTrainingOptions(t);
    addCommandLineOptions(t);
    addRecordedOptions(t);
    return t;
}

Table& table() {
    static Table instance = buildTable();
    return instance;
}

int indexOf(std::string_view key) {
    const auto& specs = table().specs;
    for (size_t i = 0; i < specs.size(); ++i)
        if (specs[i].key == key)
            return static_cast<int>(i);
    return -1;
}

} // namespace

const std::vector<OptionSpec>& trainOptions() {
    return table().specs;
}

const OptionSpec* findTrainOption(std::string_view key) {
    const int i = indexOf(key);
    return i < 0 ? nullptr : &table().specs[static_cast<size_t>(i)];
}

Status addTrainOption(OptionSpec spec) {
    if (spec.key.empty())
        return fail("addTrainOption: the option has no key");
    if (indexOf(spec.key) >= 0)
        return fail(spec.key + ": a training option with this key is already declared");
    if (!spec.defaultValue.empty())
        if (auto checked = normalizeOptionValue(spec, spec.defaultValue); !checked)
            return fail(checked.error());
    table().add(std::move(spec), {});
    return {};
}

std::string optionValue(const TrainConfig& config, std::string_view key) {
    const int i = indexOf(key);
    if (i < 0)
        return {};
    const Binding& binding = table().bindings[static_cast<size_t>(i)];
    if (binding.get)
        return binding.get(config);
    const auto it = config.extra.find(std::string(key));
    return it == config.extra.end() ? table().specs[static_cast<size_t>(i)].defaultValue : it->second;
}

Status setOptionValue(TrainConfig& config, std::string_view key, const std::string& value) {
    const int i = indexOf(key);
    if (i < 0)
        return fail(std::string(key) + ": not a training option");
    const OptionSpec& spec = table().specs[static_cast<size_t>(i)];
    auto canonical = normalizeOptionValue(spec, value);
    if (!canonical)
        return fail(canonical.error());
    const Binding& binding = table().bindings[static_cast<size_t>(i)];
    if (binding.set)
        binding.set(config, canonical.value());
    else
        config.extra[spec.key] = canonical.value();
    return {};
}

const std::vector<OptionSpec>& trainLaunchOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "project", .type = OptionType::Path, .help = "project folder", .required = true},
        {.key = "events",
         .type = OptionType::Text,
         .help = "jsonl: write events as JSON lines on stdout instead of a progress bar"},
    };
    return options;
}

const std::vector<OptionSpec>& valFileOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "project", .type = OptionType::Path, .help = "project folder", .required = true},
        {.key = "weights",
         .type = OptionType::Path,
         .help = "checkpoint (.pt) to validate",
         .required = true},
        {.key = "plots",
         .type = OptionType::Flag,
         .defaultValue = "true",
         .help = "write the curves, confusion matrices and val batch pictures"},
        {.key = "save_dir",
         .type = OptionType::Path,
         .help = "folder for the pictures (default: <project>/validations/valN)"},
    };
    return options;
}

} // namespace osprey::run
