#include "train/distributed_impl.h"

#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <chrono>
#include <cstdlib>
#include <sstream>

namespace osprey::train {

namespace {

using Clock = std::chrono::steady_clock;

std::chrono::milliseconds millis(double seconds) {
    return std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0));
}

std::string describeError(const std::exception& error) {
    if (const auto* torchError = dynamic_cast<const c10::Error*>(&error))
        return torchError->what_without_backtrace();
    return error.what();
}

// An integer environment variable; nullopt when unset.
Expected<std::optional<int>> intVariable(const char* name) {
    const char* text = std::getenv(name);
    if (!text || !*text)
        return std::optional<int>();
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (*end != '\0' || value < 0 || value > 1000000)
        return fail(std::string("environment: ") + name + "='" + text +
                    "' is not a non-negative integer (set by the launcher: torchrun, SLURM or osprey-cli)");
    return std::optional<int>(static_cast<int>(value));
}

std::string storePrefix(int attempt) {
    return "osprey/" + std::to_string(attempt) + "/";
}

c10d::TCPStoreOptions storeOptions(int port, bool server, int workers, double timeoutS) {
    c10d::TCPStoreOptions options;
    options.port = static_cast<std::uint16_t>(port);
    options.isServer = server;
    options.numWorkers = static_cast<std::size_t>(workers);
    options.waitWorkers = false;
    options.timeout = millis(timeoutS);
    return options;
}

// The first line where rank `other`'s description differs from rank 0's, with both values.
std::string firstDifference(const std::string& other, const std::string& main, int otherRank) {
    std::istringstream a(other), b(main);
    std::string lineA, lineB;
    while (true) {
        const bool moreA = static_cast<bool>(std::getline(a, lineA));
        const bool moreB = static_cast<bool>(std::getline(b, lineB));
        if (!moreA && !moreB)
            return {};
        if (!moreA)
            lineA = "(nothing)";
        if (!moreB)
            lineB = "(nothing)";
        if (lineA != lineB)
            return lineA + " on rank " + std::to_string(otherRank) + ", " + lineB + " on rank 0";
    }
}

} // namespace

Expected<std::optional<RankInfo>> rankInfoFromEnvironment() {
    auto world = intVariable("WORLD_SIZE");
    if (!world)
        return fail(world.error());
    auto rank = intVariable("RANK");
    if (!rank)
        return fail(rank.error());
    if (!world.value()) {
        if (rank.value())
            return fail("environment: RANK is set but WORLD_SIZE is not; a launcher sets both");
        return std::optional<RankInfo>();
    }
    RankInfo info;
    info.worldSize = **world;
    if (info.worldSize < 1)
        return fail("environment: WORLD_SIZE=0; it counts the processes of the job and must be at least 1");
    info.rank = rank.value().value_or(0);
    if (info.rank >= info.worldSize)
        return fail("environment: RANK=" + std::to_string(info.rank) + " is outside 0.." +
                    std::to_string(info.worldSize - 1) + " (WORLD_SIZE=" + std::to_string(info.worldSize) +
                    ")");
    for (const auto& [name, field] :
         {std::pair{"LOCAL_RANK", &info.localRank}, std::pair{"LOCAL_WORLD_SIZE", &info.localWorldSize},
          std::pair{"TORCHELASTIC_RESTART_COUNT", &info.attempt}}) {
        auto value = intVariable(name);
        if (!value)
            return fail(value.error());
        if (value.value())
            *field = **value;
    }
    if (!std::getenv("LOCAL_RANK"))
        info.localRank = info.rank;
    if (!std::getenv("LOCAL_WORLD_SIZE"))
        info.localWorldSize = info.worldSize;
    if (info.localWorldSize < 1 || info.localRank >= info.localWorldSize)
        return fail("environment: LOCAL_RANK=" + std::to_string(info.localRank) + " is outside 0.." +
                    std::to_string(info.localWorldSize - 1) + " (LOCAL_WORLD_SIZE)");
    if (const char* address = std::getenv("MASTER_ADDR"); address && *address)
        info.masterAddr = address;
    auto port = intVariable("MASTER_PORT");
    if (!port)
        return fail(port.error());
    if (port.value()) {
        if (**port < 1 || **port > 65535)
            return fail("environment: MASTER_PORT=" + std::to_string(**port) +
                        " is not a TCP port (1-65535)");
        info.masterPort = **port;
    }
    const char* agent = std::getenv("TORCHELASTIC_USE_AGENT_STORE");
    info.agentStore = agent && std::string(agent) == "True";
    return std::optional<RankInfo>(info);
}

