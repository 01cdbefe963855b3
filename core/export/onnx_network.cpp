#include "export/onnx_graph_impl.h"

#include <algorithm>
#include <map>

namespace osprey::exporter {

namespace {

using model::FusedBlock;
using Kind = model::FusedBlock::Kind;

class NetworkEmitter {
public:
    explicit NetworkEmitter(GraphWriter& writer) : m_w(writer) {}

    Expected<Value> plainConv(const FusedBlock& conv, const Value& x, const std::string& scope) {
        if (conv.inChannels != x.channels)
            return fail(scope + ": expects " + std::to_string(conv.inChannels) + " input channels, got " +
                        std::to_string(x.channels));
        std::vector<std::string> inputs{x.name, m_w.weight(scope + ".weight", conv.weight)};
        if (!conv.bias.empty())
            inputs.push_back(m_w.weight(scope + ".bias", conv.bias));
        const std::int64_t k = conv.kernel, pad = conv.kernel / 2;
        Value y;
        y.name = m_w.one("Conv", "/" + scope, inputs,
                         {Attribute::integers("dilations", {1, 1}), Attribute::integer("group", conv.groups),
                          Attribute::integers("kernel_shape", {k, k}),
                          Attribute::integers("pads", {pad, pad, pad, pad}),
                          Attribute::integers("strides", {conv.stride, conv.stride})});
        y.channels = conv.outChannels;
        y.height = (x.height + 2 * pad - k) / conv.stride + 1;
        y.width = (x.width + 2 * pad - k) / conv.stride + 1;
        return y;
    }

    Expected<Value> conv(const FusedBlock& block, const Value& x, const std::string& scope) {
        auto y = plainConv(block, x, scope + ".conv");
        if (!y || !block.silu)
            return y;
        // SiLU as x * sigmoid(x): opset 12 has no SiLU operator.
        const auto gate = m_w.one("Sigmoid", "/" + scope + "/act", {y->name});
        y->name = m_w.one("Mul", "/" + scope + "/act", {y->name, gate});
        return y;
    }

    Expected<Value> bottleneck(const FusedBlock& block, const Value& x, const std::string& scope) {
        auto a = convChild(block, "cv1", x, scope);
        if (!a)
            return a;
        auto y = convChild(block, "cv2", *a, scope);
        if (!y || !block.residual)
            return y;
        y->name = m_w.one("Add", "/" + scope, {x.name, y->name});
        return y;
    }

    Expected<Value> c3k(const FusedBlock& block, const Value& x, const std::string& scope) {
        auto a = convChild(block, "cv1", x, scope);
        if (!a)
            return a;
        auto inner = sequence(block.child("m"), *a, scope + ".m");
        auto b = convChild(block, "cv2", x, scope);
        if (!inner || !b)
            return inner ? b : inner;
        return convChild(block, "cv3", concat({*inner, *b}, scope), scope);
    }

    Expected<Value> c2f(const FusedBlock& block, const Value& x, const std::string& scope) {
        auto head = convChild(block, "cv1", x, scope);
        if (!head)
            return head;
        const std::int64_t half = head->channels / 2;
        const auto parts = m_w.split("/" + scope, head->name, 1, {half, half});
        std::vector<Value> ys;
        for (const auto& part : parts)
            ys.push_back(Value{part, half, head->height, head->width});
        const FusedBlock* list = block.child("m");
        if (!list)
            return fail(scope + ": no inner blocks (m)");
        for (const auto& [name, inner] : list->children) {
            // Bottleneck, C3k, or YOLO26's (Bottleneck, PSABlock) pair.
            auto y = unary(inner, ys.back(), scope + ".m." + name);
            if (!y)
                return y;
            ys.push_back(*y);
        }
        return convChild(block, "cv2", concat(ys, scope), scope);
    }

    Expected<Value> sppf(const FusedBlock& block, const Value& x, const std::string& scope) {
        auto first = convChild(block, "cv1", x, scope);
        if (!first)
            return first;
        std::vector<Value> ys{*first};
        const std::int64_t k = block.poolKernel, pad = k / 2;
        for (int i = 0; i < 3; ++i) {
            Value pooled = ys.back();
            pooled.name = m_w.one(
                "MaxPool", "/" + scope + "/m", {ys.back().name},
                {Attribute::integer("ceil_mode", 0), Attribute::integers("kernel_shape", {k, k}),
                 Attribute::integers("pads", {pad, pad, pad, pad}), Attribute::integers("strides", {1, 1})});
            ys.push_back(pooled);
        }
        auto y = convChild(block, "cv2", concat(ys, scope), scope);
        if (!y || !block.residual)
            return y;
        y->name = m_w.one("Add", "/" + scope, {x.name, y->name});
        return y;
    }

