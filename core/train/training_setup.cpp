#include "train/training_setup_impl.h"

#include "model/inference_torch_impl.h"
#include "model/predictor.h"
#include "model/weights_torch_impl.h"
#include "run/run_files.h"
#include "run/run_folder.h"
#include "run/train_options.h"
#include "train/device_choice.h"
#include "train/distributed_impl.h"
#include "train/sync_batch_norm_impl.h"
#include "train/trainer_impl.h"

#include "common/strings.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

namespace osprey::train::detail {

namespace {

std::string normalisedName(const std::string& name) {
    return toLower(std::string(trim(name)));
}

/// Ultralytics 8.4.190's cls_remap: when the pretrained weights' classes differ from the dataset's (count or
/// order), the rows of the head's class-logit convolutions (the last conv of every cv3 / one2one_cv3 branch)
/// are copied by class name (case and surrounding spaces ignored). Returns the number of dataset classes
/// found in the weights, 0 when nothing was remapped. `fresh`: the network's class-logit tensors as built,
/// before the weights were loaded; a dataset class the weights do not have keeps its fresh row.
int remapClassRows(model::DetectionModel& network, const model::TensorList& source,
                   const std::vector<std::string>& sourceNames, const std::vector<std::string>& targetNames,
                   const model::TensorList& fresh) {
    std::map<std::string, int> lookup;
    for (size_t i = 0; i < sourceNames.size(); ++i)
        lookup.emplace(normalisedName(sourceNames[i]), static_cast<int>(i));
    std::vector<std::int64_t> from, to;
    bool identity = sourceNames.size() == targetNames.size();
    for (size_t k = 0; k < targetNames.size(); ++k) {
        const auto it = lookup.find(normalisedName(targetNames[k]));
        if (it == lookup.end()) {
            identity = false;
            continue;
        }
        identity &= it->second == static_cast<int>(k);
        from.push_back(it->second);
        to.push_back(static_cast<std::int64_t>(k));
    }
    if (from.empty() || identity)
        return 0;
    std::map<std::string, const torch::Tensor*> byName;
    for (const auto& [name, tensor] : source)
        byName[name] = &tensor;
    const auto target = network.stateDict();
    const auto nc = static_cast<std::int64_t>(targetNames.size());
    int remapped = 0;
    torch::NoGradGuard noGrad;
    for (const auto& [name, built] : fresh) {
        const auto it = byName.find(name);
        const auto mine = std::find_if(target.begin(), target.end(),
                                       [&](const auto& entry) { return entry.first == name; });
        if (it == byName.end() || mine == target.end() || mine->second.size(0) != nc ||
            it->second->sizes().slice(1) != mine->second.sizes().slice(1))
            continue;
        mine->second.copy_(built);
        mine->second.index_copy_(
            0, torch::tensor(to, torch::kLong).to(mine->second.device()),
            it->second->index_select(0, torch::tensor(from, torch::kLong)).to(mine->second.options()));
        ++remapped;
    }
    return remapped > 0 ? static_cast<int>(from.size()) : 0;
}

} // namespace

TrainingSetup::TrainingSetup(const run::TrainConfig& config, const TrainInputs& inputs, Emitter& emitter)
    : m_config(config), m_inputs(inputs), m_emit(emitter) {
    if (m_inputs.distributed) {
        m_parts.worldSize = m_inputs.distributed->worldSize();
        m_parts.isMain = m_inputs.distributed->isMain();
    }
}

Expected<RunParts> TrainingSetup::build() {
    for (const auto step :
         {&TrainingSetup::checkInputs, &TrainingSetup::chooseDevice, &TrainingSetup::buildNetworks,
          &TrainingSetup::buildOptimizer, &TrainingSetup::joinRanks, &TrainingSetup::openRunFolder})
        if (auto status = (this->*step)(); !status)
            return fail(status.error());
    return std::move(m_parts);
}

Status TrainingSetup::checkInputs() {
    if (auto status = m_config.check(); !status)
        return status;
    if (!m_inputs.train || !m_inputs.events)
        return fail("training needs a train batch source and an event sink");
    if (m_inputs.dataset.classNames.empty())
        return fail("the project has no classes; add at least one class and label some images");
    if (m_inputs.train->imageCount() == 0)
        return fail(
            "the train split has no usable images (labeled or verified-empty); assign some images to train");
    // Ranks sharing a machine share its cores.
    const int ranksHere = m_inputs.distributed ? m_inputs.distributed->info().localWorldSize : 1;
    const int threads =
        m_config.threads > 0
            ? m_config.threads
            : std::max(1, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())) / ranksHere);
    model::setComputeThreads(threads); // torch's threads; OpenBLAS pinned to one under them
    m_parts.threads = threads;
    if (m_config.batch < 1)
        return fail("batch=" + run::optionValue(m_config, "batch") +
                    " (AutoBatch) must be resolved to a batch size before the data loaders are built "
                    "(planAutoBatch); the engine trains a fixed batch");
    return {};
}

