#pragma once
// Osprey's weights file (.pt), written atomically. Public side: the metadata, which the GUI can read
// without torch types. Tensors are handled in weights_torch_impl.h. Free functions; thread-safe for
// distinct files.
//
// ## Format 2 (what Osprey writes): an Ultralytics checkpoint
//
// A `torch.save` zip (`archive/data.pkl`, `archive/data/<n>` storage records, `archive/byteorder`,
// `archive/version`) whose pickle Ultralytics 8.4 loads as it loads its own files (`YOLO("best.pt")`,
// `yolo val|predict|export|train model=best.pt`). The outer dict:
//
// | key | content |
// |-----|---------|
// | `model` | the network as Ultralytics' `DetectionModel`: its module tree with Ultralytics' classes and the
// attributes its code reads, the model YAML, `names`, `stride`; the tensors with their dtype (float16 in a
// stripped file, as Ultralytics stores a final checkpoint; float32 in a training checkpoint) |
// | `ema` | training checkpoints: the EMA network, the same way (Ultralytics loads `ema` when present); else
// None | | `epoch` | Ultralytics' count: the last completed epoch from 0, -1 in a stripped (final) file | |
// `best_fitness`, `updates`, `optimizer` (None), `train_args`, `train_metrics`, `date`, `version` (Osprey's)
// | as Ultralytics names them | | `osprey` | Osprey's own part, which Ultralytics ignores: `meta` (the JSON
// metadata below), `groups` (name -> ordered dict of tensors, e.g. `rng`) and `blobs` (name -> uint8 tensor,
// e.g. `optimizer`) |
//
// The pickle holds only what any Ultralytics checkpoint holds (the module classes, `collections.OrderedDict`,
// `builtins.set`, torch's tensor rebuild functions and storage classes). A fused network is written in
// format 1, since Ultralytics cannot pickle a fused Conv.
//
// ## Format 1 (read, and written for fused networks)
//
// A file is one `torch::serialize::OutputArchive` (the zip container LibTorch writes with
// `save_to`; open it with `torch::serialize::InputArchive::load_from`). Its top-level keys:
//
// | key      | kind            | content |
// |----------|-----------------|---------|
// | `meta`   | uint8 tensor    | UTF-8 JSON metadata (below) |
// | `model`  | nested archive  | the network's state_dict, Ultralytics names (`model.0.conv.weight`, ...) |
// | `ema`    | nested archive  | optional: the EMA copy of the state_dict (training checkpoints) |
// | `groups` | nested archive  | optional: named tensor groups, e.g. `rng` (generator states) |
// | `blobs`  | nested archive  | optional: named opaque byte strings as uint8 tensors, e.g. `optimizer` (a
// serialised optimizer archive) |
//
// A tensor group (`model`, `ema`, each entry of `groups`) is a nested archive holding `names` (uint8
// tensor: the tensor names joined by '\n', in state_dict order) and the tensors as `t0`, `t1`, ... in
// that order, so names may contain any character. Tensors are stored on the CPU with their dtype.
//
// ## Metadata (both formats)
//
// `meta` JSON fields: `format` ("osprey-weights"), `format_version` (2, or 1), `family` ("yolov8" |
// "yolo11"), `scale` ("n" .. "x"), `nc`, `names` (class names, length nc), `imgsz`, `stride` ([8, 16,
// 32]), `train_args` (object of strings), `osprey_args` (optional: which train_args are Osprey's own),
// `epoch` (epochs completed, -1 when not from training),
// `metrics` (object of numbers), `app_version`, `created` (UTC ISO 8601), `fused` (whether BatchNorm was
// folded into the convolutions), `has_ema`, `groups` and `blobs` (their names); optional `sppf_activation`
// (false: SPPF.cv1 has no SiLU, as in Ultralytics >= 8.4.0 networks; absent means true) and `origin`
// (the source of imported weights). Readers reject a `format_version` newer than they know.

#include "common/expected.h"
#include "model/model_spec.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace osprey::model {

inline constexpr int kWeightsFormatVersion = 2;

