#pragma once
// Data-parallel training over PyTorch's c10d: where a process sits in a job (the torchrun environment),
// the rendezvous store (TCPStore) and the collective group (Gloo on the CPU, NCCL on GPUs). The engine's
// use of the group (weights broadcast, gradient buckets, BatchNorm buffers) is in distributed_impl.h.
// No torch in this header.
//
// Thread affinity: a DistributedContext is used from the training thread only. LaunchStore is used by
// the launcher's supervising thread.

#include "common/expected.h"

#include <memory>
#include <optional>
#include <string>

namespace osprey::train {

/// This process's place in a job, as torchrun (or SLURM via the same variables) describes it.
struct RankInfo {
    int rank = 0;           ///< RANK: 0 .. worldSize-1; rank 0 validates and writes the run
    int worldSize = 1;      ///< WORLD_SIZE
    int localRank = 0;      ///< LOCAL_RANK: index on this machine (chooses the GPU)
    int localWorldSize = 1; ///< LOCAL_WORLD_SIZE: ranks on this machine (divides the CPU threads)
    std::string masterAddr = "127.0.0.1"; ///< MASTER_ADDR: where the store listens
    int masterPort = 29500;               ///< MASTER_PORT
    /// TORCHELASTIC_USE_AGENT_STORE=True: the launcher (torchrun, or osprey-cli's own) hosts the store
    /// and rank 0 connects to it like the others; otherwise rank 0 hosts it.
    bool agentStore = false;
    int attempt = 0; ///< TORCHELASTIC_RESTART_COUNT: keys of earlier attempts are not reused
};

/// The variables a launcher sets: RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR,
/// MASTER_PORT. nullopt when WORLD_SIZE is unset; an error naming the variable when one is malformed or
/// inconsistent (RANK outside 0..WORLD_SIZE-1, RANK set without WORLD_SIZE, ...).
Expected<std::optional<RankInfo>> rankInfoFromEnvironment();

/// The collective backend: Gloo for CPU tensors, NCCL for CUDA tensors (CUDA builds with c10d NCCL).
enum class CommBackend { Gloo, Nccl };

/// Whether this LibTorch build has NCCL in c10d (the pip CUDA wheel does, Debian's CPU LibTorch not).
bool ncclAvailable();

/// A rank connected to the job: the store, and after startGroup() the collective group.
class DistributedContext {
public:
    /// Connects to the store (rank 0 hosts it at MASTER_PORT unless agentStore). Waits up to
    /// `timeoutS` for the store; the error says which rank could not reach which address.
    static Expected<std::unique_ptr<DistributedContext>> connect(const RankInfo& info, double timeoutS);
    ~DistributedContext();

    const RankInfo& info() const;
    int rank() const { return info().rank; }
    int worldSize() const { return info().worldSize; }
    bool isMain() const { return info().rank == 0; }

    /// Every rank publishes `description` (one "key=value" per line) under `what`, and each compares it
    /// with rank 0's: on a difference every rank fails with a message naming the rank and the first
    /// line that differs. Waits up to `timeoutS` for the other ranks.
    Status checkSameOnAllRanks(const std::string& what, const std::string& description, double timeoutS);

    /// Joins the collective group: Gloo over the interface that reaches MASTER_ADDR (or GLOO_SOCKET_IFNAME),
    /// or NCCL on `cudaDevice`. Collectives time out after `timeoutS`.
    Status startGroup(CommBackend backend, int cudaDevice, double timeoutS);
    CommBackend backend() const;

    /// Store values under this job's prefix. get() waits up to `timeoutS` for the key.
    Status set(const std::string& key, const std::string& value);
    Expected<std::string> get(const std::string& key, double timeoutS);

    /// What the supervising launcher recorded about a rank that died (key "failure"), waiting up to
    /// `timeoutS` for it; empty when there is none.
    std::string supervisorFailure(double timeoutS);

    struct Impl;
    Impl& impl() { return *m_impl; }

private:
    explicit DistributedContext(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

/// The store osprey-cli's launcher hosts for its workers (as torchrun's agent does): a TCPStore server on
/// `address`, on a port the system chooses, so that no port is raced for. The workers get
/// TORCHELASTIC_USE_AGENT_STORE=True.
class LaunchStore {
public:
    static Expected<std::unique_ptr<LaunchStore>> host(const std::string& address);
    ~LaunchStore();
    int port() const;
    /// Keys under the workers' prefix (attempt 0).
    void set(const std::string& key, const std::string& value);
    std::optional<std::string> tryGet(const std::string& key);

    struct Impl;

private:
    explicit LaunchStore(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace osprey::train