Status TrainingSetup::chooseDevice() {
    auto devices = chooseDevices(m_config.device, probeDevices());
    if (!devices)
        return fail(devices.error());
    if (devices->cuda && m_inputs.distributed) {
        // One GPU per rank: the rank's position on its machine in the device list.
        const auto& indices = devices->indices;
        const int local = m_inputs.distributed->info().localRank % static_cast<int>(indices.size());
        m_parts.device =
            torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(indices[static_cast<size_t>(local)]));
    } else if (devices->cuda) {
        m_parts.device = torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(devices->indices.front()));
        if (devices->indices.size() > 1)
            m_emit.log("device=" + m_config.device + ": this engine trains on one GPU; using cuda:" +
                           std::to_string(devices->indices.front()) +
                           " (data parallel training over the listed GPUs comes with the distributed engine)",
                       "warning");
    }
    return {};
}

Status TrainingSetup::buildNetworks() {
    auto& state = m_parts.state;
    torch::manual_seed(m_config.seed);
    const int nc = static_cast<int>(m_inputs.dataset.classNames.size());
    auto spec = model::parseModelName(m_config.model, nc);
    if (!spec)
        return fail(spec.error());
    // Pretrained weights (Osprey's or Ultralytics') decide the network variant they were trained in.
    std::optional<model::Checkpoint> pretrained;
    if (!m_config.weights.empty() && !m_config.resume) {
        auto checkpoint = model::loadCheckpoint(m_config.weights);
        if (!checkpoint)
            return fail(checkpoint.error());
        const model::ModelSpec& held = checkpoint->meta.spec;
        if (held.family != spec->family || held.scale != spec->scale)
            return fail(m_config.weights + ": holds a " + held.name() + " but model=" + spec->name() +
                        "; pass model=" + held.name() + " or other weights");
        spec->sppfActivation = held.sppfActivation;
        pretrained = std::move(*checkpoint);
    } else if (m_config.resume) {
        if (auto meta = model::readCheckpointMeta(run::RunFolder(m_inputs.runDir).lastWeights()))
            spec->sppfActivation = meta->spec.sppfActivation;
    }
    state.model = std::make_shared<model::DetectionModel>(spec.value());
    state.ema = std::make_shared<model::DetectionModel>(spec.value());
    if (pretrained) {
        // The class-logit convolutions as built (the last conv of each class branch, ".2." in every family),
        // for the rows the weights have no class for.
        model::TensorList fresh;
        const auto built = state.model->stateDict();
        for (const std::string& name : state.model->classBranchNames())
            if (name.ends_with(".2.weight") || name.ends_with(".2.bias"))
                for (const auto& [key, tensor] : built)
                    if (key == name)
                        fresh.emplace_back(name, tensor.detach().clone());
        const auto& weights = pretrained->ema.empty() ? pretrained->model : pretrained->ema;
        auto report = model::loadState(*state.model, weights, model::LoadMode::Pretrained);
        if (!report)
            return fail(m_config.weights + ": " + report.message());
        std::ostringstream message;
        message << "Transferred " << report->loaded.size() << "/" << state.model->stateDict().size()
                << " items from pretrained weights " << m_config.weights;
        if (!pretrained->meta.origin.empty())
            message << " (" << pretrained->meta.origin << ")";
        if (!report->skipped.empty())
            message << "; kept " << report->skipped.size()
                    << " class-output tensors freshly initialised (the class count differs)";
        m_emit.log(message.str());
        if (const int matched = remapClassRows(*state.model, weights, pretrained->meta.names,
                                               m_inputs.dataset.classNames, fresh))
            m_emit.log("Remapped " + std::to_string(matched) + "/" + std::to_string(nc) +
                       " class rows of the head from the pretrained weights by class name (as Ultralytics' "
                       "cls_remap)");
    }
    state.model->to(m_parts.device);
    state.ema->to(m_parts.device);
    // NHWC on the CPU: oneDNN's convolutions then skip their layout reorders (setChannelsLast), before the
    // EMA and the optimiser take the parameters.
    if (m_parts.device.is_cpu()) {
        state.model->setChannelsLast(true);
        state.ema->setChannelsLast(true);
        // osprey-cli chooses how OpenMP's threads wait from the load at start (app/openmp_wait.h).
        const char* wait = std::getenv("OSPREY_OPENMP_WAIT");
        const char* policy = std::getenv("OMP_WAIT_POLICY");
        m_emit.log("CPU: " + std::to_string(m_parts.threads) +
                   " compute threads, channels-last; OpenMP waits: " +
                   (wait     ? std::string(wait)
                    : policy ? "OMP_WAIT_POLICY=" + std::string(policy)
                             : "libgomp's default") +
                   " (docs/threads.md)");
    }
    state.model->train();
    state.emaUpdater =
        std::make_unique<ModelEma>(state.ema, state.ema->stateDict(), state.model->stateDict());
    return {};
}

