#pragma once
// osprey-cli train's own launcher for data-parallel training on one machine (what torchrun does, for
// the common case): `device=0,1` starts one worker per GPU (NCCL), `device=cpu workers_per_node=2` two CPU
// workers (Gloo). It hosts the rendezvous store on a free loopback port, starts this program again once
// per rank with the torchrun environment set, and supervises: when a worker dies, the others are
// stopped, the run is marked failed with the dead rank and its last words, and last.pt stays.

#include "run/train_config.h"

#include <string>

namespace osprey::cli {

/// Worker processes to start for `config`: 0 to train in this process (one device, or a launcher such
/// as torchrun already set RANK/WORLD_SIZE). An error names a bad device/workers_per_node pairing.
Expected<int> localWorkerCount(const run::TrainConfig& config);

/// Starts `workers` copies of this osprey-cli (the same arguments) as ranks 0..workers-1 and supervises
/// them until all have ended. Rank 0's stdout and stderr are this process's (events=jsonl keeps working);
/// the other ranks' stderr lines are passed on prefixed with "rank N: ". Returns the exit code.
int launchLocalWorkers(int workers, const run::TrainConfig& config, const std::string& projectFolder);

} // namespace osprey::cli
