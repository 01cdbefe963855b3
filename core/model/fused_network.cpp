#include "model/fused_network.h"

#include "model/detector_torch_impl.h"

namespace osprey::model {

namespace {

FusedTensor copyTensor(const torch::Tensor& tensor) {
    FusedTensor out;
    if (!tensor.defined())
        return out;
    const auto cpu = tensor.detach().to(torch::kCPU, torch::kFloat).contiguous();
    for (const auto size : cpu.sizes())
        out.shape.push_back(size);
    const float* data = cpu.data_ptr<float>();
    out.values.assign(data, data + cpu.numel());
    return out;
}

void copyConvolution(const PlainConv& conv, FusedBlock& block) {
    block.inChannels = conv.inChannels;
    block.outChannels = conv.outChannels;
    block.kernel = conv.kernel;
    block.stride = conv.stride;
    block.groups = conv.groups;
    block.weight = copyTensor(conv.weight);
    block.bias = copyTensor(conv.bias);
}

template <typename T> const T* as(const torch::nn::Module& module) {
    return dynamic_cast<const T*>(&module);
}

Expected<FusedBlock> describe(const torch::nn::Module& module, const std::string& scope);

Status describeChildren(const torch::nn::Module& module, const std::string& scope, FusedBlock& block) {
    for (const auto& item : module.named_children()) {
        auto child = describe(*item.value(), scope + "." + item.key());
        if (!child)
            return fail(child.error());
        block.children.emplace_back(item.key(), std::move(*child));
    }
    return {};
}

Expected<FusedBlock> describe(const torch::nn::Module& module, const std::string& scope) {
    FusedBlock block;
    using Kind = FusedBlock::Kind;
    if (const auto* conv = as<Conv>(module)) {
        if (!conv->fused())
            return fail(scope + ": BatchNorm is not folded into the convolution (fuse the model first)");
        block.kind = Kind::Conv;
        block.type = "Conv";
        block.silu = conv->activation() == Activation::SiLU;
        copyConvolution(*conv->conv, block);
        return block;
    }
    if (const auto* conv = as<PlainConv>(module)) {
        block.kind = Kind::PlainConv;
        block.type = "Conv2d";
        copyConvolution(*conv, block);
        return block;
    }
    if (const auto* bottleneck = as<Bottleneck>(module)) {
        block.kind = Kind::Bottleneck;
        block.type = "Bottleneck";
        block.residual = bottleneck->residual();
    } else if (as<C3k>(module)) {
        block.kind = Kind::C3k;
        block.type = "C3k";
    } else if (as<C2f>(module)) {
        block.kind = Kind::C2f;
        block.type = "C2f";
    } else if (const auto* sppf = as<Sppf>(module)) {
        block.kind = Kind::Sppf;
        block.type = "SPPF";
        block.poolKernel = sppf->kernel();
        block.residual = sppf->residual();
    } else if (const auto* attention = as<Attention>(module)) {
        block.kind = Kind::Attention;
        block.type = "Attention";
        block.heads = attention->numHeads();
        block.keyDim = attention->keyDim();
        block.headDim = attention->headDim();
        block.scale = attention->scale();
    } else if (as<PsaBlock>(module)) {
        block.kind = Kind::PsaBlock;
        block.type = "PSABlock";
    } else if (as<C2Psa>(module)) {
        block.kind = Kind::C2Psa;
        block.type = "C2PSA";
    } else if (as<SequentialBlock>(module)) {
        block.kind = Kind::Sequence;
        block.type = "Sequential";
    } else if (as<torch::nn::ModuleListImpl>(module)) {
        block.kind = Kind::List;
        block.type = "ModuleList";
    } else {
        return fail(scope + ": no description for module " + module.name());
    }
    if (auto children = describeChildren(module, scope, block); !children)
        return fail(children.error());
    return block;
}

std::shared_ptr<torch::nn::Module> namedChild(const torch::nn::Module& module, const std::string& name) {
    for (const auto& item : module.named_children())
        if (item.key() == name)
            return item.value();
    return nullptr;
}

Expected<FusedHead> describeHead(Detect& head, const std::string& scope) {
    FusedHead out;
    out.strides = head.strides();
    out.numClasses = head.numClasses();
    out.regMax = head.regMax();
    // A fused end-to-end head keeps one branch; Ultralytics' fuse drops the other one the same way.
    out.oneToOne = !head.hasOneToMany();
    if (out.oneToOne && !head.endToEnd())
        return fail(scope + ": the head has neither branch");
    if (head.endToEnd() && head.hasOneToMany() && namedChild(head, "one2one_cv2"))
        return fail(scope + ": the end-to-end head still holds both branches (fuse it with one HeadBranch)");
    const std::string boxName = out.oneToOne ? "one2one_cv2" : "cv2";
    const std::string className = out.oneToOne ? "one2one_cv3" : "cv3";
    const auto boxes = namedChild(head, boxName), classes = namedChild(head, className);
    if (!boxes || !classes)
        return fail(scope + ": the head lacks " + boxName + " or " + className);
    const auto branches = [&](const torch::nn::Module& list, const std::string& name,
                              std::vector<FusedBlock>& into) -> Status {
        for (const auto& item : list.named_children()) {
            auto branch = describe(*item.value(), scope + "." + name + "." + item.key());
            if (!branch)
                return fail(branch.error());
            into.push_back(std::move(*branch));
        }
        return {};
    };
    if (auto b = branches(*boxes, boxName, out.boxBranches); !b)
        return fail(b.error());
    if (auto c = branches(*classes, className, out.classBranches); !c)
        return fail(c.error());
    if (out.regMax > 1) {
        const auto dfl = namedChild(head, "dfl");
        const auto dflConv = dfl ? std::dynamic_pointer_cast<PlainConv>(namedChild(*dfl, "conv")) : nullptr;
        if (!dflConv)
            return fail(scope + ".dfl: no conv");
        out.dflWeight = copyTensor(dflConv->weight.reshape({-1}));
    }
    if (out.boxBranches.size() != out.strides.size() || out.classBranches.size() != out.strides.size())
        return fail(scope + ": " + std::to_string(out.strides.size()) + " strides for " +
                    std::to_string(out.boxBranches.size()) + " head levels");
    return out;
}

} // namespace

const FusedBlock* FusedBlock::child(const std::string& name) const {
    for (const auto& [key, block] : children)
        if (key == name)
            return &block;
    return nullptr;
}

Expected<FusedNetwork> describeFused(const Detector& detector) {
    auto& model = *detector.impl().model;
    if (!model.fused())
        return fail("the network is not fused (BatchNorm must be folded into the convolutions first)");
    const auto list = namedChild(model, "model");
    if (!list)
        return fail("the network has no layer list (model)");
    const auto modules = list->children();
    const auto& layers = model.layers();
    if (modules.size() != layers.size())
        return fail("the network has " + std::to_string(modules.size()) + " modules for " +
                    std::to_string(layers.size()) + " layers");
    FusedNetwork network;
    torch::NoGradGuard noGrad;
    for (size_t i = 0; i < layers.size(); ++i) {
        FusedLayer layer;
        layer.type = layers[i].type;
        layer.from = layers[i].from;
        const std::string scope = "model." + std::to_string(i);
        if (layer.type == "Detect") {
            auto head = std::dynamic_pointer_cast<Detect>(modules[i]);
            if (!head)
                return fail(scope + ": Detect layer without a Detect module");
            auto described = describeHead(*head, scope);
            if (!described)
                return fail(described.error());
            network.head = std::move(*described);
        } else if (layer.type != "Upsample" && layer.type != "Concat") {
            auto block = describe(*modules[i], scope);
            if (!block)
                return fail(block.error());
            layer.block = std::move(*block);
        }
        network.layers.push_back(std::move(layer));
    }
    if (network.layers.empty() || network.layers.back().type != "Detect")
        return fail("the network has no Detect layer");
    return network;
}

void roundParametersToHalf(Detector& detector) {
    torch::NoGradGuard noGrad;
    for (auto& parameter : detector.impl().model->parameters())
        parameter.copy_(parameter.to(torch::kHalf).to(parameter.scalar_type()));
}

Expected<std::vector<float>> forwardDecoded(Detector& detector, const std::vector<float>& image, int side,
                                            std::int64_t* anchors, HeadBranch branch) {
    if (side < 32 || side % 32 != 0)
        return fail("forward: side " + std::to_string(side) + " is not a positive multiple of 32");
    if (image.size() != static_cast<size_t>(3) * side * side)
        return fail("forward: the image holds " + std::to_string(image.size()) + " values, not 3 x " +
                    std::to_string(side) + " x " + std::to_string(side));
    torch::NoGradGuard noGrad;
    auto& model = *detector.impl().model;
    const bool oneToOne = branch == HeadBranch::OneToOne;
    if (oneToOne ? !model.head().endToEnd() : !model.head().hasOneToMany())
        return fail(std::string("forward: the head has no ") + (oneToOne ? "one-to-one" : "one-to-many") +
                    " branch");
    const bool training = model.is_training();
    model.eval();
    const auto parameter = model.parameters().front();
    const auto input = torch::from_blob(const_cast<float*>(image.data()), {1, 3, side, side}, torch::kFloat)
                           .to(parameter.device(), parameter.scalar_type());
    const auto decoded =
        oneToOne ? model.head().decode(model.forwardHeads(input).oneToOne) : model.forwardDecoded(input);
    const auto output = decoded.to(torch::kCPU, torch::kFloat).contiguous();
    if (training)
        model.train();
    if (anchors != nullptr)
        *anchors = output.size(2);
    const float* data = output.data_ptr<float>();
    return std::vector<float>(data, data + output.numel());
}

} // namespace osprey::model
