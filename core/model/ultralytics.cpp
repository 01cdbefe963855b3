#include "model/ultralytics_impl.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>

namespace osprey::model {

namespace {

using pickle::Kind;
using pickle::Value;

/// The layer classes of the detection networks, as Ultralytics' yolov8.yaml, yolo11.yaml and yolo26.yaml
/// list them (YOLO26's are YOLO11's; its head and block arguments differ).
const std::vector<std::string>& expectedLayers(Family family) {
    static const std::vector<std::string> v8 = {"Conv", "Conv",     "C2f",    "Conv", "C2f",      "Conv",
                                                "C2f",  "Conv",     "C2f",    "SPPF", "Upsample", "Concat",
                                                "C2f",  "Upsample", "Concat", "C2f",  "Conv",     "Concat",
                                                "C2f",  "Conv",     "Concat", "C2f",  "Detect"};
    static const std::vector<std::string> v11 = {"Conv",   "Conv", "C3k2",     "Conv",   "C3k2",  "Conv",
                                                 "C3k2",   "Conv", "C3k2",     "SPPF",   "C2PSA", "Upsample",
                                                 "Concat", "C3k2", "Upsample", "Concat", "C3k2",  "Conv",
                                                 "Concat", "C3k2", "Conv",     "Concat", "C3k2",  "Detect"};
    return family == Family::YoloV8 ? v8 : v11;
}

struct Context {
    const std::string& file;
    std::vector<UltralyticsTensor>* out = nullptr;
    bool sppfActivation = true;
};

Unexpected unsupported(const std::string& file, const std::string& what) {
    return fail(file + ": " + what, "unsupported");
}

/// Appends the tensors of `_parameters` or `_buffers` of one module.
Status addTensors(Context& context, const Value* group, const Value* skip, const std::string& prefix) {
    if (group == nullptr || group->is(Kind::None))
        return {};
    if (!group->is(Kind::Dict))
        return fail(context.file + ": '" + prefix + "' holds a " + group->qualifiedName() +
                        " where a dict of tensors belongs",
                    "corrupt");
    for (const auto& [key, value] : group->entries) {
        if (!key || !key->is(Kind::String))
            return fail(context.file + ": a tensor name under '" + prefix + "' is not a string", "corrupt");
        const std::string name = prefix + key->text;
        bool persistent = true;
        if (skip != nullptr)
            for (const auto& item : skip->items)
                if (item && item->is(Kind::String) && item->text == key->text)
                    persistent = false;
        if (!persistent || !value || value->is(Kind::None))
            continue;
        if (!value->is(Kind::Tensor))
            return fail(context.file + ": '" + name + "' should be a tensor but is " +
                            (value->is(Kind::Object) || value->is(Kind::Call) || value->is(Kind::Global)
                                 ? "a " + value->qualifiedName()
                                 : "'" + pickle::toText(value.get()) + "'"),
                        "corrupt");
        context.out->push_back({name, value->tensor});
    }
    return {};
}

const Value* moduleChild(const Value* module, std::string_view name) {
    return pickle::get(pickle::attr(module, "_modules"), name);
}

Status checkActivation(Context& context, const Value* conv, const std::string& path) {
    const Value* act = moduleChild(conv, "act");
    const std::string actClass = act != nullptr && act->is(Kind::Object) ? act->name : "none";
    const bool inAttention = path.find(".attn.") != std::string::npos || path.ends_with(".ffn.1.");
    const std::string expected = inAttention ? "Identity" : "SiLU";
    if (actClass != expected)
        return unsupported(context.file, "unsupported activation " + actClass + " at '" + path +
                                             "act' (Osprey builds " + expected + " there)");
    return {};
}

/// The state_dict of one module record, in PyTorch's order: parameters, persistent buffers, children.
Status walk(Context& context, const Value* module, const std::string& prefix, int depth) {
    if (depth > 32)
        return fail(context.file + ": modules nested deeper than 32 at '" + prefix + "'", "corrupt");
    if (module == nullptr || !module->is(Kind::Object) || !module->state || !module->state->is(Kind::Dict))
        return fail(context.file + ": '" + prefix + "' is not a module record", "corrupt");
    if (Status ok = addTensors(context, pickle::attr(module, "_parameters"), nullptr, prefix); !ok)
        return ok;
    if (Status ok = addTensors(context, pickle::attr(module, "_buffers"),
                               pickle::attr(module, "_non_persistent_buffers_set"), prefix);
        !ok)
        return ok;
    const Value* children = pickle::attr(module, "_modules");
    if (children == nullptr)
        return {};
    if (!children->is(Kind::Dict))
        return fail(context.file + ": '" + prefix + "_modules' is not a dict", "corrupt");
    for (const auto& [key, child] : children->entries) {
        if (!key || !key->is(Kind::String))
            return fail(context.file + ": a module name under '" + prefix + "' is not a string", "corrupt");
        if (!child || child->is(Kind::None))
            continue;
        const std::string path = prefix + key->text + ".";
        if (child->is(Kind::Object) && (child->name == "Conv" || child->name == "DWConv") &&
            child->module.starts_with("ultralytics")) {
            const bool sppfCv1 = module->name == "SPPF" && key->text == "cv1";
            if (sppfCv1) {
                const Value* act = moduleChild(child.get(), "act");
                const std::string actClass = act != nullptr && act->is(Kind::Object) ? act->name : "none";
                if (actClass != "SiLU" && actClass != "Identity")
                    return unsupported(context.file, "unsupported activation " + actClass + " at '" +
                                                         path.substr(0, path.size() - 1) + "'");
                context.sppfActivation = actClass == "SiLU";
            } else if (Status ok = checkActivation(context, child.get(), path); !ok) {
                return ok;
            }
        }
        if (Status ok = walk(context, child.get(), path, depth + 1); !ok)
            return ok;
    }
    return {};
}

/// Reads a small float16/float32 1-D tensor from the archive.
std::vector<double> smallTensor(const ZipArchive& archive, const std::string& prefix,
                                const pickle::TensorRef& ref) {
    std::vector<double> values;
    const ZipRecord* record = archive.find(prefix + "/data/" + ref.storageKey);
    const int size = storageElementSize(ref.storageClass);
    if (record == nullptr || record->compressed || ref.sizes.size() != 1 || size == 0 || ref.sizes[0] > 16)
        return values;
    const std::string_view bytes = archive.bytes(*record);
    const std::int64_t step = ref.strides.empty() ? 1 : ref.strides[0];
    for (std::int64_t i = 0; i < ref.sizes[0]; ++i) {
        const std::uint64_t at =
            static_cast<std::uint64_t>(ref.offset + i * step) * static_cast<std::uint64_t>(size);
        if (at + static_cast<std::uint64_t>(size) > bytes.size())
            return {};
        if (ref.storageClass == "FloatStorage") {
            float f = 0;
            std::memcpy(&f, bytes.data() + at, 4);
            values.push_back(f);
        } else if (ref.storageClass == "HalfStorage") {
            std::uint16_t h = 0;
            std::memcpy(&h, bytes.data() + at, 2);
            values.push_back(halfToFloat(h));
        } else {
            return {};
        }
    }
    return values;
}

Expected<Family> recoverFamily(const Value* layers, const Value* root, const std::string& file) {
    std::vector<std::string> classes;
    for (const auto& [key, layer] : layers->entries)
        classes.push_back(layer && layer->is(Kind::Object) ? layer->name : "?");
    const std::string headClass = classes.empty() ? "" : classes.back();
    static const std::map<std::string, std::string> tasks = {{"Segment", "segmentation"},
                                                             {"Pose", "pose"},
                                                             {"OBB", "oriented-box (OBB)"},
                                                             {"Classify", "classification"},
                                                             {"Segment26", "YOLO26 segmentation"},
                                                             {"Pose26", "YOLO26 pose"},
                                                             {"OBB26", "YOLO26 oriented-box (OBB)"},
                                                             {"WorldDetect", "YOLO-World"},
                                                             {"v10Detect", "YOLOv10"},
                                                             {"YOLOEDetect", "YOLOE"},
                                                             {"RTDETRDecoder", "RT-DETR"}};
    if (const auto it = tasks.find(headClass); it != tasks.end())
        return unsupported(file, "a " + it->second + " checkpoint (" + headClass +
                                     " head); Osprey reads object-detection checkpoints (Detect head) only");
    const Value* head = layers->entries.empty() ? nullptr : layers->entries.back().second.get();
    const bool v8 = std::find(classes.begin(), classes.end(), "C2f") != classes.end();
    // YOLO26: the Detect head carries a one-to-one branch (spec yolo26 §6).
    const bool endToEnd = moduleChild(head, "one2one_cv2") != nullptr;
    const Family family = v8 ? Family::YoloV8 : endToEnd ? Family::Yolo26 : Family::Yolo11;
    const std::string yamlFile = pickle::toText(pickle::get(pickle::attr(root, "yaml"), "yaml_file"));
    if (family == Family::Yolo11 && yamlFile.find("26") != std::string::npos)
        return unsupported(file, "a YOLO26 network built without its one-to-one head (end2end=False, from " +
                                     yamlFile +
                                     "); Osprey reads YOLO26 detectors as yolo26.yaml builds them");
    const auto& expected = expectedLayers(family);
    for (size_t i = 0; i < std::max(classes.size(), expected.size()); ++i) {
        const std::string found = i < classes.size() ? classes[i] : "nothing";
        const std::string wanted = i < expected.size() ? expected[i] : "nothing";
        if (found != wanted)
            return unsupported(file, "not a YOLOv8, YOLO11 or YOLO26 detection network: layer model." +
                                         std::to_string(i) + " is " + found + " where " + familyName(family) +
                                         " has " + wanted);
    }
    return family;
}

Expected<Scale> recoverScale(const Value* root, Family family, const std::string& file) {
    const Value* yaml = pickle::attr(root, "yaml");
    const std::string letter = pickle::toText(pickle::get(yaml, "scale"));
    if (letter.size() == 1)
        if (auto scale = parseScale(letter))
            return *scale;
    const Value* depth = pickle::get(yaml, "depth_multiple");
    const Value* width = pickle::get(yaml, "width_multiple");
    const auto number = [](const Value* v) {
        return v == nullptr         ? NAN
               : v->is(Kind::Float) ? v->real
               : v->is(Kind::Int)   ? static_cast<double>(v->integer)
                                    : NAN;
    };
    for (Scale scale : {Scale::N, Scale::S, Scale::M, Scale::L, Scale::X}) {
        const ScaleFactors f = scaleFactors(family, scale);
        if (std::abs(f.depth - number(depth)) < 1e-6 && std::abs(f.width - number(width)) < 1e-6)
            return scale;
    }
    return fail(file +
                    ": cannot tell the model scale (the model yaml has no 'scale' and its depth/width "
                    "multiples match no " +
                    familyName(family) + " scale)",
                "unsupported");
}

Status describeNetwork(UltralyticsCheckpoint& out, const Value* root, const std::string& file,
                       const ZipArchive* archive) {
    const Value* sequential = moduleChild(root, "model");
    const Value* layers = pickle::attr(sequential, "_modules");
    if (layers == nullptr || !layers->is(Kind::Dict) || layers->entries.empty())
        return fail(file + ": the DetectionModel has no layers ('model._modules')", "corrupt");
    auto family = recoverFamily(layers, root, file);
    if (!family)
        return fail(family.error());
    auto scale = recoverScale(root, *family, file);
    if (!scale)
        return fail(scale.error());
    const Value* head = layers->entries.back().second.get();
    const Value* nc = pickle::attr(head, "nc");
    if (nc == nullptr || !nc->is(Kind::Int) || nc->integer < 1 || nc->integer > 100000)
        return fail(file + ": the Detect head has no valid 'nc'", "corrupt");
    const Value* regMax = pickle::attr(head, "reg_max");
    const int expectedRegMax = *family == Family::Yolo26 ? 1 : 16;
    if (regMax != nullptr && regMax->is(Kind::Int) && regMax->integer != expectedRegMax)
        return unsupported(file, "Detect head with reg_max " + std::to_string(regMax->integer) +
                                     " (Osprey's " + familyName(*family) + " uses " +
                                     std::to_string(expectedRegMax) + ")");
    out.meta.spec = ModelSpec{*family, *scale, static_cast<int>(nc->integer)};
    // Names: a dict {index: name} (Ultralytics >= 8) or a list.
    const Value* names = pickle::attr(root, "names");
    for (int i = 0; i < out.meta.spec.numClasses; ++i) {
        const Value* name =
            names != nullptr && names->is(Kind::Dict) ? pickle::get(names, std::int64_t{i})
            : names != nullptr && names->is(Kind::List) && static_cast<size_t>(i) < names->items.size()
                ? names->items[static_cast<size_t>(i)].get()
                : nullptr;
        out.meta.names.push_back(name != nullptr && name->is(Kind::String) ? name->text
                                                                           : "class" + std::to_string(i));
    }
    Context context{file};
    context.out = &out.model;
    if (Status ok = walk(context, root, "", 0); !ok)
        return ok;
    out.meta.spec.sppfActivation = context.sppfActivation;
    // The tensors outside the state_dict.
    const auto extra = [&](const Value* owner, const char* key, const std::string& name) {
        const Value* t = pickle::attr(owner, key);
        if (t != nullptr && t->is(Kind::Tensor))
            out.extras.push_back({name, t->tensor});
        return t;
    };
    const Value* stride = extra(root, "stride", "(DetectionModel.stride)");
    extra(head, "stride", "(Detect.stride)");
    extra(head, "anchors", "(Detect.anchors)");
    extra(head, "strides", "(Detect.strides)");
    if (archive != nullptr && stride != nullptr && stride->is(Kind::Tensor)) {
        const auto values = smallTensor(*archive, out.archivePrefix, stride->tensor);
        if (!values.empty() && values != std::vector<double>{8, 16, 32})
            return unsupported(file, "strides other than 8, 16, 32");
    }
    return {};
}

std::string scalarText(const Value* value) {
    return value == nullptr ? "" : pickle::toText(value);
}

} // namespace

int storageElementSize(std::string_view storageClass) {
    static const std::map<std::string, int, std::less<>> sizes = {
        {"HalfStorage", 2}, {"BFloat16Storage", 2}, {"FloatStorage", 4}, {"DoubleStorage", 8},
        {"LongStorage", 8}, {"IntStorage", 4},      {"ShortStorage", 2}, {"CharStorage", 1},
        {"ByteStorage", 1}, {"BoolStorage", 1}};
    const auto it = sizes.find(storageClass);
    return it == sizes.end() ? 0 : it->second;
}

bool isTorchSaveArchive(const ZipArchive& archive) {
    if (archive.findSuffix("data.pkl") == nullptr)
        return false;
    for (const auto& record : archive.records())
        if (record.name.ends_with("/constants.pkl") || record.name.find("/code/") != std::string::npos)
            return false;
    return true;
}

/// Osprey's own part of a format-2 file (weights.h): the metadata JSON, tensor groups and blobs.
Status readOspreyPart(UltralyticsCheckpoint& out, const Value* part, const std::string& file) {
    if (part == nullptr)
        return {};
    const auto corrupt = [&](const std::string& what) {
        return fail(file + ": its 'osprey' entry " + what, "corrupt");
    };
    if (!part->is(Kind::Dict))
        return corrupt("is not a dict");
    const Value* metaText = pickle::get(part, "meta");
    if (metaText == nullptr || !metaText->is(Kind::String))
        return corrupt("has no 'meta' text");
    auto meta = metaFromJson(metaText->text);
    if (!meta)
        return fail(file + ": " + meta.message(), meta.error().code);
    if (meta->spec.family != out.meta.spec.family || meta->spec.scale != out.meta.spec.scale ||
        meta->spec.numClasses != out.meta.spec.numClasses)
        return corrupt("describes a " + meta->spec.name() + " with " + std::to_string(meta->spec.numClasses) +
                       " classes, but the network is a " + out.meta.spec.name() + " with " +
                       std::to_string(out.meta.spec.numClasses));
    meta->spec.sppfActivation = out.meta.spec.sppfActivation;
    out.osprey = true;
    out.meta = std::move(*meta);
    const auto tensorsOf = [&](const Value* dict, const std::string& what,
                               std::vector<UltralyticsTensor>& into) -> Status {
        for (const auto& [key, value] : dict->entries) {
            if (!key || !key->is(Kind::String) || !value || !value->is(Kind::Tensor))
                return corrupt("holds a " + what + " entry that is not a named tensor");
            into.push_back({key->text, value->tensor});
        }
        return {};
    };
    if (const Value* groups = pickle::get(part, "groups"); groups != nullptr) {
        if (!groups->is(Kind::Dict))
            return corrupt("has 'groups' that are not a dict");
        for (const auto& [key, value] : groups->entries) {
            if (!key || !key->is(Kind::String) || !value || !value->is(Kind::Dict))
                return corrupt("has a tensor group that is not a named dict");
            if (Status ok = tensorsOf(value.get(), "group '" + key->text + "'", out.groups[key->text]); !ok)
                return ok;
        }
    }
    if (const Value* blobs = pickle::get(part, "blobs"); blobs != nullptr) {
        if (!blobs->is(Kind::Dict))
            return corrupt("has 'blobs' that are not a dict");
        std::vector<UltralyticsTensor> list;
        if (Status ok = tensorsOf(blobs, "blob", list); !ok)
            return ok;
        for (auto& blob : list) {
            if (blob.ref.storageClass != "ByteStorage" || blob.ref.sizes.size() != 1)
                return corrupt("has blob '" + blob.name + "' that is not a byte string");
            out.blobs[blob.name] = {blob};
        }
    }
    return {};
}

Expected<UltralyticsCheckpoint> describeUltralytics(std::string_view pickleBytes, const std::string& file,
                                                    const ZipArchive* archive) {
    auto parsed = pickle::read(pickleBytes, file + ": data.pkl");
    if (!parsed)
        return fail(parsed.error());
    const Value* top = parsed->get();
    if (!top->is(Kind::Dict) || (pickle::get(top, "model") == nullptr && pickle::get(top, "ema") == nullptr))
        return fail(file + ": a PyTorch file but not an Ultralytics checkpoint (no 'model' entry)",
                    "unsupported");
    UltralyticsCheckpoint out;
    if (archive != nullptr) {
        const ZipRecord* pkl = archive->findSuffix("data.pkl");
        out.archivePrefix = pkl->name.substr(0, pkl->name.size() - std::string("/data.pkl").size());
    }
    const Value* model = pickle::get(top, "model");
    const Value* ema = pickle::get(top, "ema");
    const bool hasModel = model != nullptr && model->is(Kind::Object);
    const bool hasEma = ema != nullptr && ema->is(Kind::Object);
    if (!hasModel && !hasEma)
        return fail(file + ": neither 'model' nor 'ema' holds a network", "unsupported");
    for (const Value* network : {model, ema})
        if (network != nullptr && network->is(Kind::Object) && network->name != "DetectionModel")
            return unsupported(
                file, "holds a " + network->qualifiedName() +
                          "; Osprey reads Ultralytics DetectionModel checkpoints (YOLOv8, YOLO11, YOLO26)");
    const Value* root = hasEma ? ema : model;
    if (Status ok = describeNetwork(out, root, file, archive); !ok)
        return fail(ok.error());
    if (hasEma) {
        out.ema = std::move(out.model);
        out.model.clear();
        if (hasModel) {
            Context context{file};
            context.out = &out.model;
            if (Status ok = walk(context, model, "", 0); !ok)
                return fail(ok.error());
        }
    }
    out.meta.hasEma = hasEma && hasModel;
    out.version = scalarText(pickle::get(top, "version"));
    out.date = scalarText(pickle::get(top, "date"));
    out.meta.origin = "Ultralytics " +
                      (out.version.empty() ? std::string("(unknown version)") : out.version) +
                      (out.date.empty() ? "" : " (" + out.date.substr(0, 10) + ")");
    out.meta.createdUtc = out.date;
    const Value* epoch = pickle::get(top, "epoch");
    out.meta.epoch = epoch != nullptr && epoch->is(Kind::Int) ? static_cast<int>(epoch->integer) : -1;
    const Value* args = pickle::get(top, "train_args");
    if (args == nullptr || !args->is(Kind::Dict))
        args = pickle::attr(root, "args");
    if (args != nullptr && args->is(Kind::Dict))
        for (const auto& [key, value] : args->entries)
            if (key && key->is(Kind::String))
                out.meta.trainArgs[key->text] = scalarText(value.get());
    const Value* imgsz = pickle::get(args, "imgsz");
    if (imgsz != nullptr && (imgsz->is(Kind::List) || imgsz->is(Kind::Tuple)) && !imgsz->items.empty())
        imgsz = imgsz->items[0].get();
    out.meta.imgsz =
        imgsz != nullptr && imgsz->is(Kind::Int) && imgsz->integer >= 32 && imgsz->integer <= 8192
            ? static_cast<int>(imgsz->integer)
            : 640;
    const Value* metrics = pickle::get(top, "train_metrics");
    if (metrics != nullptr && metrics->is(Kind::Dict))
        for (const auto& [key, value] : metrics->entries)
            if (key && key->is(Kind::String) && value && (value->is(Kind::Float) || value->is(Kind::Int)))
                out.meta.metrics[key->text] =
                    value->is(Kind::Float) ? value->real : static_cast<double>(value->integer);
    if (Status ok = readOspreyPart(out, pickle::get(top, "osprey"), file); !ok)
        return fail(ok.error());
    std::vector<const std::vector<UltralyticsTensor>*> lists{&out.model, &out.ema, &out.extras};
    for (const auto& entry : out.groups)
        lists.push_back(&entry.second);
    for (const auto& entry : out.blobs)
        lists.push_back(&entry.second);
    if (archive != nullptr)
        for (const auto* list : lists)
            for (const auto& tensor : *list) {
                const std::string record = out.archivePrefix + "/data/" + tensor.ref.storageKey;
                if (archive->find(record) == nullptr)
                    return fail(file + ": tensor '" + tensor.name + "' refers to record '" + record +
                                    "', which the archive does not hold",
                                "corrupt");
            }
    return out;
}

Expected<UltralyticsCheckpoint> readUltralytics(const ZipArchive& archive) {
    const ZipRecord* pkl = archive.findSuffix("data.pkl");
    if (pkl == nullptr)
        return fail(archive.name() + ": a zip archive without data.pkl: not a PyTorch checkpoint",
                    "unsupported");
    if (Status ok = archive.verify(*pkl); !ok)
        return fail(ok.error());
    return describeUltralytics(archive.bytes(*pkl), archive.name(), &archive);
}

} // namespace osprey::model
