#pragma once
// Private to core/train: a training run's epoch loop. EpochLoop runs the epochs over what TrainingSetup
// built: each epoch's schedule, warmup and batches (through TrainStep), then on rank 0 validation, the
// results.csv and TensorBoard rows, the epoch event and the checkpoints (CheckpointWriter); it stops on
// request, on patience or at the last epoch, and reports the run's time split.
// Thread affinity: the training thread; it starts and joins the system sampler's thread.

#include "run/train_config.h"
#include "run/train_events.h"
#include "train/checkpoint_writer_impl.h"
#include "train/emitter_impl.h"
#include "train/train_step_impl.h"
#include "train/trainer.h"
#include "train/training_setup_impl.h"

#include <cstdint>
#include <vector>

namespace osprey::train::detail {

class EpochLoop {
public:
    /// `config`, `inputs` and `emitter` must outlive the loop; it owns `parts`.
    EpochLoop(const run::TrainConfig& config, const TrainInputs& inputs, Emitter& emitter, RunParts parts);

    /// Emits run_started, trains from the next epoch of the state (0, or the resume point) to the end.
    Expected<TrainResult> run();

private:
    void emitStarted(std::int64_t parameters, double gflops);
    /// False when a stop was requested; an error when a batch of one image ran out of memory.
    Expected<bool> trainEpoch(int epoch);
    /// Rank 0: validation, the epoch's rows and event, and the checkpoints (an `interrupted` epoch is not
    /// validated and runs again on resume). Other ranks only count the epoch.
    Status finishEpoch(int epoch, bool interrupted);
    /// One log line: where the time went (data, forward, backward, optimiser, validation, checkpoints).
    void logTimeSplit();
    bool stopRequested() const { return m_inputs.stop && m_inputs.stop->load(); }
    /// Data parallel: every rank stops when one asks (a local stop would leave the others waiting).
    /// `imagesPerS`, this rank's speed in the epoch so far, is gathered in the same collective into
    /// m_rankImagesPerS (left as it is without a value or for one process).
    bool stopAgreed(double imagesPerS = -1);
    /// images/s of the epoch so far: this process's, or the sum of the ranks' gathered figures.
    double totalImagesPerS(long long images, double elapsedS) const;
    /// Data parallel, at the end: compares the ranks' weights checksums through the store.
    void compareRankWeights();

    const run::TrainConfig& m_config;
    const TrainInputs& m_inputs;
    Emitter& m_emit;
    RunParts m_parts;
    PhaseTimes m_phases;
    CheckpointWriter m_checkpoints;
    TrainStep m_step;
    int m_accumulate = 1; ///< batches per optimiser step (lower during warmup)
    double m_lastValidationS = 0;
    double m_epochLoss[3] = {0, 0, 0};
    double m_imagesPerS = 0;
    std::vector<double> m_rankImagesPerS; ///< data parallel: each rank's images/s in the epoch so far
    run::EpochMetrics m_lastMetrics;
    std::string m_status = "finished";
    double m_peakMemMb = 0; ///< the run's highest per-epoch GPU peak (0 on the CPU)
};

} // namespace osprey::train::detail
