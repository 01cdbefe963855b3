// The network's own share of a training step, the part the trainer cannot make faster around it: the
// forward of every head branch the loss reads and the backward from a scalar over those maps, on a fixed
// random batch, by memory format and precision. bench_network_step_vs_ultralytics.py runs the same step on
// Ultralytics' network (same model, batch, size and threads) beside it; with `trace=FILE` the first
// mode's step (float32 NCHW unless mode= says) is recorded with LibTorch's profiler for that script's
// per-operator comparison.
//
// Usage: bench_network_step [model=yolo26n] [imgsz=320] [batch=16] [threads=2] [steps=6] [trace=FILE]
//                           [mode=all|fp32-nchw|fp32-nhwc|bf16-nhwc] [malloc=keep|default]
//                           [loss=false|true: the training loss on random targets] [boxes=4: per image]
//                           [nc=80: classes; the demo data has 4, and mosaics of it about 14 boxes]
//                           [grads=FILE: instead of timing, one step of the first mode from seed 0 and every
//                            parameter's gradient, every running statistic ("buffer:name") and the head's
//                            outputs ("output:one2many.0" ...) written to FILE (a line "name count" then
//                            count floats, text), to compare precision paths, e.g.
//                            OSPREY_FUSED_BATCH_NORM_SILU=0 or not]
//                           [weights=FILE: start from a checkpoint's network (its live model, not the
//                            EMA; a training checkpoint's last.pt) instead of seed 0's initialisation]
#include <torch/torch.h>

#include "malloc_policy.h"
#include "model/compat_torch_impl.h"
#include "model/detector_torch_impl.h"
#include "model/predictor.h"
#include "model/weights_torch_impl.h"
#include "system/cpu_features.h"
#include "train/criterion_impl.h"

#include <torch/csrc/autograd/profiler_legacy.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

using namespace osprey;
using Clock = std::chrono::steady_clock;

namespace {

struct Mode {
    bool channelsLast = false;
    bool bf16 = false;
    std::string key() const {
        return std::string(bf16 ? "bf16" : "fp32") + (channelsLast ? "-nhwc" : "-nchw");
    }
    std::string name() const {
        return std::string(bf16 ? "bf16 autocast" : "fp32") + (channelsLast ? ", NHWC" : ", NCHW");
    }
};

struct StepTimes {
    double forwardMs = 0, lossMs = 0, backwardMs = 0;
};

/// Random targets: `perImage` boxes in every image, 8 to 40 % of its side, classes 0..nc-1.
train::BatchTargets randomTargets(int batch, int perImage, int imgsz, int nc) {
    const auto size = (torch::rand({batch, perImage, 2}) * 0.32 + 0.08) * imgsz;
    const auto corner = torch::rand({batch, perImage, 2}) * (imgsz - size);
    return {torch::randint(0, nc, {batch, perImage, 1}).to(torch::kFloat),
            torch::cat({corner, corner + size}, 2), torch::ones({batch, perImage, 1})};
}

double seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

/// A network from seed 0 (its initialisation, or `weights` loaded over it) in `mode`'s memory format, in
/// training mode, with a random batch, random targets and, for `withLoss`, the training loss. Throws when
/// the weights cannot be loaded into it.
struct Fixture {
    Fixture(const std::string& name, int imgsz, int batch, const Mode& mode, bool withLoss, int nc, int boxes,
            const std::string& weights = {}) {
        torch::manual_seed(0);
        net = std::make_shared<model::DetectionModel>(model::parseModelName(name, nc).value());
        if (!weights.empty()) {
            auto checkpoint = model::loadCheckpoint(weights);
            if (!checkpoint)
                throw std::runtime_error(checkpoint.error().message);
            if (auto loaded = model::loadState(*net, checkpoint->model, model::LoadMode::Exact); !loaded)
                throw std::runtime_error(weights + ": " + loaded.error().message);
        }
        net->train();
        if (mode.channelsLast)
            net->setChannelsLast(true);
        images = torch::rand({batch, 3, imgsz, imgsz});
        if (mode.channelsLast)
            images = images.contiguous(torch::MemoryFormat::ChannelsLast);
        if (withLoss)
            criterion.emplace(*net, 30, train::LossGains{});
        targets = randomTargets(batch, boxes, imgsz, nc);
    }
    Fixture(const Fixture&) = delete;
    Fixture& operator=(const Fixture&) = delete;

