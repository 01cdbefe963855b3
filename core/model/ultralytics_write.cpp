#include "model/ultralytics_write_impl.h"

#include "common/version.h"
#include "model/pickle_writer_impl.h"
#include "model/ultralytics_tree_impl.h"

#include <caffe2/serialize/inline_container.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace osprey::model {

namespace {

/// An option's text as the Python value Ultralytics' own checkpoints hold: True/False, None for an empty
/// value, an int or a float when the whole text is one, else the text.
void pythonScalar(pickle::Writer& w, const std::string& text) {
    if (text == "true" || text == "True" || text == "false" || text == "False") {
        w.boolean(text[0] == 't' || text[0] == 'T');
        return;
    }
    if (text.empty() || text == "None" || text == "null") {
        w.none();
        return;
    }
    const bool integral = std::all_of(text.begin() + (text[0] == '-' ? 1 : 0), text.end(),
                                      [](char c) { return std::isdigit(c); });
    if (integral && text.size() < 18 && text != "-") {
        w.integer(std::stoll(text));
        return;
    }
    char* end = nullptr;
    const double number = std::strtod(text.c_str(), &end);
    if (end == text.c_str() + text.size() && std::isfinite(number)) {
        w.real(number);
        return;
    }
    w.string(text);
}

} // namespace

Status writeUltralyticsCheckpoint(const Checkpoint& checkpoint, const ByteSink& sink) {
    const CheckpointMeta& meta = checkpoint.meta;
    if (meta.fused)
        return fail("a fused network cannot be written as an Ultralytics checkpoint (Ultralytics pickles "
                    "unfused Conv blocks); write the weights before fusing",
                    "unsupported");
    try {
        torch::NoGradGuard noGrad;
        DetectionModel model(meta.spec);
        pickle::Writer w;
        StorageRecords storages;
        const auto text = [&](std::string_view key, std::string_view value) {
            w.string(key);
            w.string(value);
        };
        const auto number = [&](const char* key) -> std::optional<double> {
            const auto it = meta.metrics.find(key);
            return it == meta.metrics.end() ? std::nullopt : std::optional<double>(it->second);
        };
        const bool training = !checkpoint.ema.empty();
        w.beginDict();
        text("date", meta.createdUtc);
        text("version", std::string(kVersion));
        // Ultralytics counts epochs from 0 and marks a finished (stripped) file with -1; Osprey's `epoch` is
        // the number of epochs completed.
        w.string("epoch");
        w.integer(training ? std::max(meta.epoch - 1, -1) : -1);
        w.string("best_fitness");
        if (const auto best = number("best_fitness"))
            w.real(*best);
        else
            w.none();
        Status status;
        w.string("model");
        status = writeNetwork(w, storages, model, meta, checkpoint.model, "model");
        w.string("ema");
        if (training && status) {
            status = writeNetwork(w, storages, model, meta, checkpoint.ema, "ema");
        } else {
            w.none();
        }
        if (!status)
            return status;
        w.string("updates");
        if (const auto updates = number("ema_updates"); updates && training)
            w.integer(static_cast<std::int64_t>(*updates));
        else
            w.none();
        w.string("optimizer");
        w.none();
        // Ultralytics' keys only, typed as its default.yaml types them; the task it needs to load the file.
        w.string("train_args");
        w.beginDict();
        text("task", "detect");
        for (const auto& [key, value] : meta.trainArgs)
            if (key != "task" &&
                std::find(meta.ospreyArgs.begin(), meta.ospreyArgs.end(), key) == meta.ospreyArgs.end()) {
                w.string(key);
                pythonScalar(w, value);
            }
        w.endDict();
        w.string("train_metrics");
        w.beginDict();
        for (const auto& [key, value] : meta.metrics)
            if (key.find('/') != std::string::npos || key == "fitness") {
                w.string(key);
                w.real(value);
            }
        w.endDict();
        // Osprey's own part: the metadata as JSON, and the training state Ultralytics has no place for.
        w.string(kOspreyKey);
        w.beginDict();
        text("meta", metaToJson(meta));
        w.string("groups");
        w.beginDict();
        for (const auto& [group, tensors] : checkpoint.groups) {
            w.string(group);
            w.beginOrderedDict();
            for (const auto& [name, tensor] : tensors) {
                auto ref = storages.add(tensor);
                if (!ref)
                    return fail("tensor group '" + group + "', tensor '" + name + "': " + ref.message(),
                                ref.error().code);
                w.string(name);
                w.tensor(*ref, false, false);
            }
            w.endOrderedDict();
        }
        w.endDict();
        w.string("blobs");
        w.beginDict();
        for (const auto& [name, bytes] : checkpoint.blobs) {
            auto blob = torch::empty({static_cast<std::int64_t>(bytes.size())}, torch::kUInt8);
            if (!bytes.empty())
                std::memcpy(blob.data_ptr(), bytes.data(), bytes.size());
            auto ref = storages.add(blob);
            if (!ref)
                return fail(ref.error());
            w.string(name);
            w.tensor(*ref, false, false);
        }
        w.endDict();
        w.endDict();
        w.endDict();
        auto pickled = w.finish();
        if (!pickled)
            return fail(pickled.error());

        caffe2::serialize::PyTorchStreamWriter writer(std::function<size_t(const void*, size_t)>(
            [&sink](const void* data, size_t size) { return sink(data, size); }));
        writer.writeRecord("data.pkl", pickled->data(), pickled->size());
        writer.writeRecord("byteorder", "little", 6);
        const auto& records = storages.records();
        for (size_t i = 0; i < records.size(); ++i)
            writer.writeRecord("data/" + std::to_string(i), records[i].data_ptr(), records[i].nbytes());
        writer.writeEndOfFile();
        return {};
    } catch (const std::exception& e) {
        return fail(std::string("cannot write the Ultralytics checkpoint: ") + e.what(), "io");
    }
}

} // namespace osprey::model
