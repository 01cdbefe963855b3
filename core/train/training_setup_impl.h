#pragma once
// Private to core/train: a training run's setup. TrainingSetup checks the inputs and builds what the epoch
// loop trains with (RunParts): the device, the network and its EMA copy (from pretrained weights, their
// class rows remapped by name, or from a resumed last.pt), the optimiser and its schedule lengths, the
// loss, the data-parallel group, the precision policy, and on rank 0 the run folder's args.yaml,
// results.csv and TensorBoard writers.
// Thread affinity: the training thread.

#include "run/run_files.h"
#include "run/tensorboard.h"
#include "run/train_config.h"
#include "train/criterion_impl.h"
#include "train/distributed_impl.h"
#include "train/emitter_impl.h"
#include "train/precision_policy_impl.h"
#include "train/trainer.h"
#include "train/trainer_impl.h"

#include <torch/torch.h>

#include <memory>

namespace osprey::train::detail {

/// What TrainingSetup builds; the epoch loop owns it for the run.
struct RunParts {
    torch::Device device{torch::kCPU};
    int threads = 1;     ///< torch's compute threads
    int worldSize = 1;   ///< processes training together (1 without data parallel)
    bool isMain = true;  ///< rank 0, or the only process: validates and writes the run folder
    TrainingState state; ///< network, EMA, optimiser and counters (restored on resume)
    std::unique_ptr<Criterion> criterion;
    std::unique_ptr<PrecisionPolicy> precision;
    std::unique_ptr<run::ResultsCsv> results;            ///< rank 0 only
    std::unique_ptr<run::TensorBoardWriter> tensorboard; ///< rank 0 only: <run>/tensorboard
    int batchesPerEpoch = 0;
    int warmupIterations = 0;
    int accumulate = 1; ///< batches per optimiser step after warmup
    /// Set when training data parallel; last, so that it goes before the network it holds.
    std::unique_ptr<DataParallel> parallel;
};

class TrainingSetup {
public:
    /// All three must outlive the setup.
    TrainingSetup(const run::TrainConfig& config, const TrainInputs& inputs, Emitter& emitter);

    /// Builds the parts in order, logging each choice (pretrained transfer, optimiser, resume point, data
    /// parallel, precision). Fails with a message that names the option, the file or the missing input.
    Expected<RunParts> build();

private:
    /// The configuration and the inputs are usable; sets torch's compute threads.
    Status checkInputs();
    Status chooseDevice();
    /// The network and its EMA copy, from pretrained weights when `weights=` is given.
    Status buildNetworks();
    /// Batches per epoch, accumulation, warmup and the optimiser; on resume its state from last.pt.
    Status buildOptimizer();
    /// Data parallel: the group, rank 0's weights on every rank, SyncBN.
    Status joinRanks();
    /// The loss, the weights folder, the precision and, on rank 0, the run folder's writers.
    Status openRunFolder();

    const run::TrainConfig& m_config;
    const TrainInputs& m_inputs;
    Emitter& m_emit;
    RunParts m_parts;
};

} // namespace osprey::train::detail
