#include "model/ultralytics_tree_impl.h"

#include "model/ultralytics_load_impl.h"

#include <functional>
#include <set>
#include <tuple>
#include <unordered_map>

namespace osprey::model {

namespace {

using pickle::Writer;

// The Python homes of the classes a checkpoint pickles.
constexpr const char* kTorchConv = "torch.nn.modules.conv";
constexpr const char* kTorchBatchNorm = "torch.nn.modules.batchnorm";
constexpr const char* kTorchActivation = "torch.nn.modules.activation";
constexpr const char* kTorchLinear = "torch.nn.modules.linear";
constexpr const char* kTorchContainer = "torch.nn.modules.container";
constexpr const char* kTorchPooling = "torch.nn.modules.pooling";
constexpr const char* kTorchUpsampling = "torch.nn.modules.upsampling";
constexpr const char* kUltralyticsConv = "ultralytics.nn.modules.conv";
constexpr const char* kUltralyticsBlock = "ultralytics.nn.modules.block";
constexpr const char* kUltralyticsHead = "ultralytics.nn.modules.head";
constexpr const char* kUltralyticsTasks = "ultralytics.nn.tasks";

} // namespace

Expected<pickle::TensorRef> StorageRecords::add(const torch::Tensor& tensor) {
    torch::Tensor data = tensor.detach().to(torch::kCPU).contiguous();
    auto type = storageClassOf(data.scalar_type());
    if (!type)
        return fail(type.error());
    pickle::TensorRef ref;
    ref.storageKey = std::to_string(m_records.size());
    ref.storageClass = *type;
    ref.storageNumel = data.numel();
    ref.sizes = data.sizes().vec();
    ref.strides = data.strides().vec();
    m_records.push_back(std::move(data));
    return ref;
}

namespace {

/// A child of a module: its name and how to pickle it.
using Child = std::pair<std::string, std::function<void()>>;

/// Pickles one network (Osprey's module tree, Ultralytics' classes) with the tensors of a state_dict.
class TreeWriter {
public:
    TreeWriter(pickle::Writer& writer, StorageRecords& storages, const TensorList& state, std::string what)
        : m_w(writer), m_storages(storages), m_what(std::move(what)) {
        for (const auto& [name, tensor] : state)
            m_state.emplace(name, &tensor);
    }

    Status network(DetectionModel& model, const CheckpointMeta& meta);

private:
    // ---- values ---------------------------------------------------------------------------------------
    void attr(std::string_view key) { m_w.string(key); }
    void intTuple(std::initializer_list<std::int64_t> values) {
        m_w.beginTuple();
        for (const auto value : values)
            m_w.integer(value);
        m_w.endTuple();
    }
    void tensor(const std::string& name, const torch::Tensor& shapeOf, bool parameter);
    void freeTensor(const torch::Tensor& tensor); ///< a tensor attribute outside the state_dict
    Status literal(std::string_view text);        ///< a Python literal from the layer table's YAML rows

    // ---- modules --------------------------------------------------------------------------------------
    /// One nn.Module: torch's bookkeeping, `m`'s own parameters and buffers (may be null), `children` as
    /// `_modules`, then `attrs()`.
    void module(const char* pyModule, const char* pyClass, const torch::nn::Module* m,
                const std::string& prefix, const std::vector<Child>& children,
                const std::function<void()>& attrs = {});
    /// Any of Osprey's block modules, dispatched on its C++ type.
    /// `extra` adds attributes after the class's own (a top-level layer's i, f, type, np).
    void block(const torch::nn::Module& m, const std::string& prefix,
               const std::function<void()>& extra = {});
    std::vector<Child> childrenOf(const torch::nn::Module& m, const std::string& prefix);
    void conv(const Conv& c, const std::string& prefix, const std::function<void()>& extra);
    void plainConv(const PlainConv& c, const std::string& prefix);
    void layer(DetectionModel& model, size_t index, const std::string& prefix);

