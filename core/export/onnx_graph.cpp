#include "export/onnx_graph_impl.h"

#include "common/half_float.h"

#include <algorithm>

namespace osprey::exporter {

Attribute Attribute::integer(std::string name, std::int64_t value) {
    Attribute a;
    a.name = std::move(name);
    a.kind = Kind::Int;
    a.ints = {value};
    return a;
}

Attribute Attribute::integers(std::string name, std::vector<std::int64_t> values) {
    Attribute a;
    a.name = std::move(name);
    a.kind = Kind::Ints;
    a.ints = std::move(values);
    return a;
}

Attribute Attribute::real(std::string name, float value) {
    Attribute a;
    a.name = std::move(name);
    a.kind = Kind::Float;
    a.number = value;
    return a;
}

Attribute Attribute::string(std::string name, std::string value) {
    Attribute a;
    a.name = std::move(name);
    a.kind = Kind::String;
    a.text = std::move(value);
    return a;
}

GraphWriter::GraphWriter(onnx::GraphProto& graph, int opset, bool halfWeights)
    : m_graph(graph), m_opset(opset), m_half(halfWeights) {}

std::string GraphWriter::unique(const std::string& base) {
    const int count = m_used[base]++;
    return count == 0 ? base : base + "_" + std::to_string(count);
}

std::string GraphWriter::weight(const std::string& name, const model::FusedTensor& tensor) {
    const std::string stored = unique(m_half ? name + "_fp16" : name);
    auto* initializer = m_graph.add_initializer();
    initializer->set_name(stored);
    initializer->set_data_type(m_half ? onnx::TensorProto::FLOAT16 : onnx::TensorProto::FLOAT);
    for (const auto size : tensor.shape)
        initializer->add_dims(size);
    if (!m_half) {
        initializer->set_raw_data(tensor.values.data(), tensor.values.size() * sizeof(float));
        return stored;
    }
    std::vector<std::uint16_t> halves(tensor.values.size());
    std::transform(tensor.values.begin(), tensor.values.end(), halves.begin(), floatToHalf);
    initializer->set_raw_data(halves.data(), halves.size() * sizeof(std::uint16_t));
    return one("Cast", "/" + name, {stored}, {Attribute::integer("to", onnx::TensorProto::FLOAT)});
}

std::string GraphWriter::floats(const std::string& name, const std::vector<std::int64_t>& dims,
                                const std::vector<float>& values) {
    const std::string stored = unique(name);
    auto* initializer = m_graph.add_initializer();
    initializer->set_name(stored);
    initializer->set_data_type(onnx::TensorProto::FLOAT);
    for (const auto size : dims)
        initializer->add_dims(size);
    initializer->set_raw_data(values.data(), values.size() * sizeof(float));
    return stored;
}

std::string GraphWriter::int64s(const std::string& name, const std::vector<std::int64_t>& values) {
    const std::string stored = unique(name);
    auto* initializer = m_graph.add_initializer();
    initializer->set_name(stored);
    initializer->set_data_type(onnx::TensorProto::INT64);
    initializer->add_dims(static_cast<std::int64_t>(values.size()));
    initializer->set_raw_data(values.data(), values.size() * sizeof(std::int64_t));
    return stored;
}

std::vector<std::string> GraphWriter::node(const std::string& op, const std::string& scope,
                                           const std::vector<std::string>& inputs,
                                           std::vector<Attribute> attributes, int outputs) {
    const std::string name = unique(scope + "/" + op);
    auto* node = m_graph.add_node();
    node->set_op_type(op);
    node->set_name(name);
    for (const auto& input : inputs)
        node->add_input(input);
    std::vector<std::string> names;
    for (int i = 0; i < outputs; ++i) {
        names.push_back(name + "_output_" + std::to_string(i));
        node->add_output(names.back());
    }
    for (const auto& attribute : attributes) {
        auto* proto = node->add_attribute();
        proto->set_name(attribute.name);
        switch (attribute.kind) {
        case Attribute::Kind::Int:
            proto->set_type(onnx::AttributeProto::INT);
            proto->set_i(attribute.ints.at(0));
            break;
        case Attribute::Kind::Ints:
            proto->set_type(onnx::AttributeProto::INTS);
            for (const auto value : attribute.ints)
                proto->add_ints(value);
            break;
        case Attribute::Kind::Float:
            proto->set_type(onnx::AttributeProto::FLOAT);
            proto->set_f(attribute.number);
            break;
        case Attribute::Kind::String:
            proto->set_type(onnx::AttributeProto::STRING);
            proto->set_s(attribute.text);
            break;
        }
    }
    return names;
}

std::string GraphWriter::one(const std::string& op, const std::string& scope,
                             const std::vector<std::string>& inputs, std::vector<Attribute> attributes) {
    return node(op, scope, inputs, std::move(attributes), 1).front();
}

std::vector<std::string> GraphWriter::split(const std::string& scope, const std::string& input,
                                            std::int64_t axis, const std::vector<std::int64_t>& sizes) {
    const int outputs = static_cast<int>(sizes.size());
    // Split's sizes moved from an attribute to an input in opset 13. OpenCV 4.6 ignores that input and
    // splits evenly, so uneven splits from opset 13 on are written as Slices.
    if (m_opset < 13)
        return node("Split", scope, {input},
                    {Attribute::integer("axis", axis), Attribute::integers("split", sizes)}, outputs);
    if (std::all_of(sizes.begin(), sizes.end(), [&](std::int64_t size) { return size == sizes.front(); }))
        return node("Split", scope, {input, int64s(scope + "/split_sizes", sizes)},
                    {Attribute::integer("axis", axis)}, outputs);
    std::vector<std::string> parts;
    std::int64_t start = 0;
    for (const auto size : sizes) {
        parts.push_back(slice(scope, input, axis, start, start + size));
        start += size;
    }
    return parts;
}

std::string GraphWriter::slice(const std::string& scope, const std::string& input, std::int64_t axis,
                               std::int64_t start, std::int64_t end) {
    return one("Slice", scope,
               {input, int64s(scope + "/starts", {start}), int64s(scope + "/ends", {end}),
                int64s(scope + "/axes", {axis})});
}

std::string GraphWriter::reshape(const std::string& scope, const std::string& input,
                                 const std::vector<std::int64_t>& target) {
    return one("Reshape", scope, {input, int64s(scope + "/shape", target)});
}

void GraphWriter::renameLastOutput(const std::string& name) {
    m_graph.mutable_node(m_graph.node_size() - 1)->set_output(0, name);
}

} // namespace osprey::exporter
