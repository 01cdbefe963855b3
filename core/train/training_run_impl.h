#pragma once
// Private to core/train: one training run's state and phases (Run), shared by trainer.cpp (the epoch loop,
// validation, checkpoints) and training_setup.cpp (model, optimiser, loss and the run_started event).
// Thread affinity: the training thread; Emitter is also called from the system sampler's thread.

#include "run/run_files.h"
#include "run/tensorboard.h"
#include "train/criterion_impl.h"
#include "train/grad_scaler_impl.h"
#include "train/trainer.h"
#include "train/trainer_impl.h"

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

namespace osprey::train {
class DataParallel;
}

namespace osprey::train::detail {

using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Stamps each event with the run clock and forwards it; shared by the loop and the sampler thread.
class Emitter {
public:
    Emitter(run::EventSink& sink) : m_sink(sink), m_start(Clock::now()) {}
    void emit(run::TrainEvent event) {
        event.timeS = secondsSince(m_start);
        m_sink.onEvent(event);
    }
    void log(const std::string& message, const std::string& level = "info") {
        run::TrainEvent event;
        event.type = run::TrainEvent::Type::Log;
        event.level = level;
        event.message = message;
        emit(std::move(event));
    }

private:
    run::EventSink& m_sink;
    Clock::time_point m_start;
};

/// The whole run; one object so that the phases share the state without long parameter lists.
class Run {
public:
    Run(const run::TrainConfig& config, const TrainInputs& inputs, Emitter& emitter)
        : m_config(config), m_inputs(inputs), m_emit(emitter), m_device(torch::kCPU) {}

    Expected<TrainResult> execute();

private:
    void stripBest();
    Status setUp();
    void emitStarted(std::int64_t parameters, double gflops);
    /// False when a stop was requested; an error when a batch of one image ran out of memory.
    Expected<bool> trainEpoch(int epoch);
    /// Forward, loss and backward of one loaded batch, in chunks of m_microBatch images once an
    /// out-of-memory error has halved it; adds the image-weighted loss parts to `partsSum`. Fails (after
    /// freeing the cache) only when a chunk of one image runs out of memory.
    Status trainBatch(const HostBatch& batch, int epoch, long long iteration, torch::Tensor& partsSum,
                      int& instances);
    /// `where`: "at batch 1, the smallest", "in the optimiser step ..."; `batch`: images per forward.
    std::string outOfMemoryMessage(int batch, const std::string& where) const;
    void setUpPrecision();
    void optimizerStep(int epoch, long long iteration);
    Status finishEpoch(int epoch, bool interrupted);
    bool stopRequested() const { return m_inputs.stop && m_inputs.stop->load(); }
    /// Data parallel: every rank stops when one asks (a local stop would leave the others waiting).
    /// `imagesPerS`, this rank's speed in the epoch so far, is gathered in the same collective into
    /// m_rankImagesPerS (left as it is without a value or for one process).
    bool stopAgreed(double imagesPerS = -1);
    /// images/s of the epoch so far: this process's, or the sum of the ranks' gathered figures.
    double totalImagesPerS(long long images, double elapsedS) const;
    /// Rank 0, or the only process: validates and writes the run folder.
    bool isMain() const { return !m_inputs.distributed || m_inputs.distributed->isMain(); }
    int worldSize() const { return m_inputs.distributed ? m_inputs.distributed->worldSize() : 1; }
    /// Data parallel, at the end: compares the ranks' weights checksums through the store.
    void compareRankWeights();

    const run::TrainConfig& m_config;
    const TrainInputs& m_inputs;
    Emitter& m_emit;
    torch::Device m_device;
    TrainingState m_state;
    std::unique_ptr<Criterion> m_criterion;
    std::unique_ptr<run::ResultsCsv> m_results;
    std::unique_ptr<run::TensorBoardWriter> m_tensorboard; ///< <run>/tensorboard, beside results.csv
    PhaseTimes m_phases;
    int m_batchesPerEpoch = 0;
    int m_warmupIterations = 0;
    int m_accumulate = 1;
    double m_lastValidationS = 0;
    double m_epochLoss[3] = {0, 0, 0};
    double m_imagesPerS = 0;
    std::vector<double> m_rankImagesPerS; ///< data parallel: each rank's images/s in the epoch so far
    run::EpochMetrics m_lastMetrics;
    std::string m_status = "finished";
    std::filesystem::path m_lastPath, m_bestPath;
    Precision m_precision = Precision::Float32;
    std::unique_ptr<GradScaler> m_scaler;
    int m_threads = 1;            ///< torch's compute threads (setUp)
    int m_microBatch = 0;         ///< images per forward after an out-of-memory error; 0: the whole batch
    long long m_skippedSteps = 0; ///< optimiser steps skipped for inf/nan gradients
    double m_peakMemMb = 0;       ///< the run's highest per-epoch GPU peak (0 on the CPU)
    std::unique_ptr<DataParallel> m_parallel; ///< set when training data parallel
};

} // namespace osprey::train::detail
