#pragma once
// The torch interface of core/model (for its LibTorch consumers, core/train): the building blocks of the
// YOLOv8 and YOLO11 networks as torch::nn modules. Member names follow the Ultralytics modules (conv, bn,
// cv1, m, attn, ...) so that state_dict names match 1:1. Modules are not thread-safe; use one per thread or
// guard them.

#include <torch/torch.h>

#include <functional>
#include <memory>
#include <vector>

namespace osprey::model {

// ---- FLOP counting ---------------------------------------------------------------------------------

/// Counts operations during forward passes on the calling thread while alive, with thop's rules (as
/// Ultralytics reports GFLOPs = 2 x this count): convolution multiply-accumulates, 4 per BatchNorm
/// element (normalise + affine), 1 per nearest-upsampled output element; pools, activations and the
/// attention matmuls count nothing. Used by Detector::gflops(); nesting is not supported.
class OpCounterScope {
public:
    OpCounterScope();
    ~OpCounterScope();
    OpCounterScope(const OpCounterScope&) = delete;
    OpCounterScope& operator=(const OpCounterScope&) = delete;
    double ops() const { return m_ops; }

private:
    double m_ops = 0;
};

/// Adds to the active OpCounterScope on this thread, if any.
void countOps(double ops);

// ---- Modules ---------------------------------------------------------------------------------------

/// A module with one tensor in and one tensor out; lets containers hold mixed block kinds.
class UnaryModule : public torch::nn::Module {
public:
    virtual torch::Tensor forward(const torch::Tensor& x) = 0;
};

/// nn.Sequential of unary blocks: children named "0", "1", ... and applied in order. Unlike
/// torch::nn::Sequential it nests.
class SequentialBlock : public UnaryModule {
public:
    void append(std::shared_ptr<UnaryModule> block);
    torch::Tensor forward(const torch::Tensor& x) override;
    size_t size() const { return m_items.size(); }
    const std::shared_ptr<UnaryModule>& at(size_t index) const { return m_items[index]; }

private:
    std::vector<std::shared_ptr<UnaryModule>> m_items;
};

/// nn.Conv2d with "same" padding (k / 2): parameters "weight" and, optionally, "bias".
class PlainConv : public UnaryModule {
public:
    PlainConv(int inChannels, int outChannels, int kernel, int stride = 1, int groups = 1, bool bias = false);
    torch::Tensor forward(const torch::Tensor& x) override;
    /// Adds (or replaces) the bias parameter; used by Conv+BN fusion.
    void setBias(const torch::Tensor& bias);

    torch::Tensor weight;
    torch::Tensor bias;
    int inChannels = 0, outChannels = 0, kernel = 1, stride = 1, groups = 1;
};

/// Whether a Conv block ends in SiLU.
enum class Activation { None, SiLU };

/// Ultralytics Conv: Conv2d without bias, BatchNorm2d (eps 1e-3, momentum 0.03), SiLU.
/// After fuse() the BatchNorm is folded into the convolution and removed from the module.
class Conv : public UnaryModule {
public:
    Conv(int c1, int c2, int kernel = 1, int stride = 1, int groups = 1, Activation act = Activation::SiLU);
    torch::Tensor forward(const torch::Tensor& x) override;
    void fuse();
    bool fused() const { return m_fused; }
    Activation activation() const { return m_act; }

