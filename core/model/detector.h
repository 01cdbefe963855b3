#pragma once
// The public face of a detector network: build one from a ModelSpec and ask for its layers, parameter
// count and GFLOPs. No torch types leak out (pimpl); core/train reaches the torch module through
// detector_torch_impl.h. A Detector is not thread-safe: use it from one thread at a time.

#include "common/expected.h"
#include "model/detection.h"
#include "model/model_spec.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace osprey::model {

/// One row of the layer table, in Ultralytics' `model.info()` layout.
struct LayerInfo {
    int index = 0;
    std::vector<int> from;   ///< input layers; -1 is the previous layer
    int repeats = 1;         ///< n after the depth multiplier
    std::int64_t params = 0; ///< parameters of this layer
    std::string type;        ///< "Conv", "C2f", "C3k2", "SPPF", "C2PSA", "Upsample", "Concat", "Detect"
    std::string arguments;   ///< constructor arguments, e.g. "[16, 32, 3, 2]"
    /// The row as the family's Ultralytics YAML writes it, before the scale's rules: repeats and
    /// arguments as a Python literal (e.g. 1 and "[64, 3, 2]", or 1 and "[None, 2, 'nearest']").
    int yamlRepeats = 1;
    std::string yamlArgs;
};

/// One state_dict entry: name and shape (empty shape for a scalar such as num_batches_tracked).
struct TensorEntry {
    std::string name;
    std::vector<std::int64_t> shape;
};

/// A YOLOv8, YOLO11 or YOLO26 network on the CPU, freshly initialised as the recipe prescribes.
class Detector {
public:
    /// Builds the network. Fails only for an invalid spec (e.g. nc < 1) or when torch fails.
    static Expected<Detector> create(const ModelSpec& spec);

    Detector(Detector&&) noexcept;
    Detector& operator=(Detector&&) noexcept;
    ~Detector();

    const ModelSpec& spec() const;
    std::vector<LayerInfo> layers() const;
    /// All parameters, the fixed DFL weights included (as Ultralytics counts them).
    std::int64_t parameterCount() const;
    /// Parameters that require gradients.
    std::int64_t gradientCount() const;
    /// GFLOPs for one square image of side `imgsz` (a multiple of 32), counted from the layers by a
    /// forward pass with the rules Ultralytics' figures use (see OpCounterScope in blocks_torch_impl.h):
    /// 2 x (conv MACs + 4 per BatchNorm element + upsampled elements) / 1e9.
    Expected<double> gflops(int imgsz = 640) const;
    /// The state_dict in PyTorch order: per module its parameters, then its buffers, then its children.
    std::vector<TensorEntry> stateDictEntries() const;
    /// Folds BatchNorm into the convolutions (inference only; irreversible). A YOLO26 head then keeps only
    /// `branch`, as Ultralytics' fused network (its fused parameter counts and GFLOPs are these).
    void fuse(HeadBranch branch = HeadBranch::OneToMany);
    bool fused() const;

    struct Impl; ///< defined in detector_torch_impl.h
    Impl& impl() { return *m_impl; }
    const Impl& impl() const { return *m_impl; }
    explicit Detector(std::unique_ptr<Impl> impl);

private:
    std::unique_ptr<Impl> m_impl;
};

/// Formats a layer table (and a summary line) as text for the terminal.
std::string formatLayerTable(const Detector& detector, int imgsz);

} // namespace osprey::model
