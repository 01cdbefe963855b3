#pragma once
// The torch interface of core/model (for its LibTorch consumers, core/train): the detector networks as
// torch::nn modules. core/train builds its loss on DetectionModel::forwardRaw() and the head's geometry
// (strides, reg_max, anchors). Modules are not thread-safe; use one per thread or guard them.

#include "model/blocks_torch_impl.h"
#include "model/detector.h"

#include <torch/torch.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace osprey::model {

/// Number of DFL bins per box side.
inline constexpr int kRegMax = 16;

/// DFL: softmax over the bins of each side, then the expectation through a fixed 1x1 conv whose weights
/// are 0..reg_max-1 ("conv.weight", requires_grad false).
class Dfl : public torch::nn::Module {
public:
    explicit Dfl(int bins = kRegMax);
    /// [N, 4*bins, A] logits -> [N, 4, A] distances in stride units.
    torch::Tensor forward(const torch::Tensor& x);

private:
    int m_bins;
    std::shared_ptr<PlainConv> m_conv;
};

/// Which class branch the head uses.
enum class HeadStyle {
    V8,  ///< 3x3 Conv, 3x3 Conv, 1x1 conv
    V11, ///< (depthwise 3x3, 1x1) twice, then 1x1 conv
};

/// The anchor-free Detect head on P3/P4/P5: a box branch (cv2, 4*reg_max outputs) and a class branch
/// (cv3, nc outputs) per level, and the DFL decoder when reg_max > 1. YOLO26's head (reg_max 1, no DFL: the
/// box outputs are the ltrb distances) is end-to-end: a second, identical pair of branches (one2one_cv2,
/// one2one_cv3) on detached features is trained one-to-one and read without NMS (spec yolo26 §2).
class Detect : public torch::nn::Module {
public:
    Detect(int numClasses, const std::vector<int>& channels, std::vector<int> strides, HeadStyle style,
           int regMax = kRegMax, bool endToEnd = false);

    /// The one-to-many branch per level [N, 4*reg_max + nc, H, W]: box outputs first, then class logits.
    std::vector<torch::Tensor> forwardRaw(const std::vector<torch::Tensor>& features);
    /// The one-to-one branch of an end-to-end head, on the features detached (its loss never reaches the
    /// backbone), in forwardRaw's layout.
    std::vector<torch::Tensor> forwardRawOneToOne(const std::vector<torch::Tensor>& features);
    /// [N, 4 + nc, A]: cx, cy, w, h in input pixels, then sigmoid class scores.
    torch::Tensor decode(const std::vector<torch::Tensor>& raw);
    /// The end-to-end output of one-to-one maps: [N, k, 6] = x1, y1, x2, y2 (input pixels), score, class, by
    /// descending score, k = min(maxDet, anchors). Each anchor's best score picks the top k anchors, then the
    /// top k of their (anchor, class) scores; an anchor may come back with several classes. No NMS.
    torch::Tensor decodeEndToEnd(const std::vector<torch::Tensor>& raw, int maxDet);
    /// Box biases 2.0, class biases log(5 / nc / (640 / stride)^2), as the recipe prescribes (both branches).
    void initBiases();
    /// Drops one branch of an end-to-end head (inference after fusing, as Ultralytics' fuse does).
    void dropBranch(bool keepOneToOne);

    int numClasses() const { return m_numClasses; }
    int regMax() const { return m_regMax; }
    bool endToEnd() const { return !m_o2oBox.empty(); }
    bool hasOneToMany() const { return !m_box.empty(); }
    const std::vector<int>& strides() const { return m_strides; }
    const std::vector<int>& channels() const { return m_channels; }

private:
    using Branch = std::vector<std::shared_ptr<SequentialBlock>>;
    static std::vector<torch::Tensor> run(const Branch& box, const Branch& cls,
                                          const std::vector<torch::Tensor>& features);
    /// Every level's maps as [N, 4 + nc, A]: ltrb distances in grid units (through the DFL when reg_max >
    /// 1), then class logits.
    torch::Tensor flatten(const std::vector<torch::Tensor>& raw) const;

    int m_numClasses;
    int m_regMax;
    std::vector<int> m_channels;
    std::vector<int> m_strides;
    Branch m_box, m_cls;       ///< one-to-many (cv2, cv3)
    Branch m_o2oBox, m_o2oCls; ///< one-to-one (one2one_cv2, one2one_cv3); empty unless end-to-end
    std::shared_ptr<Dfl> m_dfl;
};

/// Anchor points at cell centres (grid units, [A, 2] as x, y) and their strides ([A, 1]) for the given
/// per-level maps, level after level in row-major order.
std::pair<torch::Tensor, torch::Tensor> makeAnchors(const std::vector<torch::Tensor>& maps,
                                                    const std::vector<int>& strides, double offset = 0.5);

