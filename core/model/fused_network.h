#pragma once
// A torch-free description of a fused detector: every block of the network with its kind, its settings
// and its float32 weights, in Ultralytics' module names, plus a plain-float forward pass. It is how modules
// that must not include LibTorch (core/export writes ONNX from it) see the network. Built from a fused
// Detector (BatchNorm folded); a copy, so later changes to the detector do not show.

#include "common/expected.h"
#include "model/detector.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace osprey::model {

/// A float32 tensor copied out of the network, row-major.
struct FusedTensor {
    std::vector<std::int64_t> shape;
    std::vector<float> values;
    bool empty() const { return values.empty(); }
};

/// One block of the fused network.
struct FusedBlock {
    enum class Kind {
        Conv,       ///< Ultralytics Conv with BatchNorm folded: a convolution, then SiLU when `silu`
        PlainConv,  ///< a bare nn.Conv2d (the head's last 1x1 convolutions)
        Bottleneck, ///< cv1, cv2, plus the input when `residual`
        C3k,        ///< cv1 -> m (sequence); cv2; concat; cv3
        C2f,        ///< cv1, split in halves, m (list) chained on the second half, concat, cv2 (also C3k2)
        Sppf,       ///< cv1, three max-pools of `poolKernel`, concat, cv2
        Attention,  ///< qkv, multi-head attention over positions, + pe(v), proj
        PsaBlock,   ///< x + attn(x), then + ffn(x)
        C2Psa,      ///< cv1, split, m (sequence of PsaBlock) on the second half, concat, cv2
        Sequence,   ///< children applied in order ("0", "1", ...)
        List        ///< children held but not applied in order by themselves (C2f's m)
    };
    Kind kind = Kind::Sequence;
    std::string type; ///< the C++ block's name, for messages

    // Conv, PlainConv: "same" padding (kernel / 2).
    std::int64_t inChannels = 0, outChannels = 0, kernel = 1, stride = 1, groups = 1;
    bool silu = false;
    FusedTensor weight, bias; ///< bias empty when the convolution has none

    bool residual = false;                           ///< Bottleneck; Sppf (YOLO26: adds its input)
    std::int64_t poolKernel = 0;                     ///< Sppf
    std::int64_t heads = 0, keyDim = 0, headDim = 0; ///< Attention
    double scale = 0;                                ///< Attention: keyDim^-0.5

    std::vector<std::pair<std::string, FusedBlock>> children; ///< in registration order
    /// The child named `name`, or nullptr.
    const FusedBlock* child(const std::string& name) const;
};

/// The Detect head: per level a box branch (4 * regMax outputs) and a class branch (nc outputs), then the
/// DFL when regMax > 1. With regMax 1 (YOLO26) the box outputs are the ltrb distances in grid units. A
/// YOLO26 head is described with the one branch the fused detector kept (Detector::fuse's HeadBranch).
struct FusedHead {
    std::vector<int> strides;
    int numClasses = 0;
    int regMax = 0;
    bool oneToOne = false; ///< the branches are YOLO26's one-to-one pair (one2one_cv2, one2one_cv3)
    std::vector<FusedBlock> boxBranches, classBranches; ///< one Sequence per level
    FusedTensor dflWeight;                              ///< [regMax] bin values; empty when regMax is 1
};

/// One layer of the layer table: a block, "Upsample" (nearest, x2), "Concat" (channels) or "Detect".
struct FusedLayer {
    std::string type;      ///< as in LayerInfo::type
    std::vector<int> from; ///< input layers; -1 is the previous layer
    FusedBlock block;      ///< for block layers
};

struct FusedNetwork {
    std::vector<FusedLayer> layers; ///< the last one is "Detect"
    FusedHead head;
};

/// Describes `detector`, which must be fused. Errors name the layer that cannot be described.
Expected<FusedNetwork> describeFused(const Detector& detector);

/// Rounds every parameter to float16 precision and back, as a file that stores float16 weights holds them.
void roundParametersToHalf(Detector& detector);

/// The decoded inference output of one image: `image` is planar RGB in 0..1, [3, side, side] (side a
/// multiple of 32); the result is [4 + nc, A] row-major (cx, cy, w, h in input pixels, then class scores),
/// with A in `anchors`. `branch` OneToOne decodes a YOLO26 head's one-to-one branch the same way (before its
/// top-k); it fails for a head without that branch.
Expected<std::vector<float>> forwardDecoded(Detector& detector, const std::vector<float>& image, int side,
                                            std::int64_t* anchors = nullptr,
                                            HeadBranch branch = HeadBranch::OneToMany);

} // namespace osprey::model