Status TrainingSetup::buildOptimizer() {
    auto& state = m_parts.state;
    const int nc = static_cast<int>(m_inputs.dataset.classNames.size());
    m_parts.batchesPerEpoch = std::max(1, m_inputs.train->batchesPerEpoch());
    m_parts.accumulate = accumulateSteps(m_config.batch, m_config.nominalBatch);
    const bool endToEnd = state.model->head().endToEnd();
    // YOLO26 follows Ultralytics 8.4.190 (warmup capped at epochs - 1, no 100-iteration floor); YOLOv8 and
    // YOLO11 keep 8.4.90's rule, which their parity runs were measured against.
    m_parts.warmupIterations =
        endToEnd ? yolo26WarmupIterations(m_config.warmupEpochs, m_config.epochs, m_parts.batchesPerEpoch)
                 : warmupIterations(m_config.warmupEpochs, m_parts.batchesPerEpoch);
    const std::filesystem::path last = run::RunFolder(m_inputs.runDir).lastWeights();
    if (m_config.resume) {
        auto choice = checkpointOptimizer(last);
        if (!choice)
            return fail("resume: " + choice.message());
        state.choice = choice.value();
        // As the choice at the run's start: an explicit optimizer's warmup_bias_lr, else the auto rule.
        if (m_config.optimizer != run::OptimizerKind::Auto)
            state.choice.warmupBiasLr = m_config.warmupBiasLr;
        else
            state.choice.warmupBiasLr = endToEnd ? 0.0 : autoWarmupBiasLr(m_config);
    } else {
        state.choice = endToEnd ? chooseYolo26Optimizer(m_config, m_inputs.train->imageCount(), nc)
                                : chooseOptimizer(m_config, m_inputs.train->imageCount(), nc);
    }
    const double decay =
        scaledWeightDecay(m_config.weightDecay, m_config.batch, m_parts.accumulate, m_config.nominalBatch);
    // MuSGD's x3 lr groups: the head's class branches (Ultralytics picks cv3 and one2one_cv3 of the head).
    std::vector<std::string> classBranches;
    const std::string head = "model." + std::to_string(state.model->layers().size() - 1);
    for (const char* branch : {".cv3", ".one2one_cv3"})
        classBranches.push_back(head + branch);
    state.optimizer = std::make_unique<RecipeOptimizer>(*state.model, state.choice, decay, classBranches);
    if (m_config.optimizer == run::OptimizerKind::Auto && !m_config.resume) {
        m_emit.log("optimizer=auto: chose " + toString(state.choice.kind) + " (lr=" +
                   std::to_string(state.choice.lr) + ", momentum=" + std::to_string(state.choice.momentum) +
                   ") from the run length, ignoring lr0 and momentum");
    }
    m_emit.log("optimizer: " + state.optimizer->describe());
    if (m_config.resume) {
        if (auto status = loadTrainingCheckpoint(state, last); !status)
            return fail("resume: " + status.message());
        if (state.nextEpoch >= m_config.epochs)
            return fail("resume: " + last.string() + " already completed " + std::to_string(state.nextEpoch) +
                        " of " + std::to_string(m_config.epochs) +
                        " epochs; start a new run or raise epochs");
        m_emit.log("Resuming training from " + last.string() + " at epoch " +
                   std::to_string(state.nextEpoch + 1));
    }
    return {};
}

