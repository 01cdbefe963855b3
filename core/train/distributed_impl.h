#pragma once
// Private to core/train: the c10d objects behind DistributedContext, and DataParallel, what the training
// loop does with them (DDP's behaviour, written out): rank 0's weights broadcast at the start, BatchNorm
// buffers broadcast from rank 0 before each forward, gradients summed over the ranks in ~25 MB buckets
// before each optimiser step, agreed stop and early-stop decisions, and a weights checksum at the end.
// Used from the training thread only.

#include "train/distributed.h"

#include <torch/torch.h>

#include <torch/csrc/distributed/c10d/Store.hpp>
#if defined(OSPREY_C10D_GLOO)
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif
#if defined(OSPREY_C10D_NCCL)
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include <cstdint>
#include <vector>

namespace osprey::train {

// The one c10d difference between LibTorch 1.13 and 2.x that Osprey meets: the backends (Gloo, NCCL)
// derive from c10d::ProcessGroup in 1.13 and from c10d::Backend in 2.x; their collectives are called alike.
#if TORCH_VERSION_MAJOR >= 2
using CollectiveGroup = c10d::Backend;
#else
using CollectiveGroup = c10d::ProcessGroup;
#endif

struct DistributedContext::Impl {
    RankInfo info;
    c10::intrusive_ptr<c10d::Store> store; ///< prefixed with the job's attempt
    c10::intrusive_ptr<CollectiveGroup> group;
    CommBackend backend = CommBackend::Gloo;
    double communicationS = 0; ///< time spent in collectives (the benchmark's overhead figure)

    /// In place, from rank 0; `tensor` must be contiguous.
    void broadcast(torch::Tensor& tensor);
    /// In place, summed over the ranks; launched together, then waited for in order.
    void allreduceSum(std::vector<torch::Tensor>& tensors);
};

/// The data-parallel side of one training run.
class DataParallel {
public:
    /// `model` is the trained network; `bucketBytes` the gradient bucket size (DDP's 25 MB).
    DataParallel(DistributedContext& context, torch::nn::Module& model,
                 std::int64_t bucketBytes = 25LL * 1024 * 1024);

    DistributedContext& context() { return m_context; }
    /// Overwrites every parameter and floating buffer of `module` with rank 0's.
    void broadcastModule(torch::nn::Module& module);
    /// BatchNorm running statistics of the trained network from rank 0 (before each forward, as DDP).
    void broadcastBuffers();
    /// Sums the gradients over the ranks. Each rank's loss is its batch share times its mean loss, so the
    /// sum is the gradient of the whole batch (Ultralytics: loss x world size, averaged by DDP).
    void allreduceGradients();
    /// True on every rank when any rank asked to stop.
    bool anyRank(bool local);
    /// The same, and in the same collective every rank's `value` (its images/s), indexed by rank.
    bool anyRank(bool local, double value, std::vector<double>& values);
    /// Rank 0's `value` on every rank.
    std::int64_t fromMain(std::int64_t value);
    /// FNV-1a over the bytes of `modules`' parameters, in order.
    static std::uint64_t checksum(const std::vector<torch::nn::Module*>& modules);
    double communicationS() const { return m_context.impl().communicationS; }

private:
    DistributedContext& m_context;
    std::vector<torch::Tensor> m_floatBuffers;
    std::vector<std::vector<torch::Tensor>> m_buckets; ///< parameters, in reverse order as DDP
};

} // namespace osprey::train