    std::shared_ptr<model::DetectionModel> net;
    torch::Tensor images;
    std::optional<train::Criterion> criterion;
    train::BatchTargets targets;
};

/// One step: forward of the branches the loss reads (both for YOLO26), then either the training loss on
/// the targets (when the fixture has a criterion) or a scalar that touches every map element, backward.
/// Returns the seconds of the forward, the loss and the backward; the gradients are zeroed after unless
/// `keepGradients`, and the loss's value is put in `value` when given.
StepTimes step(Fixture& fixture, const Mode& mode, bool keepGradients = false, double* value = nullptr,
               model::HeadMaps* outputs = nullptr) {
    model::DetectionModel& net = *fixture.net;
    const auto t0 = Clock::now();
    model::HeadMaps maps;
    {
        model::compat::AutocastScope autocast(torch::kCPU, torch::kBFloat16, mode.bf16);
        if (net.head().endToEnd())
            maps = net.forwardHeads(fixture.images);
        else
            maps.oneToMany = net.forwardRaw(fixture.images);
    }
    const auto t1 = Clock::now();
    torch::Tensor total;
    if (fixture.criterion) {
        for (auto* branch : {&maps.oneToMany, &maps.oneToOne})
            for (auto& map : *branch)
                map = map.to(torch::kFloat);
        total = (*fixture.criterion)(maps, fixture.targets).total;
    } else {
        total = torch::zeros({}, torch::kFloat);
        for (const auto* branch : {&maps.oneToMany, &maps.oneToOne})
            for (const auto& map : *branch)
                total = total + map.to(torch::kFloat).mean();
    }
    const auto t2 = Clock::now();
    total.backward();
    const auto t3 = Clock::now();
    if (value)
        *value = total.item<double>();
    if (outputs)
        *outputs = maps;
    if (!keepGradients)
        net.zero_grad();
    return {1000 * seconds(t0, t1), 1000 * seconds(t1, t2), 1000 * seconds(t2, t3)};
}

StepTimes measure(const std::string& name, int imgsz, int batch, int steps, const Mode& mode,
                  const std::string& trace, bool withLoss, int nc, int boxes, const std::string& weights) {
    Fixture fixture(name, imgsz, batch, mode, withLoss, nc, boxes, weights);
    for (int i = 0; i < 2; ++i)
        step(fixture, mode); // warm-up: first-touch allocations, oneDNN primitive caches
    std::vector<double> forward, lossMs, backward;
    for (int i = 0; i < steps; ++i) {
        const auto times = step(fixture, mode);
        forward.push_back(times.forwardMs);
        lossMs.push_back(times.lossMs);
        backward.push_back(times.backwardMs);
    }
    if (!trace.empty()) {
        torch::autograd::profiler::RecordProfile guard(trace);
        step(fixture, mode);
    }
    const auto median = [](std::vector<double> values) {
        std::sort(values.begin(), values.end());
        return values[values.size() / 2];
    };
    return {median(forward), median(lossMs), median(backward)};
}

/// One step of `mode` on the fixture's network and the gradients of every parameter, the running statistics
/// and the head's outputs after it, written as text.
int dumpGradients(const std::string& name, int imgsz, int batch, const Mode& mode, bool withLoss, int nc,
                  int boxes, const std::string& weights, const std::string& file) {
    Fixture fixture(name, imgsz, batch, mode, withLoss, nc, boxes, weights);
    double loss = 0;
    model::HeadMaps maps;
    step(fixture, mode, true, &loss, &maps);
    const auto& net = fixture.net;
    std::FILE* out = std::fopen(file.c_str(), "w");
    if (!out) {
        std::fprintf(stderr, "cannot write %s\n", file.c_str());
        return 1;
    }
    int written = 0;
    const auto write = [&](const std::string& key, const torch::Tensor& tensor) {
        const auto values = tensor.to(torch::kFloat).contiguous();
        std::fprintf(out, "%s %lld\n", key.c_str(), static_cast<long long>(values.numel()));
        const float* data = values.data_ptr<float>();
        for (std::int64_t i = 0; i < values.numel(); ++i)
            std::fprintf(out, "%.9g\n", data[i]);
        ++written;
    };
    for (const auto& item : net->named_parameters())
        if (item.value().grad().defined())
            write(item.key(), item.value().grad());
    // BatchNorm's running statistics after the step, named "buffer:<name>".
    for (const auto& item : net->named_buffers())
        if (item.value().is_floating_point())
            write("buffer:" + item.key(), item.value());
    // The head's outputs (float32 after the step's cast when loss=true), named "output:<branch>.<scale>".
    for (const auto& [branch, outputs] :
         {std::pair{"one2many", &maps.oneToMany}, {"one2one", &maps.oneToOne}})
        for (size_t i = 0; i < outputs->size(); ++i)
            write(std::string("output:") + branch + "." + std::to_string(i), (*outputs)[i].detach());
    std::fclose(out);
    std::printf("%s: loss %.6f, %d gradients, running statistics and outputs written to %s\n",
                mode.name().c_str(), loss, written, file.c_str());
    return 0;
}

} // namespace