/// The JSON metadata of a weights file.
struct CheckpointMeta {
    int formatVersion = kWeightsFormatVersion;
    ModelSpec spec;
    std::vector<std::string> names; ///< class names; filled with "class<i>" when unknown
    int imgsz = 640;
    std::vector<int> strides{8, 16, 32};
    std::map<std::string, std::string> trainArgs;
    /// Keys of trainArgs that are Osprey's own: format 2 leaves them out of the `train_args` Ultralytics
    /// reads.
    std::vector<std::string> ospreyArgs;
    int epoch = -1;
    std::map<std::string, double> metrics;
    std::string appVersion;
    std::string createdUtc;
    /// Where the weights came from when not trained by Osprey, e.g. "Ultralytics 8.4.90 (2026-12-01)".
    std::string origin;
    bool fused = false;
    bool hasEma = false;
    std::vector<std::string> groups; ///< names of the extra tensor groups present
    std::vector<std::string> blobs;  ///< names of the extra byte blobs present
};

/// Reads only the metadata of a weights file. Errors name the file and say what is wrong with it.
Expected<CheckpointMeta> readCheckpointMeta(const std::filesystem::path& path);

class Detector;

/// Writes `detector`'s weights with `meta` (its spec, strides and fused flag are taken from the
/// detector). Atomic.
Status saveWeights(const Detector& detector, const CheckpointMeta& meta, const std::filesystem::path& path);

/// Builds the detector a weights file describes and loads it (the EMA weights when present). `meta`
/// receives the file's metadata when not null.
Expected<Detector> loadDetector(const std::filesystem::path& path, CheckpointMeta* meta = nullptr);

/// What stripWeights did.
struct StripReport {
    std::uintmax_t bytesBefore = 0;
    std::uintmax_t bytesAfter = 0;
    bool usedEma = false; ///< the EMA weights became the model's
    int tensors = 0;
};

/// Writes an inference copy of a weights file, like Ultralytics' strip_optimizer: the EMA weights when
/// present (else the model's) as `model`; no EMA copy, optimizer, RNG or other training state; floating
/// tensors stored as float16 when `half` (about 1/8 of a training checkpoint; loading converts back to
/// float32), else as float32. The metadata (classes, epoch, metrics, train args) is kept. `destination` may
/// be `source`; the write is atomic either way.
Expected<StripReport> stripWeights(const std::filesystem::path& source,
                                   const std::filesystem::path& destination, bool half = true);

/// Writes `source` (any weights Osprey reads: its own files of either format, an Ultralytics checkpoint) as
/// a final Ultralytics checkpoint, as stripWeights(source, destination, true) does: format 2 with the EMA
/// weights (when present) in float16 and no training state, which Ultralytics 8.4 loads as its own
/// (`YOLO(file)`, `yolo val|predict|export|train model=file`). A fused network is refused (Ultralytics
/// cannot take one); nothing is written on error. Atomic.
Expected<StripReport> exportUltralytics(const std::filesystem::path& source,
                                        const std::filesystem::path& destination);

/// The default output of exportUltralytics: `<stem>-ultralytics.pt` beside `weights`.
std::filesystem::path defaultUltralyticsPath(const std::filesystem::path& weights);

/// What importWeights did.
struct ImportReport {
    CheckpointMeta meta; ///< as written (spec, names, origin, ...)
    int tensors = 0;
    bool usedEma = false; ///< a training checkpoint's EMA weights became the model's
    std::uintmax_t bytesBefore = 0;
    std::uintmax_t bytesAfter = 0;
};

/// Converts an Ultralytics checkpoint (`yolov8n.pt`, `yolo11s.pt`, a `best.pt` of an Ultralytics run) into
/// an Osprey weights file: the EMA weights when present, float32, with family, scale, classes, image size,
/// train args and the origin (Ultralytics version and date) in the metadata. The network is built and the
/// weights loaded before anything is written; the write is atomic. Every other reader accepts an
/// Ultralytics file directly; this makes the conversion once. An Osprey file as `source` is an error.
Expected<ImportReport> importWeights(const std::filesystem::path& source,
                                     const std::filesystem::path& destination);

/// The result of starting from pretrained weights.
struct PretrainedReport {
    int loaded = 0;                   ///< tensors copied
    std::vector<std::string> skipped; ///< class-output tensors left at their initial values
    std::string message;              ///< one line for the user, e.g. "transferred 349/355 ..."
};

/// Pretrained start (`weights=FILE`): copies every tensor of a compatible checkpoint (same family and
/// scale) into `detector`. When nc differs, the class-branch tensors whose shape depends on nc keep their
/// initial values and are listed in the report. Any other mismatch is an error.
Expected<PretrainedReport> loadPretrained(Detector& detector, const std::filesystem::path& path);

/// Metadata <-> JSON text (the `meta` entry).
std::string metaToJson(const CheckpointMeta& meta);
Expected<CheckpointMeta> metaFromJson(const std::string& json);

} // namespace osprey::model
