#pragma once
// DistributedJob: this process's rank in a data-parallel training job (core/train's train_data). Rank 0
// runs core/job's trainProject as a single process would (run folder, events.jsonl, runs row, validation,
// checkpoints) and publishes the run folder and the effective configuration through the store; the other
// ranks take them from there, train on their shard and log to <run>/rank<N>.log. No torch here.
//
// Thread affinity: the training thread.

#include "run/train_config.h"
#include "run/train_events.h"
#include "train/data_loader.h"
#include "train/distributed.h"
#include "train/train_dataset.h"
#include "train/trainer.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

namespace osprey::train {

class DistributedJob {
public:
    /// Joins the job the environment describes (rankInfoFromEnvironment): connects to the store, checks
    /// that every rank runs the same Osprey with the same arguments, and starts the Gloo (device=cpu) or
    /// NCCL (GPUs) group. Null when the environment names no job (WORLD_SIZE unset).
    static Expected<std::unique_ptr<DistributedJob>> join(const run::TrainConfig& config);

    DistributedContext& context() { return *m_context; }
    bool isMain() const { return m_context->isMain(); }
    int rank() const { return m_context->rank(); }

    /// Rank 0: the run folder and the configuration every rank trains with (after resume).
    void publishRun(const std::filesystem::path& runDir, const run::TrainConfig& config);
    /// Rank 0: the run did not start; the other ranks fail with `message`.
    void publishFailure(const std::string& message);
    /// The train loader of this rank: its share of each batch of config.batch images.
    LoaderOptions trainLoader(const run::TrainConfig& config) const;

private:
    std::unique_ptr<DistributedContext> m_context;
    bool m_published = false;
};

/// A rank other than 0: waits for rank 0's run, reads the training data with `readData` (core/job reads
/// the project), trains on this rank's shard, logs to <run>/rank<N>.log and passes `failed` events on to
/// `events`.
Expected<TrainResult> trainProjectRank(const std::function<Expected<ProjectData>()>& readData,
                                       run::TrainConfig config, run::EventSink& events,
                                       const std::atomic<bool>* stop, DistributedJob& job);

} // namespace osprey::train
