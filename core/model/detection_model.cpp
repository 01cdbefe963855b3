#include "model/detector_torch_impl.h"

#include <cmath>
#include <functional>

namespace osprey::model {

Dfl::Dfl(int bins) : m_bins(bins) {
    m_conv = register_module("conv", std::make_shared<PlainConv>(bins, 1, 1, 1, 1, false));
    torch::NoGradGuard noGrad;
    m_conv->weight.copy_(torch::arange(bins, torch::kFloat).view({1, bins, 1, 1}));
    m_conv->weight.set_requires_grad(false);
}

torch::Tensor Dfl::forward(const torch::Tensor& x) {
    const auto batch = x.size(0), anchors = x.size(2);
    const auto probabilities = x.view({batch, 4, m_bins, anchors}).transpose(2, 1).softmax(1);
    return m_conv->forward(probabilities).reshape({batch, 4, anchors});
}

Detect::Detect(int numClasses, const std::vector<int>& channels, std::vector<int> strides, HeadStyle style)
    : m_numClasses(numClasses), m_channels(channels), m_strides(std::move(strides)) {
    const int boxWidth = std::max({16, channels[0] / 4, 4 * kRegMax});
    const int clsWidth = std::max(channels[0], std::min(numClasses, 100));
    auto cv2 = register_module("cv2", torch::nn::ModuleList());
    auto cv3 = register_module("cv3", torch::nn::ModuleList());
    for (const int c : channels) {
        auto box = std::make_shared<SequentialBlock>();
        box->append(std::make_shared<Conv>(c, boxWidth, 3));
        box->append(std::make_shared<Conv>(boxWidth, boxWidth, 3));
        box->append(std::make_shared<PlainConv>(boxWidth, 4 * kRegMax, 1, 1, 1, true));
        auto cls = std::make_shared<SequentialBlock>();
        if (style == HeadStyle::V8) {
            cls->append(std::make_shared<Conv>(c, clsWidth, 3));
            cls->append(std::make_shared<Conv>(clsWidth, clsWidth, 3));
        } else {
            // Depthwise 3x3 (groups = gcd(c1, c2) = c1) followed by a pointwise conv, twice.
            auto first = std::make_shared<SequentialBlock>();
            auto second = std::make_shared<SequentialBlock>();
            first->append(std::make_shared<Conv>(c, c, 3, 1, c));
            first->append(std::make_shared<Conv>(c, clsWidth, 1));
            second->append(std::make_shared<Conv>(clsWidth, clsWidth, 3, 1, clsWidth));
            second->append(std::make_shared<Conv>(clsWidth, clsWidth, 1));
            cls->append(first);
            cls->append(second);
        }
        cls->append(std::make_shared<PlainConv>(clsWidth, numClasses, 1, 1, 1, true));
        cv2->push_back(box);
        cv3->push_back(cls);
        m_box.push_back(box);
        m_cls.push_back(cls);
    }
    m_dfl = register_module("dfl", std::make_shared<Dfl>(kRegMax));
    initBiases();
}

void Detect::initBiases() {
    torch::NoGradGuard noGrad;
    for (size_t i = 0; i < m_box.size(); ++i) {
        std::dynamic_pointer_cast<PlainConv>(m_box[i]->at(2))->bias.fill_(2.0);
        const double cellsPerSide = 640.0 / m_strides[i];
        std::dynamic_pointer_cast<PlainConv>(m_cls[i]->at(m_cls[i]->size() - 1))
            ->bias.fill_(std::log(5.0 / m_numClasses / (cellsPerSide * cellsPerSide)));
    }
}

std::vector<torch::Tensor> Detect::forwardRaw(const std::vector<torch::Tensor>& features) {
    std::vector<torch::Tensor> maps;
    maps.reserve(features.size());
    for (size_t i = 0; i < features.size(); ++i)
        maps.push_back(torch::cat({m_box[i]->forward(features[i]), m_cls[i]->forward(features[i])}, 1));
    return maps;
}

std::pair<torch::Tensor, torch::Tensor> makeAnchors(const std::vector<torch::Tensor>& maps,
                                                    const std::vector<int>& strides, double offset) {
    std::vector<torch::Tensor> points, strideColumns;
    for (size_t i = 0; i < maps.size(); ++i) {
        const auto options = torch::TensorOptions().dtype(maps[i].scalar_type()).device(maps[i].device());
        const auto height = maps[i].size(2), width = maps[i].size(3);
        const auto xs = torch::arange(width, options) + offset;
        const auto ys = torch::arange(height, options) + offset;
        const auto grid = torch::meshgrid({ys, xs}, "ij");
        points.push_back(torch::stack({grid[1], grid[0]}, -1).view({-1, 2}));
        strideColumns.push_back(torch::full({height * width, 1}, strides[i], options));
    }
    return {torch::cat(points), torch::cat(strideColumns)};
}

torch::Tensor distancesToXywh(const torch::Tensor& distances, const torch::Tensor& anchors) {
    const auto parts = distances.chunk(2, 1);
    const auto points = anchors.transpose(0, 1).unsqueeze(0);
    const auto topLeft = points - parts[0];
    const auto bottomRight = points + parts[1];
    return torch::cat({(topLeft + bottomRight) / 2, bottomRight - topLeft}, 1);
}

torch::Tensor Detect::decode(const std::vector<torch::Tensor>& raw) {
    const auto batch = raw[0].size(0);
    const int outputs = 4 * kRegMax + m_numClasses;
    std::vector<torch::Tensor> flat;
    for (const auto& map : raw)
        flat.push_back(map.reshape({batch, outputs, -1})); // a copy only for channels-last maps
    const auto all = torch::cat(flat, 2);
    const auto [anchors, strideColumn] = makeAnchors(raw, m_strides);
    const auto parts = all.split_with_sizes({4 * kRegMax, m_numClasses}, 1);
    const auto boxes = distancesToXywh(m_dfl->forward(parts[0]), anchors) * strideColumn.transpose(0, 1);
    return torch::cat({boxes, parts[1].sigmoid()}, 1);
}

DetectionModel::DetectionModel(const ModelSpec& spec) : m_spec(spec) {
    m_model = register_module("model", torch::nn::ModuleList());
    if (spec.family == Family::YoloV8)
        buildYoloV8(*this);
    else
        buildYolo11(*this);
}

int DetectionModel::addNode(Node node, LayerInfo info, std::shared_ptr<torch::nn::Module> module) {
    info.index = static_cast<int>(m_nodes.size());
    info.params = 0;
    for (const auto& parameter : module->parameters())
        info.params += parameter.numel();
    m_model->push_back(std::move(module));
    m_nodes.push_back(std::move(node));
    m_layers.push_back(std::move(info));
    return m_layers.back().index;
}

int DetectionModel::addBlock(std::vector<int> from, int repeats, std::string type, std::string arguments,
                             std::shared_ptr<UnaryModule> block) {
    LayerInfo info{0, from, repeats, 0, std::move(type), std::move(arguments)};
    return addNode(Node{Kind::Block, std::move(from), block}, std::move(info), block);
}

void DetectionModel::setYamlRow(int index, int repeats, std::string arguments) {
    LayerInfo& info = m_layers.at(static_cast<size_t>(index));
    info.yamlRepeats = repeats;
    info.yamlArgs = std::move(arguments);
}

int DetectionModel::addUpsample() {
    // A parameterless placeholder keeps the layer indices (and thus the names) aligned with Ultralytics.
    return addNode(Node{Kind::Upsample, {-1}, nullptr},
                   LayerInfo{0, {-1}, 1, 0, "Upsample", "[None, 2, 'nearest']"}, torch::nn::Identity().ptr());
}

int DetectionModel::addConcat(std::vector<int> from) {
    LayerInfo info{0, from, 1, 0, "Concat", "[1]"};
    return addNode(Node{Kind::Concat, std::move(from), nullptr}, std::move(info),
                   torch::nn::Identity().ptr());
}

int DetectionModel::addDetect(std::vector<int> from, std::shared_ptr<Detect> detect) {
    m_detect = detect;
    std::string arguments = "[";
    arguments += std::to_string(detect->numClasses());
    arguments += ", [";
    for (size_t i = 0; i < detect->channels().size(); ++i)
        arguments += (i ? ", " : "") + std::to_string(detect->channels()[i]);
    LayerInfo info{0, from, 1, 0, "Detect", arguments + "]]"};
    return addNode(Node{Kind::Detect, std::move(from), nullptr}, std::move(info), detect);
}

std::vector<torch::Tensor> DetectionModel::runBackbone(const torch::Tensor& images) {
    std::vector<torch::Tensor> outputs(m_nodes.size());
    torch::Tensor x = m_channelsLast ? images.contiguous(torch::MemoryFormat::ChannelsLast) : images;
    const auto input = [&](int from) { return from < 0 ? x : outputs[static_cast<size_t>(from)]; };
    for (size_t i = 0; i < m_nodes.size(); ++i) {
        const Node& node = m_nodes[i];
        switch (node.kind) {
        case Kind::Block:
            x = node.block->forward(input(node.from[0]));
            break;
        case Kind::Upsample:
            x = torch::upsample_nearest2d(x, {x.size(2) * 2, x.size(3) * 2});
            countOps(static_cast<double>(x.numel()));
            break;
        case Kind::Concat: {
            std::vector<torch::Tensor> parts;
            for (const int from : node.from)
                parts.push_back(input(from));
            x = torch::cat(parts, 1);
            break;
        }
        case Kind::Detect: {
            std::vector<torch::Tensor> features;
            for (const int from : node.from)
                features.push_back(input(from));
            return features;
        }
        }
        outputs[i] = x;
    }
    return {};
}

std::vector<torch::Tensor> DetectionModel::forwardRaw(const torch::Tensor& images) {
    return m_detect->forwardRaw(runBackbone(images));
}

void DetectionModel::setChannelsLast(bool enabled) {
    torch::NoGradGuard noGrad;
    const auto format = enabled ? torch::MemoryFormat::ChannelsLast : torch::MemoryFormat::Contiguous;
    for (auto& parameter : parameters())
        if (parameter.dim() == 4)
            parameter.set_data(parameter.contiguous(format));
    m_channelsLast = enabled;
}

torch::Tensor DetectionModel::forwardDecoded(const torch::Tensor& images) {
    return m_detect->decode(forwardRaw(images));
}

DetectorOutput DetectionModel::forward(const torch::Tensor& images) {
    DetectorOutput output;
    output.raw = forwardRaw(images);
    if (!is_training())
        output.decoded = m_detect->decode(output.raw);
    return output;
}

void DetectionModel::fuse() {
    fuseConvBn(*this);
    m_fused = true;
}

namespace {

void collectState(const torch::nn::Module& module, const std::string& prefix,
                  std::vector<std::pair<std::string, torch::Tensor>>& out) {
    for (const auto& item : module.named_parameters(/*recurse=*/false))
        out.emplace_back(prefix + item.key(), item.value());
    for (const auto& item : module.named_buffers(/*recurse=*/false))
        out.emplace_back(prefix + item.key(), item.value());
    for (const auto& child : module.named_children())
        collectState(*child.value(), prefix + child.key() + ".", out);
}

} // namespace

std::vector<std::pair<std::string, torch::Tensor>> DetectionModel::stateDict() const {
    std::vector<std::pair<std::string, torch::Tensor>> out;
    collectState(*this, "", out);
    return out;
}

std::vector<std::string> DetectionModel::classBranchNames() const {
    std::vector<std::string> names;
    const std::string prefix = "model." + std::to_string(m_nodes.size() - 1) + ".cv3.";
    for (const auto& [name, tensor] : stateDict()) {
        if (name.rfind(prefix, 0) == 0)
            names.push_back(name);
    }
    return names;
}

} // namespace osprey::model
