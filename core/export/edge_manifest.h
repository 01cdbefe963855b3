#pragma once
// The edge manifest: a small JSON file written beside an exported ONNX model (`<stem>.json`), so that
// whatever runs the model on the edge box knows what it is without Osprey: the model file and its
// checksum, the architecture, the classes in output order, the input size and the output layout, the
// confidence to use (the run's best-F1 confidence) and how good the model was (the run's best epoch:
// mAP50-95 and mAP50 on its validation split). No torch.

#include "common/expected.h"
#include "export/onnx_export.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace osprey::exporter {

struct EdgeManifest {
    std::string model;        ///< the ONNX file's name (the manifest lies beside it)
    std::string modelHash;    ///< hashFileHex of the ONNX file
    std::string architecture; ///< "yolov8n", ...
    std::vector<std::string> classes;
    int imgsz = 0;
    bool endToEnd = false; ///< output [1, k, 6] x1 y1 x2 y2 score class; else [1, 4+nc, A] for NMS outside
    TensorSignature input;
    TensorSignature output;
    std::optional<double> confidence; ///< the run's best-F1 confidence (curves.json), none outside a run
    double iou = 0.7;                 ///< NMS IoU for the one-to-many layout (Ultralytics' predict default)
    std::string run;                  ///< the run folder's name, empty outside a run
    std::optional<int> epoch; ///< the epoch whose weights these are (best.pt: the best; last.pt: the last)
    std::optional<double> map50to95; ///< that epoch's validation mAP50-95
    std::optional<double> map50;
    std::string weights;  ///< the exported weights file, as given
    std::string exported; ///< UTC time, ISO 8601
    std::string osprey;   ///< Osprey's version
};

/// The manifest of an export: the report's facts plus what the weights' run folder says (nothing when
/// the weights are not in one). Fails when the ONNX file cannot be read for its hash.
Expected<EdgeManifest> edgeManifest(const std::filesystem::path& weights, const OnnxExportReport& report);

/// `<stem>.json` beside the ONNX file.
std::filesystem::path manifestPath(const std::filesystem::path& onnxFile);

/// Writes the manifest as JSON, atomically.
Status writeEdgeManifest(const std::filesystem::path& file, const EdgeManifest& manifest);

/// Reads a manifest back (tests; tools that check an edge box). An error names the file and the field.
Expected<EdgeManifest> readEdgeManifest(const std::filesystem::path& file);

} // namespace osprey::exporter