bool ncclAvailable() {
#if defined(OSPREY_C10D_NCCL)
    return true;
#else
    return false;
#endif
}

// ---- DistributedContext --------------------------------------------------------------------------------

DistributedContext::DistributedContext(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
DistributedContext::~DistributedContext() = default;

const RankInfo& DistributedContext::info() const {
    return m_impl->info;
}

CommBackend DistributedContext::backend() const {
    return m_impl->backend;
}

Expected<std::unique_ptr<DistributedContext>> DistributedContext::connect(const RankInfo& info,
                                                                          double timeoutS) {
    const bool server = info.rank == 0 && !info.agentStore;
    const std::string where = info.masterAddr + ":" + std::to_string(info.masterPort);
    auto impl = std::make_unique<Impl>();
    impl->info = info;
    try {
        auto store = c10::make_intrusive<c10d::TCPStore>(
            info.masterAddr, storeOptions(info.masterPort, server, info.worldSize, timeoutS));
        impl->store = c10::make_intrusive<c10d::PrefixStore>(storePrefix(info.attempt), store);
    } catch (const std::exception& error) {
        const std::string reason = describeError(error);
        if (server)
            return fail("rank 0: cannot host the rendezvous store on " + where + ": " + reason +
                        " (is the port in use? choose another MASTER_PORT)");
        return fail("rank " + std::to_string(info.rank) + ": cannot reach the rendezvous store at " + where +
                    " within " + std::to_string(static_cast<int>(timeoutS)) + " s: " + reason +
                    " (is rank 0 started, and are MASTER_ADDR and MASTER_PORT right?)");
    }
    return std::unique_ptr<DistributedContext>(new DistributedContext(std::move(impl)));
}

Status DistributedContext::set(const std::string& key, const std::string& value) {
    try {
        m_impl->store->set(key, std::vector<std::uint8_t>(value.begin(), value.end()));
        return {};
    } catch (const std::exception& error) {
        return fail("rank " + std::to_string(rank()) + ": rendezvous store: cannot set " + key + ": " +
                    describeError(error));
    }
}

Expected<std::string> DistributedContext::get(const std::string& key, double timeoutS) {
    try {
        m_impl->store->wait({key}, millis(timeoutS));
        const auto bytes = m_impl->store->get(key);
        return std::string(bytes.begin(), bytes.end());
    } catch (const std::exception& error) {
        return fail("rank " + std::to_string(rank()) + ": waited " +
                    std::to_string(static_cast<int>(timeoutS)) + " s for '" + key +
                    "' in the rendezvous store at " + info().masterAddr + ":" +
                    std::to_string(info().masterPort) + ": " + describeError(error));
    }
}

Status DistributedContext::checkSameOnAllRanks(const std::string& what, const std::string& description,
                                               double timeoutS) {
    // Rank 0 compares and publishes the verdict; it waits for every rank to have read it before it may
    // exit (its process holds the store when it hosts it).
    if (auto status = set(what + "/" + std::to_string(rank()), description); !status)
        return status;
    const std::string where = info().masterAddr + ":" + std::to_string(info().masterPort);
    if (rank() != 0) {
        auto verdict = get(what + "/verdict", timeoutS);
        if (!verdict)
            return fail("rank " + std::to_string(rank()) + ": no word from rank 0 through the store at " +
                        where + ": " + verdict.message());
        (void)set(what + "/read/" + std::to_string(rank()), "1");
        if (verdict.value() != "ok")
            return fail(verdict.value());
        return {};
    }
    std::string verdict;
    for (int other = 1; other < worldSize() && verdict.empty(); ++other) {
        auto theirs = get(what + "/" + std::to_string(other), timeoutS);
        if (!theirs) {
            verdict = "rank 0: rank " + std::to_string(other) + " of " + std::to_string(worldSize()) +
                      " did not join within " + std::to_string(static_cast<int>(timeoutS)) + " s (no " +
                      what + " from it in the store at " + where +
                      "; is it started, with the same MASTER_ADDR and " + "MASTER_PORT?)";
            break;
        }
        const std::string difference = firstDifference(theirs.value(), description, other);
        if (!difference.empty())
            verdict = "rank " + std::to_string(other) + "'s " + what +
                      " differs from rank 0's: " + difference +
                      "; start every rank with the same Osprey and the same arguments";
    }
    (void)set(what + "/verdict", verdict.empty() ? "ok" : verdict);
    for (int other = 1; other < worldSize(); ++other)
        (void)get(what + "/read/" + std::to_string(other), verdict.empty() ? timeoutS : 10);
    if (!verdict.empty())
        return fail(verdict);
    return {};
}

Status DistributedContext::startGroup(CommBackend backend, int cudaDevice, double timeoutS) {
    m_impl->backend = backend;
    const auto store = c10::make_intrusive<c10d::PrefixStore>("group/", m_impl->store);
    try {
        if (backend == CommBackend::Nccl) {
#if defined(OSPREY_C10D_NCCL)
            (void)cudaDevice; // NCCL follows the device of the tensors it is given
            auto options = c10d::ProcessGroupNCCL::Options::create();
            options->timeout = millis(timeoutS);
            m_impl->group = c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank(), worldSize(), options);
            return {};
#else
            (void)cudaDevice;
            return fail("this osprey-cli's LibTorch has no NCCL in c10d (Debian's LibTorch is CPU-only); "
                        "build against pip's CUDA torch (docs/cuda.md), or train on device=cpu with Gloo");
#endif
        }
#if defined(OSPREY_C10D_GLOO)
        auto options = c10d::ProcessGroupGloo::Options::create();
        options->timeout = millis(timeoutS);
        const char* interface = std::getenv("GLOO_SOCKET_IFNAME");
        const std::string& address = info().masterAddr;
        if (interface && *interface)
            options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(interface));
        else if (address == "127.0.0.1" || address == "localhost" || address == "::1")
            options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
        else
            options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
        m_impl->group = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank(), worldSize(), options);
        return {};
