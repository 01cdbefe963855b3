#pragma once
// Private to core/export: a small writer of ONNX graph nodes and initialisers over onnx::GraphProto, and
// the emitters that turn core/model's torch-free description of a fused network (model/fused_network.h)
// into nodes. Not thread-safe; one per export.

#include "common/expected.h"
#include "model/fused_network.h"

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

namespace osprey::exporter {

/// A value in the graph: its name and, for feature maps, its channels and spatial size (batch 1).
struct Value {
    std::string name;
    std::int64_t channels = 0, height = 0, width = 0;
};

/// One node attribute: ints, one int, floats, or a string.
struct Attribute {
    std::string name;
    enum class Kind { Int, Ints, Float, String } kind = Kind::Int;
    std::vector<std::int64_t> ints;
    float number = 0;
    std::string text;

    static Attribute integer(std::string name, std::int64_t value);
    static Attribute integers(std::string name, std::vector<std::int64_t> values);
    static Attribute real(std::string name, float value);
    static Attribute string(std::string name, std::string value);
};

/// Appends nodes and initialisers to a graph with unique value names ("/model.2/cv1/conv/Conv_output_0",
/// as torch.onnx names them). Weights become float32 initialisers, or float16 ones followed by a Cast to
/// float32 when `halfWeights`.
class GraphWriter {
public:
    GraphWriter(onnx::GraphProto& graph, int opset, bool halfWeights);

    int opset() const { return m_opset; }
    /// A float weight (any shape) under `name`; returns the float32 value to consume.
    std::string weight(const std::string& name, const model::FusedTensor& tensor);
    /// A float32 constant that is never converted (anchor points, strides, scales).
    std::string floats(const std::string& name, const std::vector<std::int64_t>& dims,
                       const std::vector<float>& values);
    /// An int64 constant (Reshape targets, Split sizes from opset 13).
    std::string int64s(const std::string& name, const std::vector<std::int64_t>& values);
    /// Adds a node `op` named `<scope>/<op>` and returns its first output's name (`outputs` more).
    std::vector<std::string> node(const std::string& op, const std::string& scope,
                                  const std::vector<std::string>& inputs,
                                  std::vector<Attribute> attributes = {}, int outputs = 1);
    std::string one(const std::string& op, const std::string& scope, const std::vector<std::string>& inputs,
                    std::vector<Attribute> attributes = {});
    /// Split along `axis` into `sizes` (attribute form up to opset 12, an int64 input from 13).
    std::vector<std::string> split(const std::string& scope, const std::string& input, std::int64_t axis,
                                   const std::vector<std::int64_t>& sizes);
    /// Slice [start, end) along `axis` (constant int64 inputs, as opset 10+ has it).
    std::string slice(const std::string& scope, const std::string& input, std::int64_t axis,
                      std::int64_t start, std::int64_t end);
    /// Reshape to a constant target (0 copies the input's dimension, -1 is inferred).
    std::string reshape(const std::string& scope, const std::string& input,
                        const std::vector<std::int64_t>& target);

    /// Renames the first output of the node added last (the graph's output).
    void renameLastOutput(const std::string& name);

private:
    std::string unique(const std::string& base);

    onnx::GraphProto& m_graph;
    int m_opset;
    bool m_half;
    std::map<std::string, int> m_used;
};

/// What the graph's output holds.
enum class GraphOutput {
    Decoded,  ///< [N, 4 + nc, A]: cx, cy, w, h in input pixels, then the class scores after the sigmoid
    EndToEnd, ///< [N, k, 6]: x1, y1, x2, y2 in input pixels, score, class; the top-k of spec yolo26 §2.5
};

/// Emits the whole network: from the graph input `images` (float [N, 3, imgsz, imgsz]) to the output named
/// `output` in `layout` (EndToEnd: k = min(maxDetections, A)). Errors name the layer that cannot be
/// exported.
Status emitNetwork(GraphWriter& writer, const model::FusedNetwork& network, int imgsz,
                   const std::string& input, const std::string& output,
                   GraphOutput layout = GraphOutput::Decoded, int maxDetections = 300);

} // namespace osprey::exporter
