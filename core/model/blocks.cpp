#include "model/blocks_torch_impl.h"

#include "model/batch_norm_silu_torch_impl.h"
#include "model/conv_weight_grad_torch_impl.h"

#include <algorithm>
#include <cmath>

namespace osprey::model {

namespace {

thread_local double* tOps = nullptr;

} // namespace

OpCounterScope::OpCounterScope() {
    tOps = &m_ops;
}
OpCounterScope::~OpCounterScope() {
    tOps = nullptr;
}

void countOps(double ops) {
    if (tOps)
        *tOps += ops;
}

void SequentialBlock::append(std::shared_ptr<UnaryModule> block) {
    register_module(std::to_string(m_items.size()), block);
    m_items.push_back(std::move(block));
}

torch::Tensor SequentialBlock::forward(const torch::Tensor& x) {
    torch::Tensor y = x;
    for (const auto& item : m_items)
        y = item->forward(y);
    return y;
}

PlainConv::PlainConv(int inChannels_, int outChannels_, int kernel_, int stride_, int groups_, bool withBias)
    : inChannels(inChannels_), outChannels(outChannels_), kernel(kernel_), stride(stride_), groups(groups_) {
    // Same default initialisation as nn.Conv2d: kaiming_uniform(a=sqrt(5)), bias U(-1/sqrt(fan_in), ..).
    weight = register_parameter("weight", torch::empty({outChannels, inChannels / groups, kernel, kernel}));
    torch::nn::init::kaiming_uniform_(weight, std::sqrt(5.0));
    if (withBias) {
        const double bound = 1.0 / std::sqrt(static_cast<double>(inChannels / groups * kernel * kernel));
        bias = register_parameter("bias", torch::empty({outChannels}).uniform_(-bound, bound));
    }
}

torch::Tensor PlainConv::forward(const torch::Tensor& x) {
    // On a CPU without AVX-512, training in float32, the weight gradient is Osprey's own kernel's.
    auto y = convWeightGradApplies(x, weight, groups, bias)
                 ? conv2dWeightGrad(x, weight, stride, kernel / 2)
                 : torch::conv2d(x, weight, bias, stride, kernel / 2, 1, groups);
    if (tOps)
        *tOps += static_cast<double>(y.numel()) * (inChannels / groups) * kernel * kernel;
    return y;
}

void PlainConv::setBias(const torch::Tensor& value) {
    if (bias.defined()) {
        torch::NoGradGuard noGrad;
        bias.copy_(value);
        return;
    }
    bias = register_parameter("bias", value.clone());
}

Conv::Conv(int c1, int c2, int kernel, int stride, int groups, Activation act) : m_act(act) {
    conv = register_module("conv", std::make_shared<PlainConv>(c1, c2, kernel, stride, groups, false));
    bn = register_module("bn",
                         torch::nn::BatchNorm2d(torch::nn::BatchNorm2dOptions(c2).eps(1e-3).momentum(0.03)));
}

torch::Tensor Conv::forward(const torch::Tensor& x) {
    auto y = conv->forward(x);
    if (!m_fused) {
        if (tOps)
            *tOps += 4.0 * static_cast<double>(y.numel());
        // Dense convolutions only: with the node after YOLO26's depthwise ones too, yolo26n trained to a
        // lower mAP in eight paired runs of eight (docs/threads.md), a deficit no test of the node explains.
        if (!normalize && m_act == Activation::SiLU && conv->groups == 1 && batchNormSiluEnabled() &&
            batchNormSiluApplies(*bn, y))
            return batchNormSilu(*bn, y);
        y = normalize ? normalize(*bn, y) : bn->forward(y);
    }
    return m_act == Activation::SiLU ? torch::silu(y) : y;
}

void Conv::fuse() {
    if (m_fused)
        return;
    torch::NoGradGuard noGrad;
    const auto& options = bn->options;
    const auto scale = bn->weight / torch::sqrt(bn->running_var + options.eps());
    conv->weight.mul_(scale.view({-1, 1, 1, 1}));
    conv->setBias(bn->bias - bn->running_mean * scale);
    unregister_module("bn");
    bn = torch::nn::BatchNorm2d{nullptr};
    m_fused = true;
}

Bottleneck::Bottleneck(int c1, int c2, bool shortcut, int k1, int k2, double expansion)
    : m_add(shortcut && c1 == c2) {
    const int hidden = static_cast<int>(c2 * expansion);
    m_cv1 = register_module("cv1", std::make_shared<Conv>(c1, hidden, k1));
    m_cv2 = register_module("cv2", std::make_shared<Conv>(hidden, c2, k2));
}

torch::Tensor Bottleneck::forward(const torch::Tensor& x) {
    auto y = m_cv2->forward(m_cv1->forward(x));
    return m_add ? x + y : y;
}

C2f::C2f(int c1, int c2, int n, bool shortcut, double expansion, C2fInner inner) {
    const int hidden = static_cast<int>(c2 * expansion);
    m_cv1 = register_module("cv1", std::make_shared<Conv>(c1, 2 * hidden, 1));
    m_cv2 = register_module("cv2", std::make_shared<Conv>((2 + n) * hidden, c2, 1));
    auto list = register_module("m", torch::nn::ModuleList());
    for (int i = 0; i < n; ++i) {
        std::shared_ptr<UnaryModule> block;
        switch (inner) {
        case C2fInner::Bottleneck:
            block = std::make_shared<Bottleneck>(hidden, hidden, shortcut, 3, 3, 1.0);
            break;
        case C2fInner::HalfBottleneck:
            block = std::make_shared<Bottleneck>(hidden, hidden, shortcut, 3, 3, 0.5);
            break;
        case C2fInner::C3k:
            block = std::make_shared<C3k>(hidden, hidden, 2, shortcut, 0.5, 3);
            break;
        case C2fInner::AttnBottleneck: {
            auto pair = std::make_shared<SequentialBlock>();
            pair->append(std::make_shared<Bottleneck>(hidden, hidden, shortcut, 3, 3, 0.5));
            pair->append(std::make_shared<PsaBlock>(hidden, 0.5, std::max(hidden / 64, 1)));
            block = pair;
            break;
        }
        }
        list->push_back(block);
        m_blocks.push_back(block);
    }
}

torch::Tensor C2f::forward(const torch::Tensor& x) {
    auto parts = m_cv1->forward(x).chunk(2, 1);
    std::vector<torch::Tensor> ys(parts.begin(), parts.end());
    for (const auto& block : m_blocks)
        ys.push_back(block->forward(ys.back()));
    return m_cv2->forward(torch::cat(ys, 1));
}

C3k::C3k(int c1, int c2, int n, bool shortcut, double expansion, int kernel) {
    const int hidden = static_cast<int>(c2 * expansion);
    m_cv1 = register_module("cv1", std::make_shared<Conv>(c1, hidden, 1));
    m_cv2 = register_module("cv2", std::make_shared<Conv>(c1, hidden, 1));
    m_cv3 = register_module("cv3", std::make_shared<Conv>(2 * hidden, c2, 1));
    m_m = register_module("m", std::make_shared<SequentialBlock>());
    for (int i = 0; i < n; ++i)
        m_m->append(std::make_shared<Bottleneck>(hidden, hidden, shortcut, kernel, kernel, 1.0));
}

torch::Tensor C3k::forward(const torch::Tensor& x) {
    return m_cv3->forward(torch::cat({m_m->forward(m_cv1->forward(x)), m_cv2->forward(x)}, 1));
}

Sppf::Sppf(int c1, int c2, int kernel, Activation cv1Act, bool shortcut)
    : m_kernel(kernel), m_add(shortcut && c1 == c2) {
    const int hidden = c1 / 2;
    m_cv1 = register_module("cv1", std::make_shared<Conv>(c1, hidden, 1, 1, 1, cv1Act));
    m_cv2 = register_module("cv2", std::make_shared<Conv>(hidden * 4, c2, 1));
}

torch::Tensor Sppf::forward(const torch::Tensor& x) {
    std::vector<torch::Tensor> ys{m_cv1->forward(x)};
    for (int i = 0; i < 3; ++i)
        ys.push_back(torch::max_pool2d(ys.back(), m_kernel, 1, m_kernel / 2));
    auto y = m_cv2->forward(torch::cat(ys, 1));
    return m_add ? y + x : y;
}

Attention::Attention(int dim, int numHeads, double attnRatio)
    : m_numHeads(numHeads), m_keyDim(static_cast<int>(dim / numHeads * attnRatio)),
      m_headDim(dim / numHeads) {
    m_scale = 1.0 / std::sqrt(static_cast<double>(m_keyDim));
    const int qkvChannels = dim + 2 * m_keyDim * numHeads;
    m_qkv = register_module("qkv", std::make_shared<Conv>(dim, qkvChannels, 1, 1, 1, Activation::None));
    m_proj = register_module("proj", std::make_shared<Conv>(dim, dim, 1, 1, 1, Activation::None));
    m_pe = register_module("pe", std::make_shared<Conv>(dim, dim, 3, 1, dim, Activation::None));
}

torch::Tensor Attention::forward(const torch::Tensor& x) {
    const auto batch = x.size(0), channels = x.size(1), height = x.size(2), width = x.size(3);
    const auto qkv = m_qkv->forward(x).reshape({batch, m_numHeads, 2 * m_keyDim + m_headDim, height * width});
    const auto parts = qkv.split_with_sizes({m_keyDim, m_keyDim, m_headDim}, 2);
    const auto& q = parts[0];
    const auto& k = parts[1];
    const auto& v = parts[2];
    const auto attn = (torch::matmul(q.transpose(-2, -1), k) * m_scale).softmax(-1);
    auto y = torch::matmul(v, attn.transpose(-2, -1)).view({batch, channels, height, width});
    y = y + m_pe->forward(v.reshape({batch, channels, height, width}));
    return m_proj->forward(y);
}

PsaBlock::PsaBlock(int channels, double attnRatio, int numHeads) {
    m_attn = register_module("attn", std::make_shared<Attention>(channels, numHeads, attnRatio));
    m_ffn = register_module("ffn", std::make_shared<SequentialBlock>());
    m_ffn->append(std::make_shared<Conv>(channels, channels * 2, 1));
    m_ffn->append(std::make_shared<Conv>(channels * 2, channels, 1, 1, 1, Activation::None));
}

torch::Tensor PsaBlock::forward(const torch::Tensor& x) {
    const auto y = x + m_attn->forward(x);
    return y + m_ffn->forward(y);
}

C2Psa::C2Psa(int c1, int c2, int n, double expansion) : m_hidden(static_cast<int>(c1 * expansion)) {
    m_cv1 = register_module("cv1", std::make_shared<Conv>(c1, 2 * m_hidden, 1));
    m_cv2 = register_module("cv2", std::make_shared<Conv>(2 * m_hidden, c2, 1));
    m_m = register_module("m", std::make_shared<SequentialBlock>());
    for (int i = 0; i < n; ++i)
        m_m->append(std::make_shared<PsaBlock>(m_hidden, 0.5, m_hidden / 64));
}

torch::Tensor C2Psa::forward(const torch::Tensor& x) {
    const auto parts = m_cv1->forward(x).split(m_hidden, 1);
    return m_cv2->forward(torch::cat({parts[0], m_m->forward(parts[1])}, 1));
}

void fuseConvBn(torch::nn::Module& root) {
    if (auto* self = dynamic_cast<Conv*>(&root))
        self->fuse();
    for (const auto& module : root.modules(/*include_self=*/false))
        if (auto conv = std::dynamic_pointer_cast<Conv>(module))
            conv->fuse();
}

} // namespace osprey::model