    Expected<Value> attention(const FusedBlock& block, const Value& x, const std::string& scope) {
        auto qkv = convChild(block, "qkv", x, scope);
        if (!qkv)
            return qkv;
        const std::int64_t heads = block.heads, keyDim = block.keyDim, headDim = block.headDim;
        const std::int64_t positions = x.height * x.width;
        const std::string s = "/" + scope;
        const auto grouped = m_w.reshape(s, qkv->name, {0, heads, 2 * keyDim + headDim, positions});
        const auto parts = m_w.split(s, grouped, 2, {keyDim, keyDim, headDim});
        // (q^T k) * scale computed as (q^T * scale) k: OpenCV 4.6 fuses a scalar Mul after a MatMul of two
        // variables into it as an activation, which that MatMul then never applies.
        const auto qT = m_w.one("Transpose", s, {parts[0]}, {Attribute::integers("perm", {0, 1, 3, 2})});
        const auto scale = m_w.floats(scope + ".scale", {}, {static_cast<float>(block.scale)});
        const auto scaledQT = m_w.one("Mul", s, {qT, scale});
        const auto logits = m_w.one("MatMul", s, {scaledQT, parts[1]});
        // Softmax over the last axis: before opset 13 Softmax flattens [axis:], the same thing here.
        const auto weights = m_w.one("Softmax", s, {logits}, {Attribute::integer("axis", 3)});
        const auto weightsT = m_w.one("Transpose", s, {weights}, {Attribute::integers("perm", {0, 1, 3, 2})});
        const auto mixed = m_w.one("MatMul", s, {parts[2], weightsT});
        const auto image = m_w.reshape(s, mixed, {0, x.channels, x.height, x.width});
        const Value values{m_w.reshape(s, parts[2], {0, x.channels, x.height, x.width}), x.channels, x.height,
                           x.width};
        auto positional = convChild(block, "pe", values, scope);
        if (!positional)
            return positional;
        const Value sum{m_w.one("Add", s, {image, positional->name}), x.channels, x.height, x.width};
        return convChild(block, "proj", sum, scope);
    }

    Expected<Value> psaBlock(const FusedBlock& block, const Value& x, const std::string& scope) {
        const FusedBlock* attn = block.child("attn");
        if (!attn || attn->kind != Kind::Attention)
            return fail(scope + ": no attention (attn)");
        auto a = attention(*attn, x, scope + ".attn");
        if (!a)
            return a;
        Value y = x;
        y.name = m_w.one("Add", "/" + scope, {x.name, a->name});
        auto ffn = sequence(block.child("ffn"), y, scope + ".ffn");
        if (!ffn)
            return ffn;
        Value out = y;
        out.name = m_w.one("Add", "/" + scope, {y.name, ffn->name});
        return out;
    }

    Expected<Value> c2psa(const FusedBlock& block, const Value& x, const std::string& scope) {
        auto head = convChild(block, "cv1", x, scope);
        if (!head)
            return head;
        const std::int64_t half = head->channels / 2;
        const auto parts = m_w.split("/" + scope, head->name, 1, {half, half});
        auto inner =
            sequence(block.child("m"), Value{parts[1], half, head->height, head->width}, scope + ".m");
        if (!inner)
            return inner;
        return convChild(block, "cv2",
                         concat({Value{parts[0], half, head->height, head->width}, *inner}, scope), scope);
    }

    /// Any unary block (also nested sequences, as the head's branches are).
    Expected<Value> unary(const FusedBlock& block, const Value& x, const std::string& scope) {
        switch (block.kind) {
        case Kind::Conv:
            return conv(block, x, scope);
        case Kind::PlainConv:
            return plainConv(block, x, scope);
        case Kind::C2f:
            return c2f(block, x, scope);
        case Kind::Sppf:
            return sppf(block, x, scope);
        case Kind::C2Psa:
            return c2psa(block, x, scope);
        case Kind::PsaBlock:
            return psaBlock(block, x, scope);
        case Kind::C3k:
            return c3k(block, x, scope);
        case Kind::Bottleneck:
            return bottleneck(block, x, scope);
        case Kind::Sequence:
            return sequence(&block, x, scope);
        case Kind::Attention:
        case Kind::List:
            break;
        }
        return fail(scope + ": no ONNX export for a " + block.type + " on its own");
    }

