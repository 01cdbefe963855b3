#include "model/ultralytics_load_impl.h"

#include <bit>
#include <cstring>
#include <map>
#include <vector>

namespace osprey::model {

namespace {

/// torch's storage classes and their element types, in both directions.
const std::vector<std::pair<std::string, torch::ScalarType>>& storageTypes() {
    static const std::vector<std::pair<std::string, torch::ScalarType>> types = {
        {"HalfStorage", torch::kHalf},   {"BFloat16Storage", torch::kBFloat16},
        {"FloatStorage", torch::kFloat}, {"DoubleStorage", torch::kDouble},
        {"LongStorage", torch::kLong},   {"IntStorage", torch::kInt},
        {"ShortStorage", torch::kShort}, {"CharStorage", torch::kChar},
        {"ByteStorage", torch::kByte},   {"BoolStorage", torch::kBool}};
    return types;
}

} // namespace

Expected<torch::ScalarType> storageScalarType(const std::string& storageClass) {
    for (const auto& [name, type] : storageTypes())
        if (name == storageClass)
            return type;
    return fail("unsupported storage type " + storageClass, "unsupported");
}

Expected<std::string> storageClassOf(torch::ScalarType type) {
    for (const auto& [name, known] : storageTypes())
        if (known == type)
            return name;
    return fail(std::string("cannot store a tensor of type ") + c10::toString(type), "unsupported");
}

namespace {

/// One tensor; floating tensors become float32 when `widen`, else keep their stored type.
Expected<torch::Tensor> readTensor(const UltralyticsTensor& entry, const std::string& prefix,
                                   const ZipArchive& archive, bool widen) {
    const pickle::TensorRef& ref = entry.ref;
    const std::string where = archive.name() + ": tensor '" + entry.name + "'";
    auto type = storageScalarType(ref.storageClass);
    if (!type)
        return fail(where + ": " + type.message(), "unsupported");
    const ZipRecord* record = archive.find(prefix + "/data/" + ref.storageKey);
    if (record == nullptr)
        return fail(where + ": its storage record is missing", "corrupt");
    if (Status ok = archive.verify(*record); !ok)
        return fail(ok.error());
    const auto elementSize = static_cast<std::uint64_t>(storageElementSize(ref.storageClass));
    if (static_cast<std::uint64_t>(ref.storageNumel) > record->size / elementSize)
        return fail(where + ": its storage declares " + std::to_string(ref.storageNumel) +
                        " elements but the record holds " + std::to_string(record->size / elementSize),
                    "corrupt");
    // The furthest element the view touches must lie inside the storage.
    std::int64_t last = ref.offset;
    bool empty = false;
    for (size_t i = 0; i < ref.sizes.size(); ++i) {
        if (ref.sizes[i] == 0)
            empty = true;
        else if (ref.strides[i] > (std::int64_t{1} << 40) || ref.sizes[i] > (std::int64_t{1} << 40))
            return fail(where + ": implausible shape", "corrupt");
        else
            last += (ref.sizes[i] - 1) * ref.strides[i];
    }
    if (!empty && (ref.offset < 0 || last >= ref.storageNumel))
        return fail(where + ": its view reaches past its storage", "corrupt");
    const std::string_view bytes = archive.bytes(*record);
    // Copied element by element into a new tensor in plain C++: no torch kernels (and no OpenMP pool
    // spinning up) for a few hundred small tensors, and float16 widened on the way.
    const bool floating = widen && (*type == torch::kHalf || *type == torch::kBFloat16 ||
                                    *type == torch::kFloat || *type == torch::kDouble);
    torch::Tensor tensor =
        torch::empty(ref.sizes, torch::TensorOptions().dtype(floating ? torch::kFloat : *type));
    if (empty)
        return tensor;
    const size_t dims = ref.sizes.size();
    std::vector<std::int64_t> index(dims, 0);
    const auto count = static_cast<std::size_t>(tensor.numel());
    auto* out = static_cast<char*>(tensor.data_ptr());
    const char* in = bytes.data();
    // A row-major view kept in its stored type (what Osprey writes) is one block.
    bool rowMajor = true;
    for (std::int64_t i = static_cast<std::int64_t>(dims) - 1, step = 1; i >= 0; --i) {
        rowMajor = rowMajor &&
                   (ref.sizes[static_cast<size_t>(i)] == 1 || ref.strides[static_cast<size_t>(i)] == step);
        step *= ref.sizes[static_cast<size_t>(i)];
    }
    if (!floating && rowMajor) {
        std::memcpy(out, in + static_cast<std::size_t>(ref.offset) * elementSize, count * elementSize);
        return tensor;
    }
    std::int64_t at = ref.offset;
    for (std::size_t i = 0; i < count; ++i) {
        const char* source = in + static_cast<std::size_t>(at) * elementSize;
        if (floating && (*type == torch::kHalf || *type == torch::kBFloat16)) {
            std::uint16_t bits = 0;
            std::memcpy(&bits, source, 2);
            const float value = *type == torch::kHalf
                                    ? halfToFloat(bits)
                                    : std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
            std::memcpy(out + i * 4, &value, 4);
        } else if (floating && *type == torch::kDouble) {
            double value = 0;
            std::memcpy(&value, source, 8);
            const auto narrowed = static_cast<float>(value);
            std::memcpy(out + i * 4, &narrowed, 4);
        } else {
            std::memcpy(out + i * elementSize, source, elementSize);
        }
        // Next index in row-major order, with the view's strides.
        for (size_t d = dims; d-- > 0;) {
            at += ref.strides[d];
            if (++index[d] < ref.sizes[d])
                break;
            at -= ref.strides[d] * ref.sizes[d];
            index[d] = 0;
        }
    }
    return tensor;
}

Expected<TensorList> readTensors(const std::vector<UltralyticsTensor>& entries, const std::string& prefix,
                                 const ZipArchive& archive, bool widen) {
    TensorList list;
    list.reserve(entries.size());
    for (const auto& entry : entries) {
        auto tensor = readTensor(entry, prefix, archive, widen);
        if (!tensor)
            return fail(tensor.error());
        list.emplace_back(entry.name, std::move(*tensor));
    }
    return list;
}

} // namespace

Expected<Checkpoint> ultralyticsCheckpoint(const UltralyticsCheckpoint& described,
                                           const ZipArchive& archive) {
    try {
        Checkpoint checkpoint;
        checkpoint.meta = described.meta;
        // Files Osprey wrote come back with the types it stored (bit for bit); others as float32.
        // Osprey keeps the weights to use in `model` and, for training checkpoints, the EMA in `ema`;
        // a stripped Ultralytics file has only `model` (its EMA), which is read as is.
        auto primary = readTensors(described.model.empty() ? described.ema : described.model,
                                   described.archivePrefix, archive, !described.osprey);
        if (!primary)
            return fail(primary.error());
        checkpoint.model = std::move(*primary);
        if (!described.model.empty() && !described.ema.empty()) {
            auto ema = readTensors(described.ema, described.archivePrefix, archive, !described.osprey);
            if (!ema)
                return fail(ema.error());
            checkpoint.ema = std::move(*ema);
        }
        checkpoint.meta.hasEma = !checkpoint.ema.empty();
        checkpoint.meta.groups.clear();
        checkpoint.meta.blobs.clear();
        for (const auto& [name, tensors] : described.groups) {
            auto group = readTensors(tensors, described.archivePrefix, archive, !described.osprey);
            if (!group)
                return fail(group.error());
            checkpoint.groups[name] = std::move(*group);
            checkpoint.meta.groups.push_back(name);
        }
        for (const auto& [name, tensors] : described.blobs) {
            auto bytes = readTensors(tensors, described.archivePrefix, archive, !described.osprey);
            if (!bytes)
                return fail(bytes.error());
            const torch::Tensor& blob = bytes->front().second;
            checkpoint.blobs[name] =
                std::string(static_cast<const char*>(blob.data_ptr()), static_cast<size_t>(blob.numel()));
            checkpoint.meta.blobs.push_back(name);
        }
        return checkpoint;
    } catch (const std::exception& e) {
        return fail(archive.name() + ": could not read its tensors (" + std::string(e.what()).substr(0, 200) +
                        ")",
                    "corrupt");
    }
}

} // namespace osprey::model