int runBench(int argc, char** argv) {
    std::map<std::string, std::string> args = {
        {"model", "yolo26n"}, {"imgsz", "320"}, {"batch", "16"},    {"threads", "2"},  {"steps", "6"},
        {"trace", ""},        {"mode", "all"},  {"malloc", "keep"}, {"loss", "false"}, {"nc", "80"},
        {"boxes", "4"},       {"grads", ""},    {"weights", ""}};
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto eq = arg.find('=');
        if (eq == std::string::npos || !args.count(arg.substr(0, eq))) {
            std::fprintf(stderr,
                         "unknown argument '%s' (model= imgsz= batch= threads= steps= trace= mode= malloc= "
                         "loss= nc= boxes= grads= weights=)\n",
                         arg.c_str());
            return 2;
        }
        args[arg.substr(0, eq)] = arg.substr(eq + 1);
    }
    if (!model::parseModelName(args["model"], 80)) {
        std::fprintf(stderr, "unknown model '%s'\n", args["model"].c_str());
        return 2;
    }
    // As osprey-cli trains (app/malloc_policy.h); malloc=default measures glibc's own behaviour.
    const bool keepMemory = args["malloc"] == "keep" && app::keepFreedMemory();
    const bool withLoss = args["loss"] == "true";
    const int imgsz = std::atoi(args["imgsz"].c_str());
    const int batch = std::atoi(args["batch"].c_str());
    const int steps = std::max(1, std::atoi(args["steps"].c_str()));
    const int nc = std::max(1, std::atoi(args["nc"].c_str()));
    const int boxes = std::max(1, std::atoi(args["boxes"].c_str()));
    model::setComputeThreads(std::atoi(args["threads"].c_str()));
    std::vector<Mode> modes = {{false, false}, {true, false}};
    if (system::cpuComputesBFloat16())
        modes.push_back({true, true});
    std::printf("Osprey %s nc=%d, batch %d at %d, %d threads, median of %d steps, malloc %s%s:\n",
                args["model"].c_str(), nc, batch, imgsz, torch::get_num_threads(), steps,
                keepMemory ? "keeping freed memory (as osprey-cli trains)" : "glibc's default",
                withLoss ? (", " + std::to_string(boxes) + " boxes an image").c_str() : "");
    if (!args["grads"].empty()) {
        for (const auto& mode : modes)
            if (args["mode"] == "all" || args["mode"] == mode.key())
                return dumpGradients(args["model"], imgsz, batch, mode, withLoss, nc, boxes, args["weights"],
                                     args["grads"]);
        std::fprintf(stderr, "mode %s is not measured on this CPU\n", args["mode"].c_str());
        return 2;
    }
    bool traced = false; // the first mode run is recorded
    for (const auto& mode : modes) {
        if (args["mode"] != "all" && args["mode"] != mode.key())
            continue;
        const auto times =
            measure(args["model"], imgsz, batch, steps, mode, traced ? std::string() : args["trace"],
                    withLoss, nc, boxes, args["weights"]);
        traced = true;
        const double stepMs = times.forwardMs + times.lossMs + times.backwardMs;
        const std::string loss =
            withLoss ? "  loss " + std::to_string(std::lround(times.lossMs)) + " ms" : "";
        std::printf("  %-20s forward %7.1f ms%s  backward %7.1f ms  step %7.1f ms  %6.2f images/s\n",
                    mode.name().c_str(), times.forwardMs, loss.c_str(), times.backwardMs, stepMs,
                    1000.0 * batch / stepMs);
    }
    return 0;
}

int main(int argc, char** argv) {
    try {
        return runBench(argc, argv);
    } catch (const std::exception& error) { // e.g. weights= that do not load into model=
        std::fprintf(stderr, "bench_network_step: %s\n", error.what());
        return 1;
    }
}
