#include "model/weights_torch_impl.h"

#include "common/strings.h"
#include "common/version.h"
#include "model/ultralytics_load_impl.h"
#include "model/ultralytics_write_impl.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <unordered_map>

namespace osprey::model {

namespace {

using Json = nlohmann::json;

torch::Tensor bytesToTensor(const std::string& bytes) {
    auto tensor = torch::empty({static_cast<long>(bytes.size())}, torch::kUInt8);
    if (!bytes.empty())
        std::memcpy(tensor.data_ptr<std::uint8_t>(), bytes.data(), bytes.size());
    return tensor;
}

std::string tensorToBytes(const torch::Tensor& tensor) {
    const auto bytes = tensor.to(torch::kCPU, torch::kUInt8).contiguous();
    return std::string(reinterpret_cast<const char*>(bytes.data_ptr<std::uint8_t>()),
                       static_cast<size_t>(bytes.numel()));
}

bool validName(const std::string& name) {
    if (name.empty())
        return false;
    for (const char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
            return false;
    return true;
}

void writeGroup(torch::serialize::OutputArchive& parent, const std::string& key, const TensorList& tensors) {
    torch::serialize::OutputArchive group(parent.compilation_unit());
    std::string names;
    for (size_t i = 0; i < tensors.size(); ++i) {
        if (i)
            names += '\n';
        names += tensors[i].first;
        group.write(std::string("t").append(std::to_string(i)),
                    tensors[i].second.detach().to(torch::kCPU).contiguous());
    }
    group.write("names", bytesToTensor(names));
    parent.write(key, group);
}

TensorList readGroup(torch::serialize::InputArchive& parent, const std::string& key) {
    torch::serialize::InputArchive group;
    parent.read(key, group);
    torch::Tensor names;
    group.read("names", names);
    TensorList tensors;
    const std::string text = tensorToBytes(names);
    if (text.empty())
        return tensors;
    std::istringstream lines(text);
    std::string name;
    while (std::getline(lines, name)) {
        torch::Tensor tensor;
        std::string entry = "t"; // built in two steps: GCC 12 warns (-Wstringop-overflow) on "t" + to_string
        entry += std::to_string(tensors.size());
        group.read(entry, tensor);
        tensors.emplace_back(name, tensor);
    }
    return tensors;
}

Status checkLooksLikeArchive(const std::filesystem::path& path) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        return fail(path.string() + ": weights file not found", "missing");
    std::ifstream in(path, std::ios::binary);
    char magic[4] = {};
    in.read(magic, 4);
    // LibTorch archives are zip files; anything else (a darknet .weights, an ONNX file, random bytes)
    // is rejected before torch parses it.
    if (in.gcount() < 4 || magic[0] != 'P' || magic[1] != 'K' || magic[2] != 3 || magic[3] != 4)
        return fail(path.string() + ": not a weights file (expected a .pt written by Osprey or Ultralytics, "
                                    "which is a zip archive)",
                    "corrupt");
    return {};
}

/// Reads `path` as a zip once and says which kind of weights file it is: an error for a foreign zip, an
/// Ultralytics (`torch.save`) checkpoint, or (false) an Osprey archive for LibTorch.
Expected<bool> isUltralyticsFile(const ZipArchive& archive) {
    if (archive.findSuffix("data.pkl") == nullptr)
        return fail(archive.name() + ": not a PyTorch checkpoint (a zip archive without data.pkl)",
                    "unsupported");
    return isTorchSaveArchive(archive);
}

/// An Ultralytics checkpoint as a Checkpoint (only its metadata unless `withTensors`).
Expected<Checkpoint> loadTorchSave(const ZipArchive& archive, bool withTensors) {
    auto described = readUltralytics(archive);
    if (!described)
        return fail(described.error());
    if (!withTensors) {
        Checkpoint checkpoint;
        checkpoint.meta = described->meta;
        return checkpoint;
    }
    return ultralyticsCheckpoint(*described, archive);
}

/// A weights file read once: its zip, and whether it is an Ultralytics checkpoint (else an Osprey archive).
struct OpenedWeights {
    ZipArchive zip;
    bool ultralytics = false;
};

Expected<OpenedWeights> openWeights(const std::filesystem::path& path) {
    if (auto ok = checkLooksLikeArchive(path); !ok)
        return fail(ok.error());
    auto zip = ZipArchive::open(path);
    if (!zip)
        return fail(zip.error());
    auto ultralytics = isUltralyticsFile(*zip);
    if (!ultralytics)
        return fail(ultralytics.error());
    return OpenedWeights{std::move(*zip), *ultralytics};
}

Unexpected unreadable(const std::filesystem::path& path, const std::exception& e) {
    return fail(path.string() + ": unreadable or truncated weights file (" +
                    std::string(e.what()).substr(0, 200) + ")",
                "corrupt");
}

} // namespace

std::string metaToJson(const CheckpointMeta& meta) {
    Json json;
    json["format"] = "osprey-weights";
    json["format_version"] = meta.formatVersion;
    json["family"] = familyName(meta.spec.family);
    json["scale"] = std::string(1, scaleLetter(meta.spec.scale));
    json["nc"] = meta.spec.numClasses;
    json["names"] = meta.names;
    json["imgsz"] = meta.imgsz;
    json["stride"] = meta.strides;
    json["train_args"] = meta.trainArgs;
    if (!meta.ospreyArgs.empty())
        json["osprey_args"] = meta.ospreyArgs;
    json["epoch"] = meta.epoch;
    json["metrics"] = meta.metrics;
    json["app_version"] = meta.appVersion;
    json["created"] = meta.createdUtc;
    json["fused"] = meta.fused;
    if (!meta.spec.sppfActivation)
        json["sppf_activation"] = false;
    if (!meta.origin.empty())
        json["origin"] = meta.origin;
    json["has_ema"] = meta.hasEma;
    json["groups"] = meta.groups;
    json["blobs"] = meta.blobs;
    return json.dump(2);
}

Expected<CheckpointMeta> metaFromJson(const std::string& text) {
    try {
        const Json json = Json::parse(text);
        if (json.value("format", std::string()) != "osprey-weights")
            return fail("metadata: 'format' is not osprey-weights", "corrupt");
        CheckpointMeta meta;
        meta.formatVersion = json.at("format_version").get<int>();
        if (meta.formatVersion > kWeightsFormatVersion || meta.formatVersion < 1)
            return fail("metadata: format_version " + std::to_string(meta.formatVersion) +
                            " is not supported by this Osprey (knows up to " +
                            std::to_string(kWeightsFormatVersion) + "); update Osprey",
                        "version");
        const auto family = parseFamily(json.at("family").get<std::string>());
        if (!family)
            return fail("metadata: " + family.message(), "corrupt");
        const auto scale = parseScale(json.at("scale").get<std::string>());
        if (!scale)
            return fail("metadata: " + scale.message(), "corrupt");
        meta.spec = ModelSpec{*family, *scale, json.at("nc").get<int>()};
        if (meta.spec.numClasses < 1)
            return fail("metadata: nc must be at least 1", "corrupt");
        meta.names = json.value("names", std::vector<std::string>());
        meta.imgsz = json.value("imgsz", 640);
        meta.strides = json.value("stride", std::vector<int>{8, 16, 32});
        meta.trainArgs = json.value("train_args", std::map<std::string, std::string>());
        meta.ospreyArgs = json.value("osprey_args", std::vector<std::string>());
        meta.epoch = json.value("epoch", -1);
        meta.metrics = json.value("metrics", std::map<std::string, double>());
        meta.appVersion = json.value("app_version", std::string());
        meta.createdUtc = json.value("created", std::string());
        meta.fused = json.value("fused", false);
        meta.spec.sppfActivation = json.value("sppf_activation", true);
        meta.origin = json.value("origin", std::string());
        meta.hasEma = json.value("has_ema", false);
        meta.groups = json.value("groups", std::vector<std::string>());
        meta.blobs = json.value("blobs", std::vector<std::string>());
        return meta;
    } catch (const std::exception& e) {
        return fail(std::string("metadata: ") + e.what(), "corrupt");
    }
}

Checkpoint makeCheckpoint(const DetectionModel& model, CheckpointMeta meta) {
    meta.spec = model.spec();
    meta.strides = model.strides();
    meta.fused = model.fused();
    Checkpoint checkpoint;
    for (const auto& [name, tensor] : model.stateDict())
        checkpoint.model.emplace_back(name, tensor.detach().to(torch::kCPU).clone());
    checkpoint.meta = std::move(meta);
    return checkpoint;
}

Status saveCheckpoint(const Checkpoint& checkpoint, const std::filesystem::path& path) {
    for (const auto& [name, group] : checkpoint.groups)
        if (!validName(name))
            return fail("tensor group name '" + name + "' must use letters, digits and '_' only", "invalid");
    for (const auto& [name, blob] : checkpoint.blobs)
        if (!validName(name))
            return fail("blob name '" + name + "' must use letters, digits and '_' only", "invalid");
    CheckpointMeta meta = checkpoint.meta;
    meta.hasEma = !checkpoint.ema.empty();
    meta.groups.clear();
    meta.blobs.clear();
    for (const auto& entry : checkpoint.groups)
        meta.groups.push_back(entry.first);
    for (const auto& entry : checkpoint.blobs)
        meta.blobs.push_back(entry.first);
    if (meta.appVersion.empty())
        meta.appVersion = kVersion;
    if (meta.createdUtc.empty())
        meta.createdUtc = utcNowIso8601();
    if (meta.names.empty())
        for (int i = 0; i < meta.spec.numClasses; ++i)
            meta.names.push_back("class" + std::to_string(i));

    // Format 2 (an Ultralytics checkpoint) unless the network is fused, which Ultralytics cannot pickle.
    meta.formatVersion = meta.fused ? 1 : kWeightsFormatVersion;

    std::error_code error;
    if (path.has_parent_path())
        std::filesystem::create_directories(path.parent_path(), error);
    const auto temporary = std::filesystem::path(path.string() + ".tmp");
    // Written through our own file, never through a LibTorch file writer: when a write fails there (a full
    // disk), LibTorch throws, and its stream writer's destructor writes again and throws during the
    // unwinding, which aborts the process. Here the writer is told every write succeeded, the first failure
    // is kept, and the temporary is refused below.
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return fail(path.string() + ": could not write weights: " + std::strerror(errno), "io");
    std::string writeError;
    const ByteSink sink = [&](const void* data, size_t size) -> size_t {
        const char* bytes = static_cast<const char*>(data);
        for (size_t done = 0; writeError.empty() && done < size;) {
            const ssize_t n = ::write(fd, bytes + done, size - done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                writeError = std::strerror(n < 0 ? errno : EIO);
            else
                done += static_cast<size_t>(n);
        }
        return size;
    };
    Status written;
    if (meta.formatVersion >= 2) {
        Checkpoint final = checkpoint;
        final.meta = meta;
        written = writeUltralyticsCheckpoint(final, sink);
    } else {
        try {
            torch::serialize::OutputArchive archive;
            archive.write("meta", bytesToTensor(metaToJson(meta)));
            writeGroup(archive, "model", checkpoint.model);
            if (!checkpoint.ema.empty())
                writeGroup(archive, "ema", checkpoint.ema);
            if (!checkpoint.groups.empty()) {
                torch::serialize::OutputArchive groups(archive.compilation_unit());
                for (const auto& [name, tensors] : checkpoint.groups)
                    writeGroup(groups, name, tensors);
                archive.write("groups", groups);
            }
            if (!checkpoint.blobs.empty()) {
                torch::serialize::OutputArchive blobs(archive.compilation_unit());
                for (const auto& [name, bytes] : checkpoint.blobs)
                    blobs.write(name, bytesToTensor(bytes));
                archive.write("blobs", blobs);
            }
            archive.save_to(sink);
        } catch (const std::exception& e) {
            written = fail(path.string() + ": could not write weights: " + e.what(), "io");
        }
    }
    // fsync before the rename, so that a crash cannot leave the name pointing at an empty file.
    if (writeError.empty() && written && ::fsync(fd) != 0)
        writeError = std::strerror(errno);
    if (::close(fd) != 0 && writeError.empty())
        writeError = std::strerror(errno);
    if (!written || !writeError.empty()) {
        std::filesystem::remove(temporary, error);
        if (!written)
            return fail(path.string() + ": " + written.message(), written.error().code);
        return fail(path.string() + ": could not write weights: " + writeError +
                        " (the previous file, if any, is unchanged)",
                    "io");
    }
    std::filesystem::rename(temporary, path, error);
    if (error) {
        std::filesystem::remove(temporary, error);
        return fail(path.string() + ": could not replace the file: " + error.message(), "io");
    }
    return {};
}

namespace {

Expected<CheckpointMeta> readMeta(torch::serialize::InputArchive& archive,
                                  const std::filesystem::path& path) {
    torch::Tensor metaBytes;
    if (!archive.try_read("meta", metaBytes))
        return fail(path.string() + ": not an Osprey weights file (no 'meta' entry)", "corrupt");
    auto meta = metaFromJson(tensorToBytes(metaBytes));
    if (!meta)
        return fail(path.string() + ": " + meta.message(), meta.error().code);
    return meta;
}

} // namespace

Expected<CheckpointMeta> readCheckpointMeta(const std::filesystem::path& path) {
    auto opened = openWeights(path);
    if (!opened)
        return fail(opened.error());
    if (opened->ultralytics) {
        auto checkpoint = loadTorchSave(opened->zip, false);
        if (!checkpoint)
            return fail(checkpoint.error());
        return checkpoint->meta;
    }
    try {
        torch::serialize::InputArchive archive;
        std::istringstream stream{std::string(opened->zip.data())};
        archive.load_from(stream);
        return readMeta(archive, path);
    } catch (const std::exception& e) {
        return unreadable(path, e);
    }
}

Expected<Checkpoint> loadCheckpoint(const std::filesystem::path& path) {
    // One read of the file: an Ultralytics checkpoint goes to Osprey's own reader, an Osprey archive to
    // LibTorch from memory.
    auto opened = openWeights(path);
    if (!opened)
        return fail(opened.error());
    if (opened->ultralytics)
        return loadTorchSave(opened->zip, true);
    try {
        torch::serialize::InputArchive archive;
        std::istringstream stream{std::string(opened->zip.data())};
        archive.load_from(stream);
        auto meta = readMeta(archive, path);
        if (!meta)
            return fail(meta.error());
        Checkpoint checkpoint;
        checkpoint.meta = std::move(*meta);
        checkpoint.model = readGroup(archive, "model");
        if (checkpoint.meta.hasEma)
            checkpoint.ema = readGroup(archive, "ema");
        if (!checkpoint.meta.groups.empty()) {
            torch::serialize::InputArchive groups;
            archive.read("groups", groups);
            for (const auto& name : checkpoint.meta.groups)
                checkpoint.groups[name] = readGroup(groups, name);
        }
        if (!checkpoint.meta.blobs.empty()) {
            torch::serialize::InputArchive blobs;
            archive.read("blobs", blobs);
            for (const auto& name : checkpoint.meta.blobs) {
                torch::Tensor bytes;
                blobs.read(name, bytes);
                checkpoint.blobs[name] = tensorToBytes(bytes);
            }
        }
        return checkpoint;
    } catch (const std::exception& e) {
        return unreadable(path, e);
    }
}

Expected<LoadReport> loadState(DetectionModel& model, const TensorList& state, LoadMode mode) {
    std::unordered_map<std::string, const torch::Tensor*> byName;
    for (const auto& [name, tensor] : state)
        byName[name] = &tensor;
    const auto classOutputs = model.classBranchNames();
    const auto isClassOutput = [&](const std::string& name) {
        return std::find(classOutputs.begin(), classOutputs.end(), name) != classOutputs.end();
    };
    LoadReport report;
    std::vector<std::pair<torch::Tensor, const torch::Tensor*>> copies;
    for (const auto& [name, target] : model.stateDict()) {
        const auto it = byName.find(name);
        if (it == byName.end()) {
            if (mode == LoadMode::Pretrained && isClassOutput(name)) {
                report.missing.push_back(name);
                continue;
            }
            return fail("weights do not fit the " + model.spec().name() + " network: '" + name +
                            "' is missing",
                        "mismatch");
        }
        if (it->second->sizes() != target.sizes()) {
            if (mode == LoadMode::Pretrained && isClassOutput(name)) {
                report.skipped.push_back(name);
                byName.erase(it);
                continue;
            }
            std::ostringstream shapes;
            shapes << "'" << name << "' has shape " << it->second->sizes() << " in the file but "
                   << target.sizes() << " in the network";
            return fail("weights do not fit the " + model.spec().name() + " network: " + shapes.str(),
                        "mismatch");
        }
        copies.emplace_back(target, it->second);
        report.loaded.push_back(name);
        byName.erase(it);
    }
    if (mode == LoadMode::Exact && !byName.empty())
        return fail("weights do not fit the " + model.spec().name() + " network: unexpected entry '" +
                        byName.begin()->first + "'",
                    "mismatch");
    for (const auto& entry : byName)
        report.skipped.push_back(entry.first);
    try {
        torch::NoGradGuard noGrad;
        for (auto& [target, source] : copies)
            target.copy_(*source);
    } catch (const std::exception& e) {
        return fail(std::string("could not copy weights: ") + e.what(), "torch");
    }
    return report;
}

Expected<std::shared_ptr<DetectionModel>> modelFromCheckpoint(const Checkpoint& checkpoint, bool preferEma) {
    try {
        auto model = std::make_shared<DetectionModel>(checkpoint.meta.spec);
        if (checkpoint.meta.fused)
            model->fuse();
        const TensorList& state = preferEma && !checkpoint.ema.empty() ? checkpoint.ema : checkpoint.model;
        const auto report = loadState(*model, state, LoadMode::Exact);
        if (!report)
            return fail(report.error());
        return model;
    } catch (const std::exception& e) {
        return fail(std::string("could not build the network: ") + e.what(), "torch");
    }
}

Expected<std::string> archiveToBytes(torch::serialize::OutputArchive& archive) {
    try {
        std::ostringstream out;
        archive.save_to(out);
        return out.str();
    } catch (const std::exception& e) {
        return fail(std::string("could not serialise archive: ") + e.what(), "torch");
    }
}

Status archiveFromBytes(const std::string& bytes, torch::serialize::InputArchive& archive) {
    try {
        std::istringstream in(bytes);
        archive.load_from(in);
        return {};
    } catch (const std::exception& e) {
        return fail(std::string("could not read archive: ") + e.what(), "corrupt");
    }
}

Status saveWeights(const Detector& detector, const CheckpointMeta& meta, const std::filesystem::path& path) {
    return saveCheckpoint(makeCheckpoint(*detector.impl().model, meta), path);
}

Expected<Detector> loadDetector(const std::filesystem::path& path, CheckpointMeta* meta) {
    auto checkpoint = loadCheckpoint(path);
    if (!checkpoint)
        return fail(checkpoint.error());
    auto model = modelFromCheckpoint(*checkpoint, true);
    if (!model)
        return fail(path.string() + ": " + model.message(), model.error().code);
    if (meta)
        *meta = checkpoint->meta;
    auto impl = std::make_unique<Detector::Impl>();
    impl->model = std::move(*model);
    return Detector(std::move(impl));
}

Expected<PretrainedReport> loadPretrained(Detector& detector, const std::filesystem::path& path) {
    auto checkpoint = loadCheckpoint(path);
    if (!checkpoint)
        return fail(checkpoint.error());
    auto& model = *detector.impl().model;
    const auto& fileSpec = checkpoint->meta.spec;
    if (fileSpec.family != model.spec().family || fileSpec.scale != model.spec().scale)
        return fail(path.string() + ": holds a " + fileSpec.name() + " but the model is " +
                        model.spec().name() + "; use model=" + fileSpec.name() + " or other weights",
                    "mismatch");
    if (checkpoint->meta.fused)
        return fail(path.string() + ": fused (inference-only) weights cannot start a training run",
                    "mismatch");
    if (fileSpec.sppfActivation != model.spec().sppfActivation)
        return fail(path.string() + ": its SPPF.cv1 " + (fileSpec.sppfActivation ? "has" : "has no") +
                        " activation, unlike the network; build the network with the weights' ModelSpec",
                    "mismatch");
    const TensorList& state = !checkpoint->ema.empty() ? checkpoint->ema : checkpoint->model;
    const auto loaded = loadState(model, state, LoadMode::Pretrained);
    if (!loaded)
        return fail(path.string() + ": " + loaded.message(), loaded.error().code);
    PretrainedReport report;
    report.loaded = static_cast<int>(loaded->loaded.size());
    report.skipped = loaded->skipped;
    const size_t total = model.stateDict().size();
    report.message = "transferred " + std::to_string(report.loaded) + "/" + std::to_string(total) +
                     " tensors from " + path.filename().string();
    if (!report.skipped.empty())
        report.message += "; class outputs skipped (nc " + std::to_string(fileSpec.numClasses) + " -> " +
                          std::to_string(model.spec().numClasses) +
                          "): " + std::to_string(report.skipped.size()) + " tensors";
    return report;
}

Expected<StripReport> stripWeights(const std::filesystem::path& source,
                                   const std::filesystem::path& destination, bool half) {
    StripReport report;
    std::error_code error;
    report.bytesBefore = std::filesystem::file_size(source, error);
    auto loaded = loadCheckpoint(source);
    if (!loaded)
        return fail(loaded.message(), loaded.error().code);
    Checkpoint stripped;
    stripped.meta = loaded->meta;
    report.usedEma = !loaded->ema.empty();
    TensorList& weights = report.usedEma ? loaded->ema : loaded->model;
    for (auto& [name, tensor] : weights) {
        torch::Tensor stored = tensor.detach().to(torch::kCPU);
        if (stored.is_floating_point())
            stored = stored.to(half ? torch::kHalf : torch::kFloat);
        stripped.model.emplace_back(name, stored.contiguous());
    }
    report.tensors = static_cast<int>(stripped.model.size());
    if (Status saved = saveCheckpoint(stripped, destination); !saved)
        return fail(saved.message(), saved.error().code);
    report.bytesAfter = std::filesystem::file_size(destination, error);
    return report;
}

Expected<StripReport> exportUltralytics(const std::filesystem::path& source,
                                        const std::filesystem::path& destination) {
    auto meta = readCheckpointMeta(source);
    if (!meta)
        return fail(meta.error());
    if (meta->fused)
        return fail(source.string() +
                        ": holds a fused network (BatchNorm folded into the convolutions), which Ultralytics "
                        "cannot load; export the weights the training wrote (best.pt or last.pt)",
                    "unsupported");
    return stripWeights(source, destination, true);
}

std::filesystem::path defaultUltralyticsPath(const std::filesystem::path& weights) {
    return weights.parent_path() / (weights.stem().string() + "-ultralytics.pt");
}

Expected<ImportReport> importWeights(const std::filesystem::path& source,
                                     const std::filesystem::path& destination) {
    ImportReport report;
    std::error_code error;
    report.bytesBefore = std::filesystem::file_size(source, error);
    auto opened = openWeights(source);
    if (!opened)
        return fail(opened.error());
    // Format-1 archives, and format-2 files (Ultralytics checkpoints that carry Osprey's own part), are
    // Osprey's.
    bool ospreys = !opened->ultralytics;
    if (!ospreys) {
        const auto described = readUltralytics(opened->zip);
        ospreys = described && described->osprey;
    }
    if (ospreys)
        return fail(source.string() + ": already an Osprey weights file; use it as it is", "invalid");
    auto loaded = loadTorchSave(opened->zip, true);
    if (!loaded)
        return fail(loaded.error());
    Checkpoint converted;
    converted.meta = loaded->meta;
    converted.meta.epoch = -1;
    report.usedEma = !loaded->ema.empty();
    converted.model = std::move(report.usedEma ? loaded->ema : loaded->model);
    // Build and load first: nothing is written for weights that do not fit the network.
    auto model = modelFromCheckpoint(converted, false);
    if (!model)
        return fail(source.string() + ": " + model.message(), model.error().code);
    converted = makeCheckpoint(**model, converted.meta);
    report.tensors = static_cast<int>(converted.model.size());
    if (Status saved = saveCheckpoint(converted, destination); !saved)
        return fail(saved.error());
    report.meta = converted.meta;
    report.bytesAfter = std::filesystem::file_size(destination, error);
    return report;
}

} // namespace osprey::model
