#pragma once
// Export of an Osprey (or imported Ultralytics) detector to ONNX in Ultralytics' layout, so that
// Ultralytics-aware runtimes and tools, and Osprey's own ONNX predictor, use the file as they would use
// `yolo export format=onnx`:
//
// - input `images`  float32 [1, 3, H, W], RGB in 0..1 (letterboxed; H = W = imgsz);
// - output `output0` float32 [1, 4 + nc, anchors]: cx, cy, w, h in input pixels, then class scores after
//   the sigmoid; anchors = sum over strides 8, 16, 32 of (H / s) * (W / s) (the one-to-many layout: NMS
//   runs outside the graph);
// - or, for a YOLO26 model exported with nms=false (Ultralytics 8.4.190's `nms=False`), the end-to-end
//   output0 float32 [1, k, 6]: x1, y1, x2, y2 in input pixels, score, class, by descending score, from the
//   one-to-one branch and its top-k (spec yolo26 §2.5), k = min(300, anchors); no NMS;
// - metadata_props: description, author, date, version, license, docs, stride, task, head, batch, imgsz,
//   names ("{0: 'person', ...}"), args, channels and end2end ("True" / "False"), as Ultralytics writes them.
//
// The graph is written from the network's own modules (BatchNorm folded into the convolutions), with no
// shape-computing subgraphs: anchor points and strides are full-size initialisers and every Reshape has a
// constant target, so the one-to-many layout imports in OpenCV 4.6's DNN (Debian 12) as well as in
// onnxruntime. The file must pass the ONNX checker and load and run in OpenCV DNN before it is written
// (atomically); the end-to-end layout's top-k (TopK, GatherElements, Mod) does not import in OpenCV 4.6, so
// there the same graph up to the top-k (the one-to-one branch decoded) is what runs in OpenCV DNN, and the
// top-k is left to onnxruntime (checked in CTest). On any error nothing is written. No torch or onnx types
// here. Thread-safe for distinct output files.

#include "common/expected.h"
#include "run/option_spec.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace osprey::exporter {

// ---- Options ---------------------------------------------------------------------------------------

/// What an ONNX export writes; the defaults are Ultralytics' (`yolo export format=onnx`).
struct OnnxExportOptions {
    int imgsz = 640;      ///< square input side in px, a multiple of 32
    int opset = 12;       ///< ONNX opset, 11..17
    bool half = false;    ///< store the weights as float16 (one Cast each to float32; the graph computes in
                          ///< float32, input and output stay float32): half the file, runs in onnxruntime on
                          ///< the CPU; OpenCV 4.6 cannot read float16 tensors, so the OpenCV check runs on a
                          ///< float32 twin of the same graph
    bool dynamic = false; ///< symbolic batch dimension ("batch"); H and W stay fixed (see docs/onnx.md)
    bool simplify = true; ///< annotate every intermediate value with its inferred shape (value_info); the
                          ///< graph is emitted already folded, so there is nothing for onnxsim to remove
    bool nms = true;      ///< false: a YOLO26 model's end-to-end layout [1, k, 6] (one-to-one branch, top-k,
                          ///< no NMS needed); true, and every other model: [1, 4 + nc, A] for NMS outside
    bool manifest = true; ///< also write the edge manifest (edge_manifest.h) beside the ONNX file
    int maxDetections = 300;   ///< the end-to-end layout's rows, at most the anchor count
    std::filesystem::path out; ///< "" = the weights path with the extension .onnx
};

/// The export options as data (format, imgsz, opset, half, dynamic, simplify, nms), for the CLI's keys and
/// help and the GUI's dialog. `weights` and `out` are in exportFileOptions().
const std::vector<run::OptionSpec>& exportOptions();

/// `weights` (the .pt to export) and `out` (where to write it): the files of `osprey-cli model export`,
/// which the GUI's dialog picks itself.
const std::vector<run::OptionSpec>& exportFileOptions();

/// Checks and parses option values given as text (keys of exportOptions(); missing keys keep their
/// defaults, unknown keys are an error naming the key). `format` is checked against its choices; the front
/// ends send format=ultralytics to model::exportUltralytics instead.
Expected<OnnxExportOptions> parseExportOptions(const std::map<std::string, std::string>& values);

// ---- Export ----------------------------------------------------------------------------------------

/// Name, element type and shape (-1 for a symbolic dimension) of a graph input or output.
struct TensorSignature {
    std::string name;
    std::string type; ///< "float32"
    std::vector<std::int64_t> shape;
    std::string dimensionNames; ///< e.g. "batch" for the symbolic dimensions, "" when none
};

/// What exportOnnx wrote.
struct OnnxExportReport {
    std::filesystem::path file;
    std::uintmax_t bytes = 0;
    int opset = 12;
    std::string modelName; ///< "yolov8n", ...
    int numClasses = 0;
    std::vector<std::string> classNames; ///< in output order
    int imgsz = 0;
    bool endToEnd = false; ///< the output is the end-to-end [1, k, 6] layout (metadata end2end=True)
    TensorSignature input;
    TensorSignature output;
    int nodes = 0;        ///< graph nodes
    int initializers = 0; ///< constant tensors (weights, anchors, strides, shapes)
    std::map<std::string, std::string> metadata;
    std::filesystem::path manifest; ///< the edge manifest written beside the file ("" when none)
    double buildMs = 0;             ///< loading the weights and building the graph
    double checkMs = 0;             ///< ONNX checker and shape inference
    double verifyMs = 0;            ///< loading and running it (end-to-end: up to the top-k) in OpenCV DNN
    double totalMs = 0;
};

/// Progress of an export: a fraction in 0..1 and the stage ("loading", "building", "checking",
/// "verifying", "writing"). Called on the exporting thread.
using ExportProgress = std::function<void(double fraction, const std::string& stage)>;

/// Loads `weights` (an Osprey weights file or anything core/model's loadDetector accepts), builds the
/// ONNX graph, checks it (ONNX checker, shape inference, OpenCV DNN import and one forward pass) and
/// writes it atomically to `options.out`. Errors name the file and what is wrong; on error nothing is
/// written. Slow (about a second for yolov8n): call it off the GUI thread.
Expected<OnnxExportReport> exportOnnx(const std::filesystem::path& weights, const OnnxExportOptions& options,
                                      const ExportProgress& progress = {});

/// The default output path for `weights`: the same folder and stem, extension .onnx.
std::filesystem::path defaultOnnxPath(const std::filesystem::path& weights);

/// A short human summary of a report (file, size, opset, input and output signatures, time).
std::string formatExportReport(const OnnxExportReport& report);

// ---- format=ultralytics ----------------------------------------------------------------------------

/// What exportUltralytics wrote.
struct UltralyticsExportReport {
    std::filesystem::path file;
    std::uintmax_t bytes = 0;
    int tensors = 0;
    bool usedEma = false; ///< a training checkpoint's EMA weights were written
};

/// Writes `weights` (anything core/model reads) as a .pt that Ultralytics 8.4 loads as its own: core/model's
/// weights format 2, stripped like a final Ultralytics checkpoint (EMA weights in float16, no training
/// state). `out` "" = defaultUltralyticsPath(weights). A fused network is refused; nothing is written on
/// error. Atomic.
Expected<UltralyticsExportReport> exportUltralytics(const std::filesystem::path& weights,
                                                    const std::filesystem::path& out = {});

/// `<stem>-ultralytics.pt` beside `weights`.
std::filesystem::path defaultUltralyticsPath(const std::filesystem::path& weights);

} // namespace osprey::exporter