Status TrainingSetup::joinRanks() {
    const int worldSize = m_parts.worldSize;
    if (m_inputs.distributed && m_config.batch % worldSize != 0)
        return fail("batch=" + std::to_string(m_config.batch) + " is the batch of all " +
                    std::to_string(worldSize) + " ranks together and must divide among them; use batch=" +
                    std::to_string(std::max(1, m_config.batch / worldSize) * worldSize));
    if (m_inputs.distributed) {
        auto& state = m_parts.state;
        // Every rank built the same network from the same seed (and read the same last.pt on resume);
        // rank 0's weights are broadcast all the same, as DDP does, so the ranks start identical.
        m_parts.parallel = std::make_unique<DataParallel>(*m_inputs.distributed, *state.model);
        m_parts.parallel->broadcastModule(*state.model);
        m_parts.parallel->broadcastModule(*state.ema);
        m_emit.log("Data parallel: rank " + std::to_string(m_inputs.distributed->rank()) + " of " +
                   std::to_string(worldSize) + " (" +
                   (m_inputs.distributed->backend() == CommBackend::Nccl ? "NCCL" : "Gloo") + ", " +
                   std::to_string(m_config.batch / worldSize) + " of each batch of " +
                   std::to_string(m_config.batch) + " images per rank, " + std::to_string(m_parts.threads) +
                   " threads); rank 0 validates and writes the run");
        if (m_config.syncBn) {
            const int layers = enableSyncBatchNorm(*state.model, *m_inputs.distributed);
            m_emit.log("SyncBN: " + std::to_string(layers) + " BatchNorm layers normalise with the batch " +
                       "statistics of all " + std::to_string(worldSize) + " ranks");
        }
    } else if (m_config.syncBn) {
        m_emit.log("sync_bn=true has no effect with one process: BatchNorm already sees the whole batch");
    }
    return {};
}

Status TrainingSetup::openRunFolder() {
    m_parts.criterion =
        std::make_unique<Criterion>(*m_parts.state.model, m_config.epochs,
                                    LossGains{m_config.boxGain, m_config.clsGain, m_config.dflGain});
    // Resume: the branch weights of the epoch that comes next (Ultralytics: updates = start_epoch - 1, then
    // one update()).
    m_parts.criterion->setCompletedEpochs(m_parts.state.nextEpoch);
    std::error_code error;
    const run::RunFolder folder(m_inputs.runDir);
    std::filesystem::create_directories(folder.weightsDir(), error);
    if (error)
        return fail(m_inputs.runDir.string() + ": cannot create the run folder: " + error.message());
    m_parts.precision = std::make_unique<PrecisionPolicy>(m_config, m_parts.device, m_emit);
    if (!m_parts.isMain)
        return {}; // rank 0 writes the run folder
    if (auto status = run::writeArgsYaml(folder.args(), m_config.toMap()); !status)
        return status;
    m_parts.results = std::make_unique<run::ResultsCsv>(folder.results(), m_parts.criterion->endToEnd());
    if (m_config.resume) {
        if (auto status = m_parts.results->loadExisting(m_parts.state.nextEpoch); !status)
            return status;
    }
    auto board = run::TensorBoardWriter::open(folder.tensorboard());
    if (!board)
        return fail(board.error());
    m_parts.tensorboard = std::move(*board);
    return {};
}

} // namespace osprey::train::detail
