#pragma once
// Private to core/train: a training run's checkpoint writer. After every epoch it writes weights/last.pt
// (the whole training state, for resume) and, when the epoch is the best so far, copies it to best.pt; at
// the end of the run it strips best.pt to an inference file. Each file written is announced with a
// checkpoint event. Only the main process (rank 0) writes.
// Thread affinity: the training thread.

#include "run/run_folder.h"
#include "run/train_config.h"
#include "run/train_events.h"
#include "train/emitter_impl.h"
#include "train/trainer_impl.h"

#include <filesystem>
#include <string>
#include <vector>

namespace osprey::train::detail {

class CheckpointWriter {
public:
    /// `config` and `classNames` go into every checkpoint; both must outlive the writer.
    CheckpointWriter(const run::RunFolder& folder, const run::TrainConfig& config,
                     const std::vector<std::string>& classNames, Emitter& emitter);

    const std::filesystem::path& lastPath() const { return m_lastPath; }
    const std::filesystem::path& bestPath() const { return m_bestPath; }

    /// Writes last.pt from `state` with `metrics` (the 0-based `epoch`'s row, or the last completed one's
    /// after an interrupted epoch), then copies it to best.pt when `best`. Both are replaced atomically; a
    /// failed best.pt copy leaves no partial file.
    Status write(const TrainingState& state, const run::EpochMetrics& metrics, int epoch, bool best);

    /// Like Ultralytics at the end of training: best.pt (when there is one) becomes an inference file, the
    /// EMA weights in float16 without optimiser or RNG state. A failure is logged as a warning and leaves
    /// best.pt a full checkpoint.
    void stripBest();

private:
    const run::TrainConfig& m_config;
    const std::vector<std::string>& m_classNames;
    Emitter& m_emit;
    std::filesystem::path m_lastPath, m_bestPath;
};

} // namespace osprey::train::detail