/// ltrb distances [N, 4, A] around anchor points [A, 2] -> [N, 4, A] as cx, cy, w, h (same units).
torch::Tensor distancesToXywh(const torch::Tensor& distances, const torch::Tensor& anchors);

/// Both outputs of one forward pass. `decoded` is undefined when the model is in training mode.
struct DetectorOutput {
    std::vector<torch::Tensor> raw;
    torch::Tensor decoded;
};

/// The per-level maps of both branches of a head (Detect::forwardRaw's layout); `oneToOne` is empty for a
/// head that is not end-to-end, `oneToMany` for an end-to-end head fused for one-to-one inference.
struct HeadMaps {
    std::vector<torch::Tensor> oneToMany, oneToOne;
};

/// A YOLOv8 / YOLO11 detection network whose state_dict names match Ultralytics' DetectionModel
/// ("model.<layer>.<...>"). Input: float [N, 3, H, W], RGB in 0..1, H and W multiples of 32.
class DetectionModel : public torch::nn::Module {
public:
    explicit DetectionModel(const ModelSpec& spec);

    /// Training-mode output: the raw per-level maps (see Detect::forwardRaw), for the loss.
    std::vector<torch::Tensor> forwardRaw(const torch::Tensor& images);
    /// Inference output [N, 4 + nc, A] (see Detect::decode).
    torch::Tensor forwardDecoded(const torch::Tensor& images);
    /// Raw maps always; decoded too when not training (validation needs both).
    DetectorOutput forward(const torch::Tensor& images);
    /// Both branches' maps of one pass (the backbone runs once): YOLO26 trains on both.
    HeadMaps forwardHeads(const torch::Tensor& images);
    /// End-to-end output [N, k, 6] of the one-to-one branch (Detect::decodeEndToEnd); YOLO26 only.
    torch::Tensor forwardEndToEnd(const torch::Tensor& images, int maxDet = 300);

    /// Folds BatchNorm into the convolutions. An end-to-end head keeps both branches, or only `keep`.
    void fuse(std::optional<HeadBranch> keep = std::nullopt);
    bool fused() const { return m_fused; }
    /// Stores the convolution weights channels-last (NHWC) and runs inputs in that layout. oneDNN's CPU
    /// convolutions then skip their layout reorders: training steps about 1.5x faster on this machine's
    /// CPU (tests/bench/train/bench_train). Outputs equal the contiguous network's to float rounding.
    /// Call before an optimiser or EMA takes the parameters; fuse() keeps the layout.
    void setChannelsLast(bool enabled);
    bool channelsLast() const { return m_channelsLast; }

    const ModelSpec& spec() const { return m_spec; }
    const std::vector<int>& strides() const { return m_detect->strides(); }
    int numClasses() const { return m_spec.numClasses; }
    Detect& head() { return *m_detect; }
    const std::vector<LayerInfo>& layers() const { return m_layers; }

    /// Names and tensors in PyTorch state_dict order (parameters and buffers, shared storage).
    std::vector<std::pair<std::string, torch::Tensor>> stateDict() const;
    /// Names of the head's class-branch tensors (cv3.*, and YOLO26's one2one_cv3.*): their shapes depend on
    /// nc.
    std::vector<std::string> classBranchNames() const;

    // ---- building (used by the family builders in yolov8.cpp / yolo11.cpp) ---------------------------
    int addBlock(std::vector<int> from, int repeats, std::string type, std::string arguments,
                 std::shared_ptr<UnaryModule> block);
    int addUpsample();
    int addConcat(std::vector<int> from);
    int addDetect(std::vector<int> from, std::shared_ptr<Detect> detect);
    /// Records layer `index`'s YAML row (LayerInfo::yamlRepeats, yamlArgs).
    void setYamlRow(int index, int repeats, std::string arguments);

private:
    enum class Kind { Block, Upsample, Concat, Detect };
    struct Node {
        Kind kind;
        std::vector<int> from;
        std::shared_ptr<UnaryModule> block;
    };
    int addNode(Node node, LayerInfo info, std::shared_ptr<torch::nn::Module> module);
    std::vector<torch::Tensor> runBackbone(const torch::Tensor& images);

    ModelSpec m_spec;
    torch::nn::ModuleList m_model{nullptr};
    std::vector<Node> m_nodes;
    std::vector<LayerInfo> m_layers;
    std::shared_ptr<Detect> m_detect;
    bool m_fused = false;
    bool m_channelsLast = false;
};

/// Family builders: append the layers of the family at `model.spec()` scale.
void buildYoloV8(DetectionModel& model);
void buildYolo11(DetectionModel& model);
void buildYolo26(DetectionModel& model);

/// The torch module behind a public Detector.
struct Detector::Impl {
    std::shared_ptr<DetectionModel> model;
};

} // namespace osprey::model