#else
        return fail("this osprey-cli was built without c10d Gloo (install libgloo-dev and rebuild)");
#endif
    } catch (const std::exception& error) {
        return fail("rank " + std::to_string(rank()) + ": cannot join the " +
                    (backend == CommBackend::Nccl ? "NCCL" : "Gloo") + " group of " +
                    std::to_string(worldSize()) + " ranks: " + describeError(error));
    }
}

std::string DistributedContext::supervisorFailure(double timeoutS) {
    try {
        m_impl->store->wait({"failure"}, millis(timeoutS));
        const auto bytes = m_impl->store->get("failure");
        return std::string(bytes.begin(), bytes.end());
    } catch (const std::exception&) {
        return {}; // no supervisor, or it recorded nothing: the rank's own error is all there is
    }
}

void DistributedContext::Impl::broadcast(torch::Tensor& tensor) {
    const auto start = Clock::now();
    std::vector<at::Tensor> tensors{tensor};
    c10d::BroadcastOptions options;
    options.rootRank = 0;
    group->broadcast(tensors, options)->wait();
    communicationS += std::chrono::duration<double>(Clock::now() - start).count();
}

void DistributedContext::Impl::allreduceSum(std::vector<torch::Tensor>& tensors) {
    const auto start = Clock::now();
    std::vector<std::vector<at::Tensor>> inputs;
    inputs.reserve(tensors.size());
    std::vector<decltype(group->allreduce(inputs.back()))> works;
    for (auto& tensor : tensors) {
        inputs.push_back({tensor});
        works.push_back(group->allreduce(inputs.back()));
    }
    for (auto& work : works)
        work->wait();
    communicationS += std::chrono::duration<double>(Clock::now() - start).count();
}