    Writer& m_w;
    StorageRecords& m_storages;
    std::string m_what;
    std::unordered_map<std::string, const torch::Tensor*> m_state;
    std::set<std::string> m_used;
    std::string m_error;
    const LayerInfo* m_layer = nullptr; ///< the top-level layer being written
    bool m_inDetect = false;
};

void TreeWriter::tensor(const std::string& name, const torch::Tensor& shapeOf, bool parameter) {
    const auto it = m_state.find(name);
    if (it == m_state.end()) {
        if (m_error.empty())
            m_error = m_what + ": no tensor '" + name + "' for the network " + "its metadata describes";
        m_w.none();
        return;
    }
    if (it->second->sizes() != shapeOf.sizes() && m_error.empty())
        m_error = m_what + ": tensor '" + name + "' has shape " + c10::str(it->second->sizes()) +
                  " where the " + "network has " + c10::str(shapeOf.sizes());
    m_used.insert(name);
    auto ref = m_storages.add(*it->second);
    if (!ref) {
        if (m_error.empty())
            m_error = m_what + ": tensor '" + name + "': " + ref.message();
        m_w.none();
        return;
    }
    m_w.tensor(*ref, parameter, false);
}

void TreeWriter::freeTensor(const torch::Tensor& tensor) {
    auto ref = m_storages.add(tensor);
    if (!ref) {
        if (m_error.empty())
            m_error = ref.message();
        m_w.none();
        return;
    }
    m_w.tensor(*ref, false, false);
}

Status TreeWriter::literal(std::string_view text) {
    size_t at = 0;
    const auto skip = [&] {
        while (at < text.size() && (text[at] == ' ' || text[at] == ','))
            ++at;
    };
    std::function<Status()> value = [&]() -> Status {
        skip();
        if (at >= text.size())
            return fail("YAML row ends early: " + std::string(text), "internal");
        const char c = text[at];
        if (c == '[') {
            ++at;
            m_w.beginList();
            skip();
            while (at < text.size() && text[at] != ']') {
                if (Status ok = value(); !ok)
                    return ok;
                skip();
            }
            if (at >= text.size())
                return fail("YAML row misses ']': " + std::string(text), "internal");
            ++at;
            m_w.endList();
            return {};
        }
        if (c == '\'') {
            const size_t end = text.find('\'', at + 1);
            if (end == std::string_view::npos)
                return fail("YAML row misses a quote: " + std::string(text), "internal");
            m_w.string(text.substr(at + 1, end - at - 1));
            at = end + 1;
            return {};
        }
        size_t end = at;
        while (end < text.size() && text[end] != ',' && text[end] != ']' && text[end] != ' ')
            ++end;
        const std::string word(text.substr(at, end - at));
        at = end;
        if (word == "None")
            m_w.none();
        else if (word == "True" || word == "False")
            m_w.boolean(word == "True");
        else if (word.find_first_of(".e") != std::string::npos)
            m_w.real(std::stod(word));
        else
            m_w.integer(std::stoll(word));
        return {};
    };
    return value();
}

void TreeWriter::module(const char* pyModule, const char* pyClass, const torch::nn::Module* m,
                        const std::string& prefix, const std::vector<Child>& children,
                        const std::function<void()>& attrs) {
    m_w.beginObject(pyModule, pyClass);
    attr("training");
    m_w.boolean(false);
    attr("_parameters");
    m_w.beginOrderedDict();
    if (m != nullptr) {
        for (const auto& item : m->named_parameters(false)) {
            attr(item.key());
            tensor(prefix + item.key(), item.value(), true);
        }
        if (const auto* conv = dynamic_cast<const PlainConv*>(m); conv != nullptr && !conv->bias.defined()) {
            attr("bias");
            m_w.none();
        }
    }
    m_w.endOrderedDict();
    attr("_buffers");
    m_w.beginOrderedDict();
    if (m != nullptr)
        for (const auto& item : m->named_buffers(false)) {
            attr(item.key());
            tensor(prefix + item.key(), item.value(), false);
        }
    m_w.endOrderedDict();
    attr("_non_persistent_buffers_set");
    m_w.emptySet();
    for (const char* hooks :
         {"_backward_pre_hooks", "_backward_hooks", "_forward_hooks", "_forward_hooks_with_kwargs",
          "_forward_hooks_always_called", "_forward_pre_hooks", "_forward_pre_hooks_with_kwargs",
          "_state_dict_hooks", "_state_dict_pre_hooks", "_load_state_dict_pre_hooks",
          "_load_state_dict_post_hooks"}) {
        attr(hooks);
        m_w.beginOrderedDict();
        m_w.endOrderedDict();
    }
    attr("_is_full_backward_hook");
    m_w.none();
    attr("_modules");
    m_w.beginOrderedDict();
    for (const auto& [name, write] : children) {
        attr(name);
        write();
    }
    m_w.endOrderedDict();
    if (attrs)
        attrs();
    m_w.endObject();
}

std::vector<Child> TreeWriter::childrenOf(const torch::nn::Module& m, const std::string& prefix) {
    std::vector<Child> children;
    for (const auto& item : m.named_children()) {
        const std::string name = item.key();
        const torch::nn::Module* child = item.value().get();
        children.emplace_back(name, [this, child, prefix, name] { block(*child, prefix + name + "."); });
    }
    return children;
}

void TreeWriter::plainConv(const PlainConv& c, const std::string& prefix) {
    const std::int64_t k = c.kernel, s = c.stride, p = c.kernel / 2;
    module(kTorchConv, "Conv2d", &c, prefix, {}, [&] {
        attr("in_channels");
        m_w.integer(c.inChannels);
        attr("out_channels");
        m_w.integer(c.outChannels);
        attr("kernel_size");
        intTuple({k, k});
        attr("stride");
        intTuple({s, s});
        attr("padding");
        intTuple({p, p});
        attr("dilation");
        intTuple({1, 1});
        attr("transposed");
        m_w.boolean(false);
        attr("output_padding");
        intTuple({0, 0});
        attr("groups");
        m_w.integer(c.groups);
        attr("padding_mode");
        m_w.string("zeros");
        attr("_reversed_padding_repeated_twice");
        intTuple({p, p, p, p});
    });
}

void TreeWriter::conv(const Conv& c, const std::string& prefix, const std::function<void()>& extra) {
    std::vector<Child> children;
    children.emplace_back("conv", [&] { plainConv(*c.conv, prefix + "conv."); });
    const torch::nn::BatchNorm2dImpl* bn = c.bn.get();
    children.emplace_back("bn", [&, bn] {
        const auto& options = bn->options;
        module(kTorchBatchNorm, "BatchNorm2d", bn, prefix + "bn.", {}, [&] {
            attr("num_features");
            m_w.integer(options.num_features());
            attr("eps");
            m_w.real(options.eps());
            attr("momentum");
            if (options.momentum())
                m_w.real(*options.momentum());
            else
                m_w.none();
            attr("affine");
            m_w.boolean(options.affine());
            attr("track_running_stats");
            m_w.boolean(options.track_running_stats());
        });
    });
    children.emplace_back("act", [&] {
        if (c.activation() == Activation::SiLU)
            module(kTorchActivation, "SiLU", nullptr, "", {}, [&] {
                attr("inplace");
                m_w.boolean(false);
            });
        else
            module(kTorchLinear, "Identity", nullptr, "", {});
    });
    // Ultralytics' Detect builds its depthwise class-branch convolutions as DWConv (a Conv subclass).
    const bool depthwise = m_inDetect && c.conv->groups > 1;
    module(kUltralyticsConv, depthwise ? "DWConv" : "Conv", nullptr, prefix, children, extra);
}

/// The hidden width `c` of a C2f / C2PSA: half of cv1's output channels.
int hiddenOf(const torch::nn::Module& m) {
    for (const auto& item : m.named_children())
        if (item.key() == "cv1")
            if (const auto* cv1 = dynamic_cast<const Conv*>(item.value().get()))
                return cv1->conv->outChannels / 2;
    return 0;
}

void TreeWriter::block(const torch::nn::Module& m, const std::string& prefix,
                       const std::function<void()>& extra) {
    // The class's own attributes, then `extra`.
    const auto with = [&extra](std::function<void()> own) {
        return [own = std::move(own), &extra] {
            if (own)
                own();
            if (extra)
                extra();
        };
    };
    if (const auto* c = dynamic_cast<const Conv*>(&m)) {
        if (c->fused() && m_error.empty())
            m_error = m_what + ": a fused network cannot be written for Ultralytics";
        conv(*c, prefix, extra);
    } else if (const auto* p = dynamic_cast<const PlainConv*>(&m)) {
        plainConv(*p, prefix);
    } else if (const auto* b = dynamic_cast<const Bottleneck*>(&m)) {
        module(kUltralyticsBlock, "Bottleneck", b, prefix, childrenOf(m, prefix), with([&] {
                   attr("add");
                   m_w.boolean(b->residual());
               }));
    } else if (dynamic_cast<const C2f*>(&m) != nullptr) {
        const bool c3k2 = m_layer != nullptr && m_layer->type == "C3k2";
        module(kUltralyticsBlock, c3k2 ? "C3k2" : "C2f", &m, prefix, childrenOf(m, prefix), with([&] {
                   attr("c");
                   m_w.integer(hiddenOf(m));
               }));
    } else if (dynamic_cast<const C3k*>(&m) != nullptr) {
        module(kUltralyticsBlock, "C3k", &m, prefix, childrenOf(m, prefix), with({}));
    } else if (const auto* s = dynamic_cast<const Sppf*>(&m)) {
        auto children = childrenOf(m, prefix);
        const std::int64_t k = s->kernel();
        children.emplace_back("m", [this, k] {
            module(kTorchPooling, "MaxPool2d", nullptr, "", {}, [this, k] {
                attr("kernel_size");
                m_w.integer(k);
                attr("stride");
                m_w.integer(1);
                attr("padding");
                m_w.integer(k / 2);
                attr("dilation");
                m_w.integer(1);
                attr("return_indices");
                m_w.boolean(false);
                attr("ceil_mode");
                m_w.boolean(false);
            });
        });
        module(kUltralyticsBlock, "SPPF", &m, prefix, children, with([&] {
                   // Three chained pools; YOLO26 adds the input (YOLOv8/11 do not).
                   attr("n");
                   m_w.integer(3);
                   attr("add");
                   m_w.boolean(s->residual());
               }));
    } else if (dynamic_cast<const C2Psa*>(&m) != nullptr) {
        module(kUltralyticsBlock, "C2PSA", &m, prefix, childrenOf(m, prefix), with([&] {
                   attr("c");
                   m_w.integer(hiddenOf(m));
               }));
    } else if (dynamic_cast<const PsaBlock*>(&m) != nullptr) {
        module(kUltralyticsBlock, "PSABlock", &m, prefix, childrenOf(m, prefix), with([&] {
                   attr("add");
                   m_w.boolean(true);
               }));
    } else if (const auto* a = dynamic_cast<const Attention*>(&m)) {
        module(kUltralyticsBlock, "Attention", &m, prefix, childrenOf(m, prefix), with([&] {
                   attr("num_heads");
                   m_w.integer(a->numHeads());
                   attr("head_dim");
                   m_w.integer(a->headDim());
                   attr("key_dim");
                   m_w.integer(a->keyDim());
                   attr("scale");
                   m_w.real(a->scale());
               }));
    } else if (dynamic_cast<const Dfl*>(&m) != nullptr) {
        module(kUltralyticsBlock, "DFL", &m, prefix, childrenOf(m, prefix), with([&] {
                   attr("c1");
                   m_w.integer(kRegMax);
               }));
    } else if (dynamic_cast<const SequentialBlock*>(&m) != nullptr) {
        module(kTorchContainer, "Sequential", &m, prefix, childrenOf(m, prefix), with({}));
    } else if (dynamic_cast<const torch::nn::ModuleListImpl*>(&m) != nullptr) {
        module(kTorchContainer, "ModuleList", &m, prefix, childrenOf(m, prefix), with({}));
    } else {
        if (m_error.empty())
            m_error = m_what + ": '" + prefix + "' is a module Osprey cannot write for Ultralytics (" +
                      m.name() + ")";
        m_w.none();
    }
}

void TreeWriter::layer(DetectionModel& model, size_t index, const std::string& prefix) {
    const LayerInfo& info = model.layers()[index];
    m_layer = &info;
    const auto topLevel = [this, &info] {
        attr("i");
        m_w.integer(info.index);
        attr("f");
        if (info.from.size() == 1) {
            m_w.integer(info.from[0]);
        } else {
            m_w.beginList();
            for (const int from : info.from)
                m_w.integer(from);
            m_w.endList();
        }
        attr("type");
        m_w.string(info.type == "Upsample" ? "torch.nn.modules.upsampling.Upsample"
                   : info.type == "Concat" ? "ultralytics.nn.modules.conv.Concat"
                   : info.type == "Detect" ? "ultralytics.nn.modules.head.Detect"
                   : info.type == "Conv"   ? "ultralytics.nn.modules.conv.Conv"
                                           : "ultralytics.nn.modules.block." + info.type);
        attr("np");
        m_w.integer(info.params);
    };
    torch::nn::Module& m = *model.named_children()["model"]->children()[index];
    if (info.type == "Upsample") {
        module(kTorchUpsampling, "Upsample", nullptr, prefix, {}, [&] {
            attr("name");
            m_w.string("Upsample");
            attr("size");
            m_w.none();
            attr("scale_factor");
            m_w.real(2.0);
            attr("mode");
            m_w.string("nearest");
            attr("align_corners");
            m_w.none();
            attr("recompute_scale_factor");
            m_w.none();
            topLevel();
        });
    } else if (info.type == "Concat") {
        module(kUltralyticsConv, "Concat", nullptr, prefix, {}, [&] {
            attr("d");
            m_w.integer(1);
            topLevel();
        });
    } else if (info.type == "Detect") {
        Detect& head = model.head();
        if (head.endToEnd() && !head.hasOneToMany() && m_error.empty())
            m_error =
                m_what + ": a YOLO26 head without its one-to-many branch cannot be written for Ultralytics";
        m_inDetect = true;
        // Ultralytics' order: cv2, cv3, dfl (a DFL, or an Identity when reg_max is 1), then an end-to-end
        // head's one2one_cv2 and one2one_cv3.
        std::vector<Child> children;
        for (auto& child : childrenOf(m, prefix)) {
            children.push_back(std::move(child));
            if (children.back().first == "cv3" && head.regMax() == 1)
                children.emplace_back("dfl", [this] { module(kTorchLinear, "Identity", nullptr, "", {}); });
        }
        module(kUltralyticsHead, "Detect", &m, prefix, children, [&] {
            attr("nc");
            m_w.integer(head.numClasses());
            attr("nl");
            m_w.integer(static_cast<std::int64_t>(head.strides().size()));
            attr("reg_max");
            m_w.integer(head.regMax());
            attr("no");
            m_w.integer(head.numClasses() + 4 * head.regMax());
            attr("stride");
            std::vector<float> strides(head.strides().begin(), head.strides().end());
            freeTensor(torch::tensor(strides));
            topLevel();
            attr("inplace");
            m_w.boolean(true);
            if (head.endToEnd()) {
                // As Ultralytics 8.4.190's trainer leaves them in a best.pt (its validator sets both): the
                // one-to-many head with NMS by default; predict and val choose the head from `nms` anyway.
                attr("max_det");
                m_w.integer(300);
                attr("_end2end");
                m_w.boolean(false);
            }
        });
        m_inDetect = false;
    } else {
        block(m, prefix, topLevel);
    }
    m_layer = nullptr;
}

Status TreeWriter::network(DetectionModel& model, const CheckpointMeta& meta) {
    const auto& layers = model.layers();
    std::vector<Child> layerChildren;
    for (size_t i = 0; i < layers.size(); ++i)
        layerChildren.emplace_back(
            std::to_string(i), [this, &model, i] { layer(model, i, "model." + std::to_string(i) + "."); });
    Status yamlStatus;
    module(
        kUltralyticsTasks, "DetectionModel", nullptr, "",
        {{"model", [&] { module(kTorchContainer, "Sequential", nullptr, "model.", layerChildren); }}}, [&] {
            // The model YAML as Ultralytics keeps it: the family's rows, the scales, and which one this is.
            attr("yaml");
            m_w.beginDict();
            attr("nc");
            m_w.integer(meta.spec.numClasses);
            if (meta.spec.family == Family::Yolo26) {
                // yolo26.yaml's top-level keys: the end-to-end head without DFL.
                attr("end2end");
                m_w.boolean(true);
                attr("reg_max");
                m_w.integer(1);
            }
            attr("scales");
            m_w.beginDict();
            for (const Scale scale : {Scale::N, Scale::S, Scale::M, Scale::L, Scale::X}) {
                const ScaleFactors f = scaleFactors(meta.spec.family, scale);
                attr(std::string(1, scaleLetter(scale)));
                m_w.beginList();
                m_w.real(f.depth);
                m_w.real(f.width);
                m_w.integer(f.maxChannels);
                m_w.endList();
            }
            m_w.endDict();
            // The backbone ends where the first upsampling starts the head.
            size_t headStart = layers.size();
            for (size_t i = 0; i < layers.size(); ++i)
                if (layers[i].type == "Upsample") {
                    headStart = i;
                    break;
                }
            for (const auto& [part, first, last] : {std::tuple{"backbone", size_t{0}, headStart},
                                                    std::tuple{"head", headStart, layers.size()}}) {
                attr(part);
                m_w.beginList();
                for (size_t i = first; i < last; ++i) {
                    const LayerInfo& info = layers[i];
                    m_w.beginList();
                    if (info.from.size() == 1) {
                        m_w.integer(info.from[0]);
                    } else {
                        m_w.beginList();
                        for (const int from : info.from)
                            m_w.integer(from);
                        m_w.endList();
                    }
                    m_w.integer(info.yamlRepeats);
                    m_w.string(info.type == "Upsample" ? "nn.Upsample" : info.type);
                    if (Status ok = literal(info.yamlArgs.empty() ? "[]" : info.yamlArgs); !ok && yamlStatus)
                        yamlStatus = ok;
                    m_w.endList();
                }
                m_w.endList();
            }
            attr("scale");
            m_w.string(std::string(1, scaleLetter(meta.spec.scale)));
            attr("yaml_file");
            m_w.string(meta.spec.name() + ".yaml");
            attr("channels");
            m_w.integer(3);
            m_w.endDict();

            // Layers whose outputs later layers read.
            std::set<int> save;
            for (const LayerInfo& info : layers)
                for (const int from : info.from)
                    if (from != -1)
                        save.insert(from);
            attr("save");
            m_w.beginList();
            for (const int index : save)
                m_w.integer(index);
            m_w.endList();
            attr("names");
            m_w.beginDict();
            for (int i = 0; i < meta.spec.numClasses; ++i) {
                m_w.integer(i);
                m_w.string(static_cast<size_t>(i) < meta.names.size() ? meta.names[static_cast<size_t>(i)]
                                                                      : "class" + std::to_string(i));
            }
            m_w.endDict();
            attr("inplace");
            m_w.boolean(true);
            attr("stride");
            std::vector<float> strides(model.strides().begin(), model.strides().end());
            freeTensor(torch::tensor(strides));
        });
    if (!m_error.empty())
        return fail(m_error, "invalid");
    if (!yamlStatus)
        return yamlStatus;
    for (const auto& [name, tensor] : m_state)
        if (!m_used.count(name))
            return fail(m_what + ": tensor '" + name + "' is not part of the network its metadata describes",
                        "invalid");
    return {};
}

} // namespace

Status writeNetwork(pickle::Writer& writer, StorageRecords& storages, DetectionModel& model,
                    const CheckpointMeta& meta, const TensorList& state, const std::string& what) {
    TreeWriter tree(writer, storages, state, what);
    return tree.network(model, meta);
}

} // namespace osprey::model