    Expected<Value> sequence(const FusedBlock* block, const Value& x, const std::string& scope) {
        if (!block || block->kind != Kind::Sequence)
            return fail(scope + ": missing sequence");
        Value y = x;
        for (const auto& [name, item] : block->children) {
            auto next = unary(item, y, scope + "." + name);
            if (!next)
                return next;
            y = *next;
        }
        return y;
    }

    Value concat(const std::vector<Value>& parts, const std::string& scope) {
        Value y = parts.front();
        std::vector<std::string> names;
        y.channels = 0;
        for (const auto& part : parts) {
            names.push_back(part.name);
            y.channels += part.channels;
        }
        y.name = m_w.one("Concat", "/" + scope, names, {Attribute::integer("axis", 1)});
        return y;
    }

    Value upsample(const Value& x, const std::string& scope) {
        // Resize-11 needs a roi input even when unused; nearest, floor, asymmetric is torch's "nearest".
        if (m_emptyRoi.empty())
            m_emptyRoi = m_w.floats("roi_empty", {0}, {});
        if (m_scales.empty())
            m_scales = m_w.floats("upsample_scales", {4}, {1.0f, 1.0f, 2.0f, 2.0f});
        Value y = x;
        y.name = m_w.one("Resize", "/" + scope, {x.name, m_emptyRoi, m_scales},
                         {Attribute::string("coordinate_transformation_mode", "asymmetric"),
                          Attribute::real("cubic_coeff_a", -0.75f), Attribute::string("mode", "nearest"),
                          Attribute::string("nearest_mode", "floor")});
        y.height *= 2;
        y.width *= 2;
        return y;
    }

    Status detect(const model::FusedHead& head, const std::vector<Value>& features, const std::string& scope,
                  const std::string& output, GraphOutput layout, int maxDetections);

private:
    /// The end-to-end post-process on boxes [N, 4, A] (x1, y1, x2, y2 px) and scores [N, nc, A].
    void topK(const std::string& boxes, const std::string& scores, std::int64_t anchors, std::int64_t classes,
              std::int64_t k, const std::string& scope);

    Expected<Value> convChild(const FusedBlock& block, const std::string& name, const Value& x,
                              const std::string& scope) {
        const FusedBlock* module = block.child(name);
        if (!module || module->kind != Kind::Conv)
            return fail(scope + ": no convolution " + name);
        return conv(*module, x, scope + "." + name);
    }