    std::shared_ptr<PlainConv> conv;
    torch::nn::BatchNorm2d bn{nullptr};
    /// When set, called instead of bn->forward (core/train's SyncBN in data-parallel training).
    std::function<torch::Tensor(torch::nn::BatchNorm2dImpl&, const torch::Tensor&)> normalize;

private:
    Activation m_act;
    bool m_fused = false;
};

/// Standard bottleneck: cv1 (k1), cv2 (k2), residual when requested and c1 == c2.
class Bottleneck : public UnaryModule {
public:
    Bottleneck(int c1, int c2, bool shortcut, int k1, int k2, double expansion);
    torch::Tensor forward(const torch::Tensor& x) override;
    bool residual() const { return m_add; } ///< adds the input to the output

private:
    std::shared_ptr<Conv> m_cv1, m_cv2;
    bool m_add;
};

/// The inner block a C2f-style module repeats.
enum class C2fInner {
    Bottleneck,     ///< C2f: Bottleneck(c, c, e=1.0)
    HalfBottleneck, ///< C3k2 with c3k=False: Bottleneck(c, c, e=0.5)
    C3k,            ///< C3k2 with c3k=True: C3k(c, c, n=2)
    AttnBottleneck, ///< C3k2 with attn=True (YOLO26's last block): Bottleneck(c, c, e=0.5), then PSABlock
};

/// C2f and C3k2: cv1 to 2c, split, n inner blocks chained on the second half, concat, cv2.
class C2f : public UnaryModule {
public:
    C2f(int c1, int c2, int n, bool shortcut, double expansion, C2fInner inner);
    torch::Tensor forward(const torch::Tensor& x) override;

private:
    std::shared_ptr<Conv> m_cv1, m_cv2;
    std::vector<std::shared_ptr<UnaryModule>> m_blocks;
};

/// C3k: CSP block with two 1x1 branches and a Sequential of k x k bottlenecks.
class C3k : public UnaryModule {
public:
    C3k(int c1, int c2, int n, bool shortcut, double expansion, int kernel);
    torch::Tensor forward(const torch::Tensor& x) override;

private:
    std::shared_ptr<Conv> m_cv1, m_cv2, m_cv3;
    std::shared_ptr<SequentialBlock> m_m;
};

/// SPPF: cv1 (1x1; SiLU as in the published weights, none as Ultralytics >= 8.4.0 builds it), three
/// chained max-pools, concat, cv2; with `shortcut` (YOLO26) the input is added when c1 == c2.
class Sppf : public UnaryModule {
public:
    Sppf(int c1, int c2, int kernel, Activation cv1Act = Activation::SiLU, bool shortcut = false);
    torch::Tensor forward(const torch::Tensor& x) override;
    int kernel() const { return m_kernel; }
    bool residual() const { return m_add; }

private:
    std::shared_ptr<Conv> m_cv1, m_cv2;
    int m_kernel;
    bool m_add;
};

/// Multi-head self-attention over the spatial positions, with a depthwise positional conv (pe).
class Attention : public UnaryModule {
public:
    Attention(int dim, int numHeads, double attnRatio);
    torch::Tensor forward(const torch::Tensor& x) override;
    int numHeads() const { return m_numHeads; }
    int keyDim() const { return m_keyDim; }
    int headDim() const { return m_headDim; }
    double scale() const { return m_scale; }

private:
    int m_numHeads, m_keyDim, m_headDim;
    double m_scale;
    std::shared_ptr<Conv> m_qkv, m_proj, m_pe;
};

/// PSABlock: x + attn(x), then x + ffn(x).
class PsaBlock : public UnaryModule {
public:
    PsaBlock(int channels, double attnRatio, int numHeads);
    torch::Tensor forward(const torch::Tensor& x) override;

private:
    std::shared_ptr<Attention> m_attn;
    std::shared_ptr<SequentialBlock> m_ffn;
};

/// C2PSA: cv1, split, n PSABlocks on the second half, concat, cv2 (c1 == c2).
class C2Psa : public UnaryModule {
public:
    C2Psa(int c1, int c2, int n, double expansion);
    torch::Tensor forward(const torch::Tensor& x) override;

private:
    int m_hidden;
    std::shared_ptr<Conv> m_cv1, m_cv2;
    std::shared_ptr<SequentialBlock> m_m;
};

/// Folds every Conv's BatchNorm under `root` into its convolution. Idempotent.
void fuseConvBn(torch::nn::Module& root);

} // namespace osprey::model