// ---- LaunchStore ---------------------------------------------------------------------------------------

struct LaunchStore::Impl {
    c10::intrusive_ptr<c10d::TCPStore> server;
    c10::intrusive_ptr<c10d::Store> store;
};

LaunchStore::LaunchStore(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
LaunchStore::~LaunchStore() = default;

Expected<std::unique_ptr<LaunchStore>> LaunchStore::host(const std::string& address) {
    auto impl = std::make_unique<Impl>();
    try {
        impl->server = c10::make_intrusive<c10d::TCPStore>(address, storeOptions(0, true, 1, 30));
        impl->store = c10::make_intrusive<c10d::PrefixStore>(storePrefix(0), impl->server);
    } catch (const std::exception& error) {
        return fail("cannot host the rendezvous store on " + address + ": " + describeError(error));
    }
    return std::unique_ptr<LaunchStore>(new LaunchStore(std::move(impl)));
}

int LaunchStore::port() const {
    return m_impl->server->getPort();
}

void LaunchStore::set(const std::string& key, const std::string& value) {
    try {
        m_impl->store->set(key, std::vector<std::uint8_t>(value.begin(), value.end()));
    } catch (const std::exception&) {
        // The store is this process's own server; a failure here leaves the workers' own errors.
    }
}

std::optional<std::string> LaunchStore::tryGet(const std::string& key) {
    try {
        if (!m_impl->store->check({key}))
            return std::nullopt;
        const auto bytes = m_impl->store->get(key);
        return std::string(bytes.begin(), bytes.end());
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// ---- DataParallel --------------------------------------------------------------------------------------

namespace {

torch::Tensor flatten(const std::vector<torch::Tensor>& tensors) {
    std::vector<torch::Tensor> flat;
    flat.reserve(tensors.size());
    for (const auto& tensor : tensors)
        flat.push_back(tensor.detach().reshape(-1));
    return torch::cat(flat);
}

void unflatten(const torch::Tensor& flat, const std::vector<torch::Tensor>& tensors) {
    torch::NoGradGuard noGrad;
    std::int64_t offset = 0;
    for (const auto& tensor : tensors) {
        const auto count = tensor.numel();
        tensor.detach().copy_(flat.narrow(0, offset, count).view_as(tensor));
        offset += count;
    }
}

} // namespace

DataParallel::DataParallel(DistributedContext& context, torch::nn::Module& model, std::int64_t bucketBytes)
    : m_context(context) {
    for (const auto& buffer : model.buffers())
        if (buffer.is_floating_point())
            m_floatBuffers.push_back(buffer);
    auto parameters = model.parameters();
    std::int64_t bytes = 0;
    for (auto it = parameters.rbegin(); it != parameters.rend(); ++it) {
        if (!it->requires_grad())
            continue;
        if (m_buckets.empty() || bytes >= bucketBytes || m_buckets.back().front().dtype() != it->dtype()) {
            m_buckets.emplace_back();
            bytes = 0;
        }
        m_buckets.back().push_back(*it);
        bytes += it->numel() * static_cast<std::int64_t>(it->element_size());
    }
}

void DataParallel::broadcastModule(torch::nn::Module& module) {
    std::vector<torch::Tensor> tensors;
    for (const auto& parameter : module.parameters())
        tensors.push_back(parameter);
    for (const auto& buffer : module.buffers())
        if (buffer.is_floating_point())
            tensors.push_back(buffer);
    if (tensors.empty())
        return;
    auto flat = flatten(tensors);
    m_context.impl().broadcast(flat);
    unflatten(flat, tensors);
}

void DataParallel::broadcastBuffers() {
    if (m_floatBuffers.empty())
        return;
    auto flat = flatten(m_floatBuffers);
    m_context.impl().broadcast(flat);
    unflatten(flat, m_floatBuffers);
}

void DataParallel::allreduceGradients() {
    std::vector<torch::Tensor> flats;
    flats.reserve(m_buckets.size());
    for (const auto& bucket : m_buckets) {
        std::vector<torch::Tensor> grads;
        grads.reserve(bucket.size());
        for (const auto& parameter : bucket)
            grads.push_back(parameter.grad().defined() ? parameter.grad() : torch::zeros_like(parameter));
        flats.push_back(flatten(grads));
    }
    m_context.impl().allreduceSum(flats);
    for (size_t i = 0; i < m_buckets.size(); ++i) {
        std::vector<torch::Tensor> grads;
        for (auto& parameter : m_buckets[i]) {
            if (!parameter.grad().defined())
                parameter.mutable_grad() = torch::zeros_like(parameter);
            grads.push_back(parameter.grad());
        }
        unflatten(flats[i], grads);
    }
}

bool DataParallel::anyRank(bool local) {
    const auto device = m_buckets.empty() ? torch::Device(torch::kCPU) : m_buckets.front().front().device();
    std::vector<torch::Tensor> flag{
        torch::full({1}, local ? 1 : 0, torch::TensorOptions().dtype(torch::kInt).device(device))};
    m_context.impl().allreduceSum(flag);
    return flag.front().item<int>() > 0;
}

bool DataParallel::anyRank(bool local, double value, std::vector<double>& values) {
    // One small all-reduce: slot 0 counts the stop requests, slot 1 + r holds rank r's value (the
    // others add zeros), so the per-batch throughput needs no collective of its own.
    const auto device = m_buckets.empty() ? torch::Device(torch::kCPU) : m_buckets.front().front().device();
    auto slots = torch::zeros({1 + m_context.worldSize()}, torch::TensorOptions().dtype(torch::kDouble));
    slots[0] = local ? 1.0 : 0.0;
    slots[1 + m_context.rank()] = value;
    std::vector<torch::Tensor> tensors{slots.to(device)};
    m_context.impl().allreduceSum(tensors);
    const auto host = tensors.front().to(torch::kCPU).contiguous();
    const auto* data = host.data_ptr<double>();
    values.assign(data + 1, data + 1 + m_context.worldSize());
    return data[0] > 0;
}

std::int64_t DataParallel::fromMain(std::int64_t value) {
    const auto device = m_buckets.empty() ? torch::Device(torch::kCPU) : m_buckets.front().front().device();
    auto tensor = torch::full({1}, value, torch::TensorOptions().dtype(torch::kLong).device(device));
    m_context.impl().broadcast(tensor);
    return tensor.item<std::int64_t>();
}

std::uint64_t DataParallel::checksum(const std::vector<torch::nn::Module*>& modules) {
    std::uint64_t hash = 1469598103934665603ULL;
    for (auto* module : modules)
        for (const auto& parameter : module->parameters()) {
            const auto host = parameter.detach().to(torch::kCPU).contiguous();
            const auto* bytes = static_cast<const unsigned char*>(host.data_ptr());
            const auto size = static_cast<size_t>(host.numel()) * host.element_size();
            for (size_t i = 0; i < size; ++i) {
                hash ^= bytes[i];
                hash *= 1099511628211ULL;
            }
        }
    return hash;
}

} // namespace osprey::train
