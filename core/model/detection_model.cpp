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

Detect::Detect(int numClasses, const std::vector<int>& channels, std::vector<int> strides, HeadStyle style,
               int regMax, bool endToEnd)
    : m_numClasses(numClasses), m_regMax(regMax), m_channels(channels), m_strides(std::move(strides)) {
    const int boxWidth = std::max({16, channels[0] / 4, 4 * regMax});
    const int clsWidth = std::max(channels[0], std::min(numClasses, 100));
    const auto build = [&](const char* boxName, const char* clsName, Branch& boxes, Branch& classes) {
        auto cv2 = register_module(boxName, torch::nn::ModuleList());
        auto cv3 = register_module(clsName, torch::nn::ModuleList());
        for (const int c : channels) {
            auto box = std::make_shared<SequentialBlock>();
            box->append(std::make_shared<Conv>(c, boxWidth, 3));
            box->append(std::make_shared<Conv>(boxWidth, boxWidth, 3));
            box->append(std::make_shared<PlainConv>(boxWidth, 4 * regMax, 1, 1, 1, true));
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
            boxes.push_back(box);
            classes.push_back(cls);
        }
    };
    build("cv2", "cv3", m_box, m_cls);
    if (regMax > 1)
        m_dfl = register_module("dfl", std::make_shared<Dfl>(regMax));
    if (endToEnd) {
        build("one2one_cv2", "one2one_cv3", m_o2oBox, m_o2oCls);
        // Ultralytics deep-copies the one-to-many branches: both start from the same weights.
        torch::NoGradGuard noGrad;
        for (size_t i = 0; i < m_box.size(); ++i) {
            const auto from = m_box[i]->parameters(), to = m_o2oBox[i]->parameters();
            for (size_t p = 0; p < from.size(); ++p)
                to[p].copy_(from[p]);
            const auto fromCls = m_cls[i]->parameters(), toCls = m_o2oCls[i]->parameters();
            for (size_t p = 0; p < fromCls.size(); ++p)
                toCls[p].copy_(fromCls[p]);
        }
    }
    initBiases();
}

void Detect::initBiases() {
    torch::NoGradGuard noGrad;
    for (const auto* branch : {&m_box, &m_o2oBox})
        for (const auto& box : *branch)
            std::dynamic_pointer_cast<PlainConv>(box->at(box->size() - 1))->bias.fill_(2.0);
    for (const auto* branch : {&m_cls, &m_o2oCls})
        for (size_t i = 0; i < branch->size(); ++i) {
            const double cellsPerSide = 640.0 / m_strides[i];
            const auto& cls = (*branch)[i];
            std::dynamic_pointer_cast<PlainConv>(cls->at(cls->size() - 1))
                ->bias.fill_(std::log(5.0 / m_numClasses / (cellsPerSide * cellsPerSide)));
        }
}

void Detect::dropBranch(bool keepOneToOne) {
    if (!endToEnd() || !hasOneToMany())
        return;
    const char* names[2][2] = {{"cv2", "cv3"}, {"one2one_cv2", "one2one_cv3"}};
    for (const char* name : names[keepOneToOne ? 0 : 1])
        unregister_module(name);
    (keepOneToOne ? m_box : m_o2oBox).clear();
    (keepOneToOne ? m_cls : m_o2oCls).clear();
}

std::vector<torch::Tensor> Detect::run(const Branch& box, const Branch& cls,
                                       const std::vector<torch::Tensor>& features) {
    std::vector<torch::Tensor> maps;
    maps.reserve(features.size());
    for (size_t i = 0; i < features.size(); ++i)
        maps.push_back(torch::cat({box[i]->forward(features[i]), cls[i]->forward(features[i])}, 1));
    return maps;
}

std::vector<torch::Tensor> Detect::forwardRaw(const std::vector<torch::Tensor>& features) {
    TORCH_CHECK(hasOneToMany(), "the head's one-to-many branch was dropped");
    return run(m_box, m_cls, features);
}

