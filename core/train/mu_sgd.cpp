#include "train/mu_sgd_impl.h"

#include <torch/optim/serialize.h>
#include <torch/version.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>
#include <type_traits>

namespace osprey::train {

namespace {

constexpr double kNewtonSchulzA = 3.4445;
constexpr double kNewtonSchulzB = -4.7750;
constexpr double kNewtonSchulzC = 2.0315;
constexpr int kNewtonSchulzSteps = 5;
constexpr double kNewtonSchulzEps = 1e-7;
/// A batch of matrices spans at most this ratio of row counts, bounding the zero padding.
constexpr int64_t kMaxRowRatio = 16;
constexpr double kClassBranchLrFactor = 3.0;

/// The optimiser's state map is keyed by the parameter's TensorImpl: as its address printed to a string in
/// LibTorch 1.x, as the pointer itself in 2.x.
template <typename Map> typename Map::key_type stateKey(const torch::Tensor& param) {
    using Key = typename Map::key_type;
    if constexpr (std::is_same_v<Key, std::string>) {
        std::ostringstream text;
        text << param.unsafeGetTensorImpl();
        return text.str();
    } else {
        return static_cast<Key>(param.unsafeGetTensorImpl());
    }
}

template <typename T> void readArg(torch::serialize::InputArchive& archive, const char* key, T& value) {
    c10::IValue ivalue;
    if (archive.try_read(key, ivalue))
        value = ivalue.to<T>();
}

void readTensor(torch::serialize::InputArchive& archive, const char* key, torch::Tensor& value) {
    c10::IValue ivalue;
    if (archive.try_read(key, ivalue))
        value = ivalue.toTensor();
}

void writeTensor(torch::serialize::OutputArchive& archive, const char* key, const torch::Tensor& value) {
    if (value.defined())
        archive.write(key, c10::IValue(value));
}

bool isNormLayer(torch::nn::Module& module) {
    return dynamic_cast<torch::nn::BatchNorm1dImpl*>(&module) ||
           dynamic_cast<torch::nn::BatchNorm2dImpl*>(&module) ||
           dynamic_cast<torch::nn::BatchNorm3dImpl*>(&module) ||
           dynamic_cast<torch::nn::LayerNormImpl*>(&module) ||
           dynamic_cast<torch::nn::GroupNormImpl*>(&module) ||
           dynamic_cast<torch::nn::InstanceNorm1dImpl*>(&module) ||
           dynamic_cast<torch::nn::InstanceNorm2dImpl*>(&module) ||
           dynamic_cast<torch::nn::InstanceNorm3dImpl*>(&module);
}

bool underAny(const std::string& name, const std::vector<std::string>& modules) {
    return std::any_of(modules.begin(), modules.end(), [&](const std::string& module) {
        return name.size() > module.size() && name.compare(0, module.size(), module) == 0 &&
               name[module.size()] == '.';
    });
}

struct Collected {
    std::vector<std::pair<std::string, torch::Tensor>> byRole[4];
};

// Depth-first, a module's own parameters before its children's, as Python's named_modules walks.
void collect(torch::nn::Module& module, const std::string& prefix, Collected& out) {
    const bool norm = isNormLayer(module);
    for (const auto& item : module.named_parameters(/*recurse=*/false)) {
        const std::string name = prefix.empty() ? item.key() : prefix + "." + item.key();
        const auto& param = item.value();
        MuSgdGroup::Role role = MuSgdGroup::Role::Weight;
        if (param.dim() == 2 || param.dim() == 4)
            role = MuSgdGroup::Role::Muon;
        else if (name.find("bias") != std::string::npos)
            role = MuSgdGroup::Role::Bias;
        else if (norm)
            role = MuSgdGroup::Role::Norm;
        out.byRole[static_cast<int>(role)].emplace_back(name, param);
    }
    for (const auto& child : module.named_children())
        collect(*child.value(), prefix.empty() ? child.key() : prefix + "." + child.key(), out);
}

} // namespace

MuSgdOptions::MuSgdOptions(double lr) : lr_(lr) {}

void MuSgdOptions::serialize(torch::serialize::OutputArchive& archive) const {
    archive.write("lr", c10::IValue(lr()));
    archive.write("momentum", c10::IValue(momentum()));
    archive.write("weight_decay", c10::IValue(weightDecay()));
    archive.write("nesterov", c10::IValue(nesterov()));
    archive.write("use_muon", c10::IValue(useMuon()));
}

void MuSgdOptions::serialize(torch::serialize::InputArchive& archive) {
    readArg(archive, "lr", lr());
    readArg(archive, "momentum", momentum());
    readArg(archive, "weight_decay", weightDecay());
    readArg(archive, "nesterov", nesterov());
    readArg(archive, "use_muon", useMuon());
}

void MuSgdParamState::serialize(torch::serialize::OutputArchive& archive) const {
    writeTensor(archive, "momentum_buffer", momentumBuffer());
    writeTensor(archive, "momentum_buffer_SGD", momentumBufferSgd());
}

void MuSgdParamState::serialize(torch::serialize::InputArchive& archive) {
    readTensor(archive, "momentum_buffer", momentumBuffer());
    readTensor(archive, "momentum_buffer_SGD", momentumBufferSgd());
}

MuSgd::MuSgd(std::vector<torch::optim::OptimizerParamGroup> groups, MuSgdOptions defaults)
    : Optimizer(std::vector<torch::optim::OptimizerParamGroup>{}, std::make_unique<MuSgdOptions>(defaults)) {
    // LibTorch 2.9+ merges a group's options into the defaults only for its own optimisers' option types and
    // gives any other type's groups the bare defaults, which dropped every group's lr, momentum and Muon
    // flag (found by tst_mu_sgd against pip's torch). So each group gets its own options back here.
    for (const auto& group : groups) {
        add_param_group(group);
        if (group.has_options())
            param_groups().back().set_options(group.options().clone());
    }
}

torch::Tensor MuSgd::step(LossClosure closure) {
    torch::Tensor loss;
    if (closure) {
        torch::AutoGradMode enableGrad(true);
        loss = closure();
    }
    torch::NoGradGuard noGrad;
    using StateMap = std::decay_t<decltype(state())>;
    for (auto& group : param_groups()) {
        const auto& options = static_cast<const MuSgdOptions&>(group.options());
        std::vector<torch::Tensor> params, grads, muonBuffers, sgdBuffers;
        for (const auto& param : group.params()) {
            if (!param.grad().defined())
                continue;
            auto& slot = state()[stateKey<StateMap>(param)];
            if (!slot) {
                auto fresh = std::make_unique<MuSgdParamState>();
                fresh->momentumBuffer(torch::zeros_like(param));
                if (options.useMuon())
                    fresh->momentumBufferSgd(torch::zeros_like(param));
                slot = std::move(fresh);
            }
            auto& paramState = static_cast<MuSgdParamState&>(*slot);
            params.push_back(param);
            grads.push_back(param.grad());
            muonBuffers.push_back(paramState.momentumBuffer());
            if (options.useMuon())
                sgdBuffers.push_back(paramState.momentumBufferSgd());
        }
        if (params.empty())
            continue;
        double lr = options.lr();
        const double momentum = options.momentum();
        std::vector<torch::Tensor>* buffers = &muonBuffers;
        if (options.useMuon()) {
            const auto updates = muonUpdates(grads, muonBuffers, momentum, options.nesterov());
            at::_foreach_add_(params, updates, -(lr * kMuonScale));
            buffers = &sgdBuffers;
            lr *= kSgdScale;
        }
        // The SGD step, on the weights the Muon step has already moved.
        if (options.weightDecay() != 0)
            grads = at::_foreach_add(grads, params, options.weightDecay());
        at::_foreach_mul_(*buffers, momentum);
        at::_foreach_add_(*buffers, grads);
        const auto updates = options.nesterov() ? at::_foreach_add(grads, *buffers, momentum) : *buffers;
        at::_foreach_add_(params, updates, -lr);
    }
    return loss;
}

void MuSgd::save(torch::serialize::OutputArchive& archive) const {
    torch::optim::serialize<MuSgdParamState, MuSgdOptions>(archive, *this);
}

void MuSgd::load(torch::serialize::InputArchive& archive) {
    torch::optim::serialize<MuSgdParamState, MuSgdOptions>(archive, *this);
}

const MuSgdParamState* MuSgd::paramState(const torch::Tensor& param) const {
    using StateMap = std::decay_t<decltype(state())>;
    const auto found = state().find(stateKey<StateMap>(param));
    return found == state().end() ? nullptr : static_cast<const MuSgdParamState*>(found->second.get());
}

#if TORCH_VERSION_MAJOR >= 2
// LibTorch 2: bfloat16 tensors and ops, as Ultralytics runs them (each op accumulates in float32 and rounds
// its result once to bfloat16).
torch::Tensor newtonSchulz5(const torch::Tensor& matrices) {
    const auto rows = matrices.size(-2), cols = matrices.size(-1);
    auto x = matrices.reshape({-1, rows, cols}).to(torch::kBFloat16);
    const int64_t lastTwo[] = {-2, -1};
    x = x / (at::linalg_vector_norm(x, 2, at::IntArrayRef(lastTwo), true) + kNewtonSchulzEps);
    const bool transposed = rows > cols;
    if (transposed)
        x = x.transpose(-2, -1);
    for (int i = 0; i < kNewtonSchulzSteps; ++i) {
        const auto a = torch::matmul(x, x.transpose(-2, -1));
        const auto b = at::baddbmm(a, a, a, kNewtonSchulzB, kNewtonSchulzC);
        x = at::baddbmm(x, b, x, kNewtonSchulzA, 1.0);
    }
    if (transposed)
        x = x.transpose(-2, -1);
    return x.reshape(matrices.sizes());
}
#else
// LibTorch 1.x's bfloat16 matmul rounds its partial sums to bfloat16 (A = X X^T of a rank-1 matrix came out
// 2 bf16 steps off, and the update 4 % off Ultralytics'); LibTorch 2 accumulates in float32 and rounds the
// result once. So here every op computes in float32 on bfloat16 values and rounds its result to bfloat16,
// which reproduces LibTorch 2's numbers (bit for bit on the parity test's small matrices).
namespace {
torch::Tensor roundToBf16(const torch::Tensor& values) {
    return values.to(torch::kBFloat16).to(torch::kFloat);
}
} // namespace

torch::Tensor newtonSchulz5(const torch::Tensor& matrices) {
    const auto rows = matrices.size(-2), cols = matrices.size(-1);
    auto x = roundToBf16(matrices.reshape({-1, rows, cols}).to(torch::kFloat));
    const int64_t lastTwo[] = {-2, -1};
    const auto norm = roundToBf16(at::linalg_vector_norm(x, 2, at::IntArrayRef(lastTwo), true));
    x = roundToBf16(x / roundToBf16(norm + kNewtonSchulzEps));
    const bool transposed = rows > cols;
    if (transposed)
        x = x.transpose(-2, -1);
    for (int i = 0; i < kNewtonSchulzSteps; ++i) {
        const auto a = roundToBf16(torch::matmul(x, x.transpose(-2, -1)));
        const auto b = roundToBf16(kNewtonSchulzB * a + kNewtonSchulzC * torch::matmul(a, a));
        x = roundToBf16(kNewtonSchulzA * x + torch::matmul(b, x));
    }
    if (transposed)
        x = x.transpose(-2, -1);
    return x.reshape(matrices.sizes()).to(torch::kBFloat16);
}
#endif

std::vector<torch::Tensor> muonUpdates(const std::vector<torch::Tensor>& grads,
                                       const std::vector<torch::Tensor>& momentumBuffers, double beta,
                                       bool nesterov) {
    at::_foreach_mul_(momentumBuffers, beta);
    at::_foreach_add_(momentumBuffers, grads, 1 - beta);
    std::vector<torch::Tensor> updates;
    if (nesterov) {
        updates = at::_foreach_mul(momentumBuffers, beta);
        at::_foreach_add_(updates, grads, 1 - beta);
    } else {
        updates = momentumBuffers;
    }

    // Each update as a matrix [out, rest] in its own memory order (NCHW or channels-last), so that the
    // result can be written back as a view; buckets by column count, scale, device and dtype, in first-seen
    // order.
    struct Item {
        size_t index;
        torch::Tensor matrix;
        std::optional<std::vector<int64_t>> strides;
    };
    struct Bucket {
        int64_t cols;
        double scale;
        torch::Device device;
        torch::ScalarType dtype;
        std::vector<Item> items;
    };
    std::vector<Bucket> buckets;
    for (size_t i = 0; i < updates.size(); ++i) {
        const auto& u = updates[i];
        const bool dense = u.is_contiguous();
        const bool channelsLast =
            !dense && u.dim() == 4 && u.is_contiguous(torch::MemoryFormat::ChannelsLast);
        const auto matrix =
            channelsLast ? u.permute({0, 2, 3, 1}).flatten(1) : (u.dim() > 2 ? u.flatten(1) : u.contiguous());
        const double ratio = static_cast<double>(grads[i].size(-2)) / static_cast<double>(grads[i].size(-1));
        const double scale = std::pow(std::max(1.0, ratio), 0.5);
        std::optional<std::vector<int64_t>> strides;
        if (dense || channelsLast)
            strides = u.strides().vec();
        auto bucket = std::find_if(buckets.begin(), buckets.end(), [&](const Bucket& b) {
            return b.cols == matrix.size(1) && b.scale == scale && b.device == matrix.device() &&
                   b.dtype == matrix.scalar_type();
        });
        if (bucket == buckets.end())
            bucket = buckets.insert(buckets.end(),
                                    Bucket{matrix.size(1), scale, matrix.device(), matrix.scalar_type(), {}});
        bucket->items.push_back({i, matrix, std::move(strides)});
    }
    for (auto& bucket : buckets) {
        auto& items = bucket.items;
        std::stable_sort(items.begin(), items.end(),
                         [](const Item& a, const Item& b) { return a.matrix.size(0) > b.matrix.size(0); });
        size_t start = 0;
        for (size_t j = 1; j <= items.size(); ++j) {
            if (j < items.size() && items[start].matrix.size(0) <= kMaxRowRatio * items[j].matrix.size(0))
                continue;
            const auto count = static_cast<int64_t>(j - start);
            auto batch = torch::zeros({count, items[start].matrix.size(0), bucket.cols},
                                      torch::TensorOptions(bucket.dtype).device(bucket.device));
            for (size_t k = start; k < j; ++k)
                batch[static_cast<int64_t>(k - start)]
                    .narrow(0, 0, items[k].matrix.size(0))
                    .add_(items[k].matrix);
            batch = newtonSchulz5(batch)
                        .contiguous()
                        .to(grads[items[start].index].scalar_type())
                        .mul_(bucket.scale);
            for (size_t k = start; k < j; ++k) {
                const auto& item = items[k];
                const auto x = batch[static_cast<int64_t>(k - start)].narrow(0, 0, item.matrix.size(0));
                const auto shape = grads[item.index].sizes();
                updates[item.index] = item.strides ? x.as_strided(shape, *item.strides) : x.reshape(shape);
            }
            start = j;
        }
    }
    return updates;
}

std::vector<MuSgdGroup> muSgdGroups(torch::nn::Module& model, const std::vector<std::string>& boostedModules,
                                    double lr, double weightDecay) {
    Collected collected;
    collect(model, "", collected);
    std::vector<MuSgdGroup> groups;
    for (const auto role :
         {MuSgdGroup::Role::Weight, MuSgdGroup::Role::Norm, MuSgdGroup::Role::Bias, MuSgdGroup::Role::Muon}) {
        const bool decays = role == MuSgdGroup::Role::Weight || role == MuSgdGroup::Role::Muon;
        MuSgdGroup boosted{role, true, {}, {}, lr * kClassBranchLrFactor, decays ? weightDecay : 0.0};
        MuSgdGroup plain{role, false, {}, {}, lr, decays ? weightDecay : 0.0};
        for (const auto& [name, param] : collected.byRole[static_cast<int>(role)]) {
            auto& group = underAny(name, boostedModules) ? boosted : plain;
            group.names.push_back(name);
            group.params.push_back(param);
        }
        groups.push_back(std::move(boosted));
        groups.push_back(std::move(plain));
    }
    return groups;
}

std::vector<torch::optim::OptimizerParamGroup> toParamGroups(const std::vector<MuSgdGroup>& groups,
                                                             double momentum) {
    std::vector<torch::optim::OptimizerParamGroup> out;
    for (const auto& group : groups) {
        auto options = std::make_unique<MuSgdOptions>(group.lr);
        options->momentum(momentum)
            .weightDecay(group.weightDecay)
            .nesterov(true)
            .useMuon(group.role == MuSgdGroup::Role::Muon);
        out.emplace_back(group.params, std::move(options));
    }
    return out;
}

} // namespace osprey::train