    GraphWriter& m_w;
    std::string m_emptyRoi, m_scales;
};

Status NetworkEmitter::detect(const model::FusedHead& head, const std::vector<Value>& features,
                              const std::string& scope, const std::string& output, GraphOutput layout,
                              int maxDetections) {
    if (head.boxBranches.size() != features.size() || head.classBranches.size() != features.size() ||
        head.strides.size() != features.size())
        return fail(scope + ": " + std::to_string(features.size()) + " feature maps for " +
                    std::to_string(head.boxBranches.size()) + " head levels");
    const std::string s = "/" + scope;
    std::vector<std::string> boxes, scores;
    std::vector<float> anchorX, anchorY, strideRow;
    const std::string boxName = head.oneToOne ? ".one2one_cv2." : ".cv2.";
    const std::string className = head.oneToOne ? ".one2one_cv3." : ".cv3.";
    for (size_t i = 0; i < features.size(); ++i) {
        const std::string level = std::to_string(i);
        auto box = unary(head.boxBranches[i], features[i], scope + boxName + level);
        auto cls = unary(head.classBranches[i], features[i], scope + className + level);
        if (!box)
            return fail(box.error());
        if (!cls)
            return fail(cls.error());
        const std::int64_t cells = features[i].height * features[i].width;
        boxes.push_back(
            m_w.reshape(s + "/" + boxName.substr(1) + level, box->name, {0, box->channels, cells}));
        scores.push_back(
            m_w.reshape(s + "/" + className.substr(1) + level, cls->name, {0, cls->channels, cells}));
        // makeAnchors: cell centres (x + 0.5, y + 0.5) in row-major order, in grid units.
        for (std::int64_t y = 0; y < features[i].height; ++y)
            for (std::int64_t x = 0; x < features[i].width; ++x) {
                anchorX.push_back(static_cast<float>(x) + 0.5f);
                anchorY.push_back(static_cast<float>(y) + 0.5f);
                strideRow.push_back(static_cast<float>(head.strides[i]));
            }
    }
    const auto anchors = static_cast<std::int64_t>(anchorX.size());
    const std::int64_t bins = head.regMax;
    const auto boxLogits = m_w.one("Concat", s, boxes, {Attribute::integer("axis", 2)});
    const auto classLogits = m_w.one("Concat", s, scores, {Attribute::integer("axis", 2)});

    std::string distances = boxLogits; // reg_max 1 (YOLO26): the box outputs are the ltrb distances
    if (bins > 1) {
        // DFL: softmax over each side's bins (moved to the last axis, where every opset's Softmax agrees),
        // then the expectation with the module's own bin weights as a [bins, 1] MatMul.
        if (head.dflWeight.values.size() != static_cast<size_t>(bins))
            return fail(scope + ".dfl: " + std::to_string(head.dflWeight.values.size()) +
                        " bin weights for " + std::to_string(bins) + " bins");
        const std::string d = s + "/dfl";
        const auto sides = m_w.reshape(d, boxLogits, {0, 4, bins, anchors});
        const auto binsLast = m_w.one("Transpose", d, {sides}, {Attribute::integers("perm", {0, 1, 3, 2})});
        const auto probabilities = m_w.one("Softmax", d, {binsLast}, {Attribute::integer("axis", 3)});
        const auto binWeights = m_w.weight(scope + ".dfl.conv.weight", {{bins, 1}, head.dflWeight.values});
        const auto expectation = m_w.one("MatMul", d, {probabilities, binWeights});
        distances = m_w.reshape(d, expectation, {0, 4, anchors});
    } else if (bins != 1) {
        return fail(scope + ": reg_max " + std::to_string(bins) + " is not a box branch width");
    }

    // dist2bbox around full-size anchor points, then times the full-size strides: every constant has the
    // shape of the value it meets, which OpenCV 4.6 needs.
    std::vector<float> points = anchorX;
    points.insert(points.end(), anchorY.begin(), anchorY.end());
    const auto anchorPoints = m_w.floats(scope + ".anchors", {1, 2, anchors}, points);
    std::vector<float> strides;
    for (int row = 0; row < 4; ++row)
        strides.insert(strides.end(), strideRow.begin(), strideRow.end());
    const auto strideMap = m_w.floats(scope + ".strides", {1, 4, anchors}, strides);
    const auto sidesLtRb = m_w.split(s, distances, 1, {2, 2});
    const auto topLeft = m_w.one("Sub", s, {anchorPoints, sidesLtRb[0]});
    const auto bottomRight = m_w.one("Add", s, {anchorPoints, sidesLtRb[1]});
    const auto probabilitiesOut = m_w.one("Sigmoid", s, {classLogits});
    if (layout == GraphOutput::EndToEnd) {
        // The end-to-end head keeps its boxes as corners (x1, y1, x2, y2).
        const auto corners = m_w.one("Concat", s, {topLeft, bottomRight}, {Attribute::integer("axis", 1)});
        const auto cornersPx = m_w.one("Mul", s, {corners, strideMap});
        const std::int64_t k = std::min<std::int64_t>(maxDetections, anchors);
        if (k < 1)
            return fail(scope + ": max_det " + std::to_string(maxDetections) + " keeps no detection");
        topK(cornersPx, probabilitiesOut, anchors, head.numClasses, k, s + "/topk");
    } else {
        const auto half = m_w.floats(scope + ".half", {}, {0.5f});
        const auto centre = m_w.one("Mul", s, {m_w.one("Add", s, {topLeft, bottomRight}), half});
        const auto size = m_w.one("Sub", s, {bottomRight, topLeft});
        const auto boxGrid = m_w.one("Concat", s, {centre, size}, {Attribute::integer("axis", 1)});
        const auto boxPixels = m_w.one("Mul", s, {boxGrid, strideMap});
        m_w.one("Concat", s, {boxPixels, probabilitiesOut}, {Attribute::integer("axis", 1)});
    }
    m_w.renameLastOutput(output);
    return {};
}

void NetworkEmitter::topK(const std::string& boxes, const std::string& scores, std::int64_t anchors,
                          std::int64_t classes, std::int64_t k, const std::string& s) {
    // Written with GatherElements on index tensors broadcast by Expand and Reshapes to constant targets
    // (0 keeps the batch), so every shape is static but the batch, and a batch of several images works.
    const auto boxRows = m_w.one("Transpose", s, {boxes}, {Attribute::integers("perm", {0, 2, 1})});
    const auto scoreRows = m_w.one("Transpose", s, {scores}, {Attribute::integers("perm", {0, 2, 1})});
    const auto best = m_w.one("ReduceMax", s, {scoreRows},
                              {Attribute::integers("axes", {2}), Attribute::integer("keepdims", 0)});
    const auto count = m_w.int64s(s + "/k", {k});
    const std::vector<Attribute> topAttributes{
        Attribute::integer("axis", 1), Attribute::integer("largest", 1), Attribute::integer("sorted", 1)};
    // (a) the k anchors with the highest best-class score, [N, k].
    const auto anchorIndex = m_w.node("TopK", s, {best, count}, topAttributes, 2)[1];
    // (b) their full score rows [N, k, nc], flattened, and the top k (anchor, class) pairs among them.
    const auto rowIndex =
        m_w.one("Expand", s,
                {m_w.reshape(s, anchorIndex, {0, k, 1}), m_w.int64s(s + "/score_rows", {1, 1, classes})});
    const auto candidates =
        m_w.one("GatherElements", s, {scoreRows, rowIndex}, {Attribute::integer("axis", 1)});
    const auto flat = m_w.reshape(s, candidates, {0, k * classes});
    const auto top = m_w.node("TopK", s, {flat, count}, topAttributes, 2);
    // (c) class = flat index mod nc, anchor = the (flat index div nc)-th of the k anchors.
    const auto numClasses = m_w.int64s(s + "/nc", {classes});
    const auto classIndex = m_w.one("Mod", s, {top[1], numClasses});
    const auto slot = m_w.one("Div", s, {top[1], numClasses});
    const auto chosen = m_w.one("GatherElements", s, {anchorIndex, slot}, {Attribute::integer("axis", 1)});
    const auto boxIndex =
        m_w.one("Expand", s, {m_w.reshape(s, chosen, {0, k, 1}), m_w.int64s(s + "/box_rows", {1, 1, 4})});
    const auto chosenBoxes =
        m_w.one("GatherElements", s, {boxRows, boxIndex}, {Attribute::integer("axis", 1)});
    const auto scoreColumn = m_w.reshape(s, top[0], {0, k, 1});
    const auto classColumn = m_w.one("Cast", s, {m_w.reshape(s, classIndex, {0, k, 1})},
                                     {Attribute::integer("to", onnx::TensorProto::FLOAT)});
    m_w.one("Concat", s, {chosenBoxes, scoreColumn, classColumn}, {Attribute::integer("axis", 2)});
}

} // namespace

Status emitNetwork(GraphWriter& writer, const model::FusedNetwork& network, int imgsz,
                   const std::string& input, const std::string& output, GraphOutput layout,
                   int maxDetections) {
    NetworkEmitter emitter(writer);
    std::vector<Value> outputs;
    Value x{input, 3, imgsz, imgsz};
    const auto from = [&](int index) { return index < 0 ? x : outputs[static_cast<size_t>(index)]; };
    for (size_t i = 0; i < network.layers.size(); ++i) {
        const auto& layer = network.layers[i];
        const std::string scope = "model." + std::to_string(i);
        if (layer.type == "Upsample") {
            x = emitter.upsample(from(layer.from[0]), scope);
        } else if (layer.type == "Concat") {
            std::vector<Value> parts;
            for (const int index : layer.from)
                parts.push_back(from(index));
            x = emitter.concat(parts, scope);
        } else if (layer.type == "Detect") {
            std::vector<Value> features;
            for (const int index : layer.from)
                features.push_back(from(index));
            return emitter.detect(network.head, features, scope, output, layout, maxDetections);
        } else {
            auto y = emitter.unary(layer.block, from(layer.from[0]), scope);
            if (!y)
                return fail(scope + " (" + layer.type + "): " + y.message());
            x = *y;
        }
        outputs.push_back(x);
    }
    return fail("the network has no Detect layer");
}

} // namespace osprey::exporter