std::vector<torch::Tensor> Detect::forwardRawOneToOne(const std::vector<torch::Tensor>& features) {
    TORCH_CHECK(endToEnd(), "the head has no one-to-one branch");
    std::vector<torch::Tensor> detached;
    for (const auto& feature : features)
        detached.push_back(feature.detach());
    return run(m_o2oBox, m_o2oCls, detached);
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

torch::Tensor Detect::flatten(const std::vector<torch::Tensor>& raw) const {
    const auto batch = raw[0].size(0);
    const int outputs = 4 * m_regMax + m_numClasses;
    std::vector<torch::Tensor> flat;
    for (const auto& map : raw)
        flat.push_back(map.reshape({batch, outputs, -1})); // a copy only for channels-last maps
    const auto all = torch::cat(flat, 2);
    if (!m_dfl)
        return all; // reg_max 1: the box outputs are the distances
    const auto parts = all.split_with_sizes({4 * m_regMax, m_numClasses}, 1);
    return torch::cat({m_dfl->forward(parts[0]), parts[1]}, 1);
}

torch::Tensor Detect::decode(const std::vector<torch::Tensor>& raw) {
    const auto all = flatten(raw);
    const auto [anchors, strideColumn] = makeAnchors(raw, m_strides);
    const auto parts = all.split_with_sizes({4, m_numClasses}, 1);
    const auto boxes = distancesToXywh(parts[0], anchors) * strideColumn.transpose(0, 1);
    return torch::cat({boxes, parts[1].sigmoid()}, 1);
}

torch::Tensor Detect::decodeEndToEnd(const std::vector<torch::Tensor>& raw, int maxDet) {
    const auto all = flatten(raw);
    const auto [anchors, strideColumn] = makeAnchors(raw, m_strides);
    const auto parts = all.split_with_sizes({4, m_numClasses}, 1);
    const auto sides = parts[0].chunk(2, 1);
    const auto points = anchors.transpose(0, 1).unsqueeze(0);
    const auto strideRow = strideColumn.transpose(0, 1);
    const auto boxes = torch::cat({(points - sides[0]) * strideRow, (points + sides[1]) * strideRow}, 1)
                           .transpose(1, 2);                // [N, A, 4] x1, y1, x2, y2
    const auto scores = parts[1].sigmoid().transpose(1, 2); // [N, A, nc]
    const int64_t k = std::min<int64_t>(maxDet, scores.size(1));
    // The top k anchors by their best class score, then the top k (anchor, class) pairs among them.
    const auto anchorIndex = std::get<1>(scores.amax(-1).topk(k, 1)); // [N, k]
    const auto candidate =
        scores.gather(1, anchorIndex.unsqueeze(-1).expand({-1, -1, m_numClasses})); // [N, k, nc]
    const auto [best, flatIndex] = candidate.flatten(1).topk(k, 1);                 // [N, k]
    const auto classes = flatIndex.remainder(m_numClasses);
    const auto chosen = anchorIndex.gather(1, flatIndex.div(m_numClasses, "floor"));
    const auto chosenBoxes = boxes.gather(1, chosen.unsqueeze(-1).expand({-1, -1, 4}));
    return torch::cat({chosenBoxes, best.unsqueeze(-1), classes.unsqueeze(-1).to(best.scalar_type())}, -1);
}

DetectionModel::DetectionModel(const ModelSpec& spec) : m_spec(spec) {
    m_model = register_module("model", torch::nn::ModuleList());
    switch (spec.family) {
    case Family::YoloV8:
        buildYoloV8(*this);
        break;
    case Family::Yolo11:
        buildYolo11(*this);
        break;
    case Family::Yolo26:
        buildYolo26(*this);
        break;
    }
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

HeadMaps DetectionModel::forwardHeads(const torch::Tensor& images) {
    const auto features = runBackbone(images);
    HeadMaps maps;
    if (m_detect->hasOneToMany())
        maps.oneToMany = m_detect->forwardRaw(features);
    if (m_detect->endToEnd())
        maps.oneToOne = m_detect->forwardRawOneToOne(features);
    return maps;
}

torch::Tensor DetectionModel::forwardEndToEnd(const torch::Tensor& images, int maxDet) {
    return m_detect->decodeEndToEnd(m_detect->forwardRawOneToOne(runBackbone(images)), maxDet);
}

void DetectionModel::fuse(std::optional<HeadBranch> keep) {
    fuseConvBn(*this);
    if (keep)
        m_detect->dropBranch(*keep == HeadBranch::OneToOne);
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
    const std::string head = "model." + std::to_string(m_nodes.size() - 1);
    for (const auto& [name, tensor] : stateDict()) {
        if (name.starts_with(head + ".cv3.") || name.starts_with(head + ".one2one_cv3."))
            names.push_back(name);
    }
    return names;
}

} // namespace osprey::model
