#pragma once
// Private to core/train: one training step of a run. TrainStep runs forward, loss and backward of a loaded
// batch (recovering from running out of memory by halving the images per forward while the batch stays
// whole through accumulation) and the optimiser step (gradients summed over the ranks, the precision
// policy's scaled and checked step, the EMA update).
// Thread affinity: the training thread.

#include "run/train_config.h"
#include "train/batch_source.h"
#include "train/emitter_impl.h"
#include "train/trainer.h"
#include "train/training_setup_impl.h"

#include <torch/torch.h>

#include <filesystem>
#include <string>

namespace osprey::train::detail {

class TrainStep {
public:
    /// Works on `parts` (the network, optimiser, loss and precision) and adds its times to `phases`;
    /// `lastWeights` is named in out-of-memory messages when it exists. All must outlive the step.
    TrainStep(RunParts& parts, const run::TrainConfig& config, const TrainInputs& inputs, Emitter& emitter,
              std::filesystem::path lastWeights, PhaseTimes& phases);

    /// Forward, loss and backward of one loaded batch of the 0-based `epoch` at run-wide batch index
    /// `iteration`, in chunks of microBatch() images once an out-of-memory error has halved it. Adds the
    /// image-weighted loss parts to `partsSum` and sets `instances` to the batch's boxes. Fails (after
    /// freeing the cache) only when a chunk of one image runs out of memory.
    Status forwardBackward(const HostBatch& batch, int epoch, long long iteration, torch::Tensor& partsSum,
                           int& instances);
    /// The optimiser step over the accumulated gradients; throws with a message when it runs out of memory
    /// (a step that failed part-way cannot be retried).
    void optimizerStep(int epoch, long long iteration);

    /// Images per forward after an out-of-memory error; 0: the whole batch.
    int microBatch() const { return m_microBatch; }

private:
    /// `where`: "at batch 1, the smallest", "in the optimiser step ..."; `batch`: images per forward.
    std::string outOfMemoryMessage(int batch, const std::string& where) const;

    RunParts& m_parts;
    const run::TrainConfig& m_config;
    const TrainInputs& m_inputs;
    Emitter& m_emit;
    std::filesystem::path m_lastWeights;
    PhaseTimes& m_phases;
    int m_microBatch = 0;
};

} // namespace osprey::train::detail
