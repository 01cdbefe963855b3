#include "train/trainer_impl.h"

#include "model/weights_torch_impl.h"
#include "run/train_options.h"

#include <ATen/CPUGeneratorImpl.h>

namespace osprey::train {

namespace {

constexpr const char* kOptimizerBlob = "optimizer";
constexpr const char* kRngGroup = "rng";

model::TensorList cpuCopy(const std::vector<std::pair<std::string, torch::Tensor>>& state) {
    model::TensorList out;
    out.reserve(state.size());
    for (const auto& [name, tensor] : state)
        out.emplace_back(name, tensor.detach().to(torch::kCPU).clone());
    return out;
}

} // namespace

Status saveTrainingCheckpoint(const TrainingState& state, const run::TrainConfig& config,
                              const std::vector<std::string>& classNames, const run::EpochMetrics& metrics,
                              const std::filesystem::path& path) {
    try {
        model::CheckpointMeta meta;
        meta.names = classNames;
        meta.imgsz = config.imgsz;
        meta.trainArgs = config.toMap();
        meta.trainArgs["optimizer_used"] = toString(state.choice.kind);
        meta.ospreyArgs = {"optimizer_used"};
        for (const run::OptionSpec& option : run::trainOptions())
            if (!option.ultralyticsKey)
                meta.ospreyArgs.push_back(option.key);
        meta.epoch = state.nextEpoch;
        meta.metrics = {{"metrics/precision(B)", metrics.precision},
                        {"metrics/recall(B)", metrics.recall},
                        {"metrics/mAP50(B)", metrics.map50},
                        {"metrics/mAP50-95(B)", metrics.map50to95},
                        {"fitness", metrics.fitness},
                        {"best_fitness", state.bestFitness},
                        {"best_epoch", state.bestEpoch},
                        {"ema_updates", static_cast<double>(state.emaUpdater->updates())},
                        {"last_optimizer_step", static_cast<double>(state.lastOptimizerStep)},
                        {"elapsed_s", state.elapsedS},
                        {"initial_lr", state.choice.lr},
                        {"initial_momentum", state.choice.momentum}};
        auto checkpoint = model::makeCheckpoint(*state.model, meta);
        checkpoint.ema = cpuCopy(state.ema->stateDict());
        checkpoint.meta.hasEma = true;
        torch::serialize::OutputArchive archive;
        state.optimizer->get().save(archive);
        auto bytes = model::archiveToBytes(archive);
        if (!bytes)
            return fail(bytes.error());
        checkpoint.blobs[kOptimizerBlob] = std::move(bytes.value());
        auto generator = at::detail::getDefaultCPUGenerator();
        checkpoint.groups[kRngGroup] = {{"cpu", generator.get_state()}};
        return model::saveCheckpoint(checkpoint, path);
    } catch (const c10::Error& error) {
        return fail(path.string() + ": cannot save the checkpoint: " + error.what_without_backtrace());
    }
}

Expected<OptimizerChoice> checkpointOptimizer(const std::filesystem::path& path) {
    auto meta = model::readCheckpointMeta(path);
    if (!meta)
        return fail(meta.error());
    OptimizerChoice choice;
    const auto used = meta->trainArgs.find("optimizer_used");
    if (used == meta->trainArgs.end() || !meta->metrics.count("initial_lr"))
        return fail(path.string() +
                    ": not a training checkpoint (no optimizer state); cannot resume from it");
    auto kind = run::parseOptimizer(used->second);
    if (!kind)
        return fail(kind.error());
    choice.kind = kind.value();
    choice.lr = meta->metrics.at("initial_lr");
    // Checkpoints written before initial_momentum was recorded used the option's default.
    choice.momentum = meta->metrics.count("initial_momentum") ? meta->metrics.at("initial_momentum")
                                                              : run::TrainConfig().momentum;
    return choice;
}

Status loadTrainingCheckpoint(TrainingState& state, const std::filesystem::path& path) {
    auto loaded = model::loadCheckpoint(path);
    if (!loaded)
        return fail(loaded.error());
    auto& checkpoint = loaded.value();
    try {
        if (auto report = model::loadState(*state.model, checkpoint.model, model::LoadMode::Exact); !report)
            return fail(path.string() + ": " + report.message());
        if (checkpoint.ema.empty())
            return fail(path.string() + ": the checkpoint has no EMA weights; cannot resume from it");
        if (auto report = model::loadState(*state.ema, checkpoint.ema, model::LoadMode::Exact); !report)
            return fail(path.string() + ": " + report.message());
        const auto blob = checkpoint.blobs.find(kOptimizerBlob);
        if (blob == checkpoint.blobs.end())
            return fail(path.string() + ": the checkpoint has no optimizer state; cannot resume from it");
        torch::serialize::InputArchive archive;
        if (auto status = model::archiveFromBytes(blob->second, archive); !status)
            return status;
        state.optimizer->get().load(archive);
        const auto rng = checkpoint.groups.find(kRngGroup);
        if (rng != checkpoint.groups.end() && !rng->second.empty()) {
            auto generator = at::detail::getDefaultCPUGenerator();
            generator.set_state(rng->second.front().second);
        }
        const auto& metrics = checkpoint.meta.metrics;
        const auto value = [&](const char* key, double fallback) {
            const auto it = metrics.find(key);
            return it == metrics.end() ? fallback : it->second;
        };
        state.nextEpoch = checkpoint.meta.epoch;
        state.bestFitness = value("best_fitness", -1);
        state.bestEpoch = static_cast<int>(value("best_epoch", 0));
        state.emaUpdater->setUpdates(static_cast<long long>(value("ema_updates", 0)));
        state.lastOptimizerStep = static_cast<long long>(value("last_optimizer_step", -1));
        state.elapsedS = value("elapsed_s", 0);
        return {};
    } catch (const c10::Error& error) {
        return fail(path.string() + ": cannot restore the training state: " + error.what_without_backtrace());
    }
}

} // namespace osprey::train
